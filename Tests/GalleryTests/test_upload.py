"""Uploads: picked files with progress, a dropped connection resumed, duplicates reported and not sent again."""
import time
import urllib.request

from selenium.webdriver.common.by import By

import media
from conftest import sign_in, wait, screenshot


def pick(browser, *paths):
    field = browser.find_element(By.ID, "file-input")
    browser.execute_script("arguments[0].hidden = false", field)
    field.send_keys("\n".join(str(p) for p in paths))
    browser.execute_script("arguments[0].hidden = true", field)


def rows(browser):
    return browser.execute_script("""return [...document.querySelectorAll('#uploads .upload')].map(r => ({
        name: r.querySelector('.name').textContent, status: r.querySelector('.status').textContent,
        value: r.querySelector('progress').value, max: r.querySelector('progress').max, asset: r.dataset.asset || null}))""")


def test_files_upload_with_progress_and_duplicates_are_not_sent_again(browser, server, tmp_path):
    first, second = media.photo(tmp_path, "upload-1.jpg", 101), media.photo(tmp_path, "upload-2.jpg", 102)
    sign_in(browser, server)
    pick(browser, first, second)
    wait(browser, lambda d: [r["status"] for r in rows(d)] == ["Added", "Added"], 30, "uploads did not finish")
    done = rows(browser)
    assert all(r["value"] == r["max"] for r in done)
    assert browser.execute_script("return document.querySelector('#uploads progress.overall').value === document.querySelector('#uploads progress.overall').max")
    for row in done:
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'#grid .cell[data-id="{row["asset"].split("/")[0]}"]'), 10, "an upload did not appear in the grid")
    screenshot(browser, "upload")
    count = server.get("/v1/library")["counts"]["photos"]
    uploads_before = (server.workdir / "serve.log").read_text().count("PATCH /v1/uploads/")
    pick(browser, first)
    wait(browser, lambda d: rows(d)[-1]["status"] == "Already in the library", 20)
    assert server.get("/v1/library")["counts"]["photos"] == count
    assert (server.workdir / "serve.log").read_text().count("PATCH /v1/uploads/") == uploads_before, "a duplicate's bytes were sent"


def test_an_upload_resumes_after_the_connection_drops(browser, server, tmp_path):
    path = media.big_file(tmp_path, "big.jpg", 12)
    sign_in(browser, server)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 5, "downloadThroughput": -1, "uploadThroughput": 3_000_000})
    browser.execute_script("""
        window.__statuses = [];
        new MutationObserver(() => document.querySelectorAll('#uploads .status').forEach(s => window.__statuses.push(s.textContent)))
            .observe(document.getElementById('uploads'), {subtree: true, childList: true, characterData: true});""")
    pick(browser, path)
    wait(browser, lambda d: rows(d) and 0 < rows(d)[-1]["value"] < rows(d)[-1]["max"] / 2, 30, "the upload did not start")
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait(browser, lambda d: "Connection lost, retrying" in d.execute_script("return window.__statuses"), 20, "the dropped connection was not noticed")
    time.sleep(1)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait(browser, lambda d: rows(d)[-1]["status"] == "Added", 90, "the upload did not resume and finish")
    asset = rows(browser)[-1]["asset"].split("/")[0]
    resources = server.get(f"/v1/assets/{asset}/resources")
    assert resources[0]["originalFilename"] == "big.jpg"
    request = urllib.request.Request(f"{server.base}/v1/assets/{asset}/original", headers={"Authorization": "Bearer " + server.token})
    with urllib.request.urlopen(request) as response:
        assert response.read() == path.read_bytes(), "the resumed upload did not store the file as it is"


def test_a_live_photos_two_files_picked_together_become_one_live_photo(browser, server, tmp_path):
    still, motion = media.live_photo(tmp_path, identifier="5F2A9C1E-0000-4000-8000-00000000AB02")
    sign_in(browser, server)
    pick(browser, still, motion)
    wait(browser, lambda d: [r["status"] for r in rows(d)][-2:] == ["Added", "Added"], 60, "the pair was not added")
    photo_row, video_row = rows(browser)[-2:]
    assert photo_row["asset"] and photo_row["asset"] == video_row["asset"], "the two files are one asset"
    asset = server.asset(photo_row["asset"].split("/")[0])
    assert "photoLive" in asset["mediaSubtypes"], "a Live Photo"
