"""The viewer: preview then original on zoom, ←/→ in the grid's order, F, Delete, Esc, the info panel, video seeking,
every kind of video playing, Live Photos moving, a Bounce going forward and back by itself."""
import subprocess
import urllib.parse

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import media
from conftest import cell_ids, open_collection, open_viewer, screenshot, show_busiest_month, sign_in, wait


def test_keys_walk_the_grid_and_favorite_info_zoom_and_close(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    viewer = open_viewer(browser, ids[1])
    image = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-media"))
    assert "/preview?v=" in image.get_attribute("src") and image.get_attribute("alt")
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    viewer.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda d: d.find_element(By.ID, "viewer").get_attribute("data-id") == ids[2])
    viewer.send_keys(Keys.ARROW_LEFT)
    viewer.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: d.find_element(By.ID, "viewer").get_attribute("data-id") == ids[0])
    before = server.asset(ids[0])["isFavorite"]
    viewer.send_keys("f")
    wait(browser, lambda d: server.asset(ids[0])["isFavorite"] == (not before), 10, "F did not change the favorite")
    viewer.send_keys("i")
    info = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-info dl") if "Albums" in d.find_element(By.CSS_SELECTOR, ".viewer-info").text and "…" not in d.find_element(By.CSS_SELECTOR, ".viewer-info").text else None)
    text = info.text
    assert "Date" in text and "Size" in text and "Camera" in text and "Place" in text
    screenshot(browser, "viewer-info")
    viewer.send_keys("z")
    wait(browser, lambda d: "/original" in d.find_element(By.CSS_SELECTOR, ".viewer-media").get_attribute("src"))
    viewer.send_keys("i")
    viewer.send_keys("z")
    screenshot(browser, "viewer")
    viewer.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not d.find_element(By.ID, "viewer").is_displayed())
    server.change({"op": "updateAsset", "asset": ids[0], "favorite": before})


def test_delete_in_the_viewer_moves_to_recently_deleted_and_shows_the_next(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    viewer = open_viewer(browser, ids[3])
    viewer.send_keys(Keys.DELETE)
    wait(browser, lambda d: d.find_element(By.ID, "viewer").get_attribute("data-id") == ids[4])
    wait(browser, lambda d: ids[3] in server.deleted_ids(), 10)
    viewer.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: ids[3] not in cell_ids(d), 10, "the deleted photo stayed in the grid")
    server.change({"op": "restoreAssets", "assets": [ids[3]]})
    wait(browser, lambda d: ids[3] in cell_ids(d), 10, "the restored photo did not come back")


def test_a_swipe_moves_to_the_next_photo(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    open_viewer(browser, ids[0])
    browser.execute_script("""
        const stage = document.querySelector('.viewer-stage');
        stage.dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', clientX: 600, clientY: 300, bubbles: true}));
        stage.dispatchEvent(new PointerEvent('pointerup', {pointerType: 'touch', clientX: 300, clientY: 310, bubbles: true}));""")
    wait(browser, lambda d: d.find_element(By.ID, "viewer").get_attribute("data-id") == ids[1])


def test_a_video_plays_and_seeks_with_range_requests(browser, server, tmp_path):
    path = media.video(tmp_path, "clip.mp4", seconds=8)
    server.photos("import", str(path), "--quiet")
    video = server.get("/v1/assets?predicate=" + urllib.parse.quote("mediaType == 2"))["items"][0]["id"]
    sign_in(browser, server)
    open_collection(browser, "Videos")
    wait(browser, lambda d: video in cell_ids(d), 10)
    open_viewer(browser, video)
    element = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "video.viewer-media"))
    wait(browser, lambda d: d.execute_script("return arguments[0].readyState >= 1", element), 20, "the video's metadata did not load")
    assert abs(browser.execute_script("return arguments[0].duration", element) - 8) < 0.5
    seeked = browser.execute_async_script("""
        const [video, done] = arguments;
        video.muted = true;
        video.addEventListener('seeked', () => done(video.currentTime), {once: true});
        video.addEventListener('error', () => done(-1), {once: true});
        video.currentTime = 6;""", element)
    assert abs(seeked - 6) < 0.6
    log = (server.workdir / "serve.log").read_text()
    assert f"GET /v1/assets/{video}/video?v=0 206" in log or f"GET /v1/assets/{video}/video 206" in log, \
        "the browser did not fetch the video by ranges"
    screenshot(browser, "viewer-video")


def plays(browser, element, seconds=60):
    """Waits until the video element has played past its first frames; its error code, or 0 when it plays."""
    return browser.execute_async_script("""
        const [video, seconds, done] = arguments;
        const timer = setTimeout(() => done(-1), seconds * 1000);
        const check = () => {
            if (video.currentTime > 0.2) { clearTimeout(timer); done(0); }
        };
        video.muted = true;
        video.addEventListener('timeupdate', check);
        video.addEventListener('canplay', () => video.play().catch(() => {}));
        if (video.readyState >= 3) video.play().catch(() => {});
        check();""", element, seconds)


@pytest.mark.parametrize("kind", list(media.VIDEO_KINDS))
def test_every_kind_of_video_plays_in_the_browser(browser, server, tmp_path, kind):
    path = media.video_of_kind(tmp_path, kind)
    videos = lambda: {item["id"] for item in server.get("/v1/assets?limit=1000&predicate=" + urllib.parse.quote("mediaType == 2"))["items"]}
    before = videos()
    server.photos("import", str(path), "--quiet")
    [video] = videos() - before
    sign_in(browser, server)
    open_collection(browser, "Videos")
    wait(browser, lambda d: video in cell_ids(d), 10)
    open_viewer(browser, video)
    element = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "video.viewer-media"))
    assert plays(browser, element) == 0, f"the {kind} did not play"
    log = (server.workdir / "serve.log").read_text()
    assert f"GET /v1/assets/{video}/video" in log


def test_a_live_photo_moves_while_the_pointer_rests_on_live(browser, server, tmp_path):
    still, motion = media.live_photo(tmp_path)
    lives = lambda: [item for item in server.get("/v1/assets?limit=1000&predicate=" + urllib.parse.quote("(mediaSubtypes & 8) != 0"))["items"]]
    before = {item["id"] for item in lives()}
    server.photos("import", str(still), str(motion), "--quiet")
    live = [item for item in lives() if item["id"] not in before]
    assert len(live) == 1, "the two files are one Live Photo"
    sign_in(browser, server)
    open_collection(browser, "Live Photos")
    wait(browser, lambda d: live[0]["id"] in cell_ids(d), 10)
    open_viewer(browser, live[0]["id"])
    button = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-live"))
    assert button.is_displayed()
    ActionChains(browser).move_to_element(button).perform()
    motion_element = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "video.viewer-motion"), 10)
    assert plays(browser, motion_element) == 0, "the Live Photo's motion did not play"
    ActionChains(browser).move_by_offset(0, 300).perform()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "video.viewer-motion"), 10, "the motion did not stop")


def test_a_bounce_plays_forward_and_back_by_itself(browser, server, tmp_path):
    still, motion = media.live_photo(tmp_path, identifier="5F2A9C1E-0000-4000-8000-00000000AA07")
    media.apple_adjustments(tmp_path / "IMG_0100.AAE", render_types=0x8)
    bounces = lambda: [item for item in server.get("/v1/assets?limit=1000&predicate=" + urllib.parse.quote("(mediaSubtypes & 8) != 0"))["items"]
                       if item["playbackVariation"] == "mirror"]
    server.photos("import", str(still), str(motion), "--quiet")
    [bounce] = bounces()
    assert bounce["playbackStyle"] == "videoLooping", "a Bounce plays as a looping video"
    sign_in(browser, server)
    open_collection(browser, "Live Photos")
    wait(browser, lambda d: bounce["id"] in cell_ids(d), 10)
    # The browsers of these tests ask for reduced motion: the Bounce waits, still, for the pointer.
    viewer = open_viewer(browser, bounce["id"])
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-live").text == "BOUNCE")
    assert not browser.find_elements(By.CSS_SELECTOR, "video.viewer-motion"), "a Bounce moved though the reader asked for less motion"
    viewer.send_keys(Keys.ESCAPE)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
    try:
        open_viewer(browser, bounce["id"])
        # No pointer on the button: it moves by itself.
        motion_element = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "video.viewer-motion"), 10)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert "Bounce" in motion_element.get_attribute("aria-label")
    assert browser.find_element(By.CSS_SELECTOR, ".viewer-live").text == "BOUNCE"
    assert plays(browser, motion_element) == 0, "the Bounce did not play"
    went_back = browser.execute_async_script("""
        const [video, done] = arguments;
        let furthest = 0;
        const timer = setInterval(() => {
            furthest = Math.max(furthest, video.currentTime);
            if (furthest > 1.5 && video.currentTime < furthest - 0.5) { clearInterval(timer); done(true); }
        }, 50);
        setTimeout(() => { clearInterval(timer); done(false); }, 20000);""", motion_element)
    assert went_back, "the Bounce did not come back from its end"
    assert browser.find_elements(By.CSS_SELECTOR, "video.viewer-motion"), "a Bounce keeps moving"


def test_a_photo_shows_the_time_it_was_taken_where_it_was_taken(browser, server, tmp_path):
    path = media.photo(tmp_path, "IMG_0600.JPG", 60, date="2024:06:08 00:30:00")
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-OffsetTimeOriginal=+02:00", str(path)], check=True)
    ids = lambda: {item["id"] for item in server.get("/v1/assets?limit=1000&predicate=" + urllib.parse.quote("pixelWidth == 640"))["items"]}
    before = ids()
    server.photos("import", str(path), "--quiet")
    [photo] = ids() - before
    assert server.asset(photo)["creationTimeZoneOffset"] == 7200
    # A viewer in New York, six hours behind Paris, still sees 00:30 on 8 June.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    try:
        server.change({"op": "createAlbum", "title": "Taken in Paris", "addAssets": [photo]})
        sign_in(browser, server)
        open_collection(browser, "Taken in Paris")
        wait(browser, lambda d: photo in cell_ids(d), 10)
        open_viewer(browser, photo)
        browser.find_element(By.ID, "viewer").send_keys("i")
        row = wait(browser, lambda d: next((dd for dt, dd in zip(d.find_elements(By.CSS_SELECTOR, ".viewer-info dt"),
                                                                  d.find_elements(By.CSS_SELECTOR, ".viewer-info dd")) if dt.text == "Date"), None))
        assert "June 8, 2024" in row.text and "12:30" in row.text, row.text
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
