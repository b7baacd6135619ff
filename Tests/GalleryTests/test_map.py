"""The map: the countries drawn from the server's own outlines with nothing from another origin, the token's located
photos as markers that open their photos, zooming, and an owner's tile server when one is set."""

import http.server
import subprocess
import threading
import time
import urllib.request

from selenium.webdriver.common.by import By

from conftest import PHOTOS, free_port, grid_total, screenshot, sign_in, wait

# A 1x1 PNG, every tile the stand-in tile server sends.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201a1c8d62b0000000049454e44ae426082")


def located_total(server):
    return sum(c["assetCount"] for c in server.get("/v1/map/clusters?south=-90&west=-180&north=90&east=180&cell=360")["items"])


def open_map(browser):
    entry = wait(browser, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, ".nav-entry") if e.get_attribute("data-title") == "Map"), None))
    entry.click()
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Map")
    wait(browser, lambda d: d.find_element(By.ID, "map").get_attribute("data-ready") == "true", 15, "the map's markers did not load")
    return browser.find_element(By.ID, "map")


def markers(browser):
    return browser.execute_script("return [...document.querySelectorAll('#map .map-marker')].map(m => Number(m.dataset.count))")


def test_the_map_draws_the_countries_offline_and_a_marker_opens_its_photos(browser, server):
    total = located_total(server)
    assert total > 0, "the demo's photos have places"
    sign_in(browser, server)
    element = open_map(browser)
    assert element.get_attribute("data-countries") == "177" and element.get_attribute("data-tiles") == "none"
    # The countries are painted: the canvas is not empty.
    painted = browser.execute_script("""
        const canvas = document.querySelector('#map canvas');
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let count = 0;
        for (let i = 3; i < pixels.length; i += 4 * 16) if (pixels[i] > 0) count++;
        return count;""")
    assert painted > 1000, painted
    # The first view frames every located photo: the markers hold them all.
    wait(browser, lambda d: sum(markers(d)) == total, 10, f"the markers do not hold the {total} located photos")
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#map .map-marker img')].every(i => i.complete && i.naturalWidth > 0)"), 15, "a marker's photo did not load")
    screenshot(browser, "map")
    # Nothing came from another origin.
    assert browser.execute_script("return performance.getEntriesByType('resource').every(e => e.name.startsWith(location.origin))")

    # Zooming in gathers fewer photos per marker; the biggest marker opens exactly its photos.
    before = len(markers(browser))
    browser.find_element(By.CSS_SELECTOR, "#map .map-controls button[aria-label='Zoom in']").click()
    browser.find_element(By.CSS_SELECTOR, "#map .map-controls button[aria-label='Zoom in']").click()
    wait(browser, lambda d: len(markers(d)) >= before and sum(markers(d)) <= total)
    fullest = max(browser.find_elements(By.CSS_SELECTOR, "#map .map-marker"), key=lambda m: int(m.get_attribute("data-count")))
    count = int(fullest.get_attribute("data-count"))
    search = fullest.get_attribute("data-search")
    assert search.startswith("within:")
    fullest.click()
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text.startswith("Search:"))
    wait(browser, lambda d: grid_total(d) == count, 10, f"the grid does not show the marker's {count} photos")
    assert browser.find_element(By.CSS_SELECTOR, "#search input[name=q]").get_attribute("value") == search


def test_a_limited_token_sees_only_its_photos_on_the_map(browser, server):
    ids = [c["cover"] for c in server.get("/v1/map/clusters?south=-90&west=-180&north=90&east=180&cell=10")["items"]][:2]
    client = f"org.example.map{int(time.time() * 1000)}"
    token = server.photos("token", "create", "--client", client, "--limited", *ids, "--quiet").strip()
    sign_in(browser, server, token)
    open_map(browser)
    wait(browser, lambda d: sorted(markers(d)) == [1] * len(ids), 10, "the limited token's map shows more than its photos")


class Tiles(http.server.BaseHTTPRequestHandler):
    requested = []

    def do_GET(self):
        Tiles.requested.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(PNG)))
        self.end_headers()
        self.wfile.write(PNG)

    def log_message(self, *args):
        pass


def test_an_owners_tile_server_draws_under_the_outlines(browser, server):
    tiles = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Tiles)
    threading.Thread(target=tiles.serve_forever, daemon=True).start()
    port = free_port()
    log = open(server.workdir / "serve-tiles.log", "w")
    process = subprocess.Popen([str(PHOTOS), "serve", "--port", str(port), "--no-index",
                                "--map-tiles", f"http://127.0.0.1:{tiles.server_port}/{{z}}/{{x}}/{{y}}.png",
                                "--map-attribution", "Tiles: test server"], env=server.env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                assert time.time() < deadline, "the second server did not start"
                time.sleep(0.1)
        server_base = server.base
        server.base = base
        try:
            sign_in(browser, server)
            element = open_map(browser)
        finally:
            server.base = server_base
        assert element.get_attribute("data-tiles") == "owner"
        wait(browser, lambda d: d.execute_script(
            "const t = [...document.querySelectorAll('#map .map-tiles img')]; return t.length > 0 && t.every(i => i.complete && i.naturalWidth === 1)"),
            10, "the owner's tiles did not load")
        assert any(path.count("/") == 3 and path.endswith(".png") for path in Tiles.requested), Tiles.requested
        assert browser.find_element(By.CSS_SELECTOR, "#map .map-attribution").text == "Tiles: test server"
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()
        tiles.shutdown()
