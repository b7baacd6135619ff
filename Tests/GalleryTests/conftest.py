"""Fixtures for the gallery's browser tests.

A library made by `photos demo`, served by `photos serve` on a free loopback
port, an owner token, and Debian's headless Chromium driven by Selenium.
Screenshots go to $GALLERY_SCREENSHOTS (default .build/gallery-screenshots).
"""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException, NoSuchElementException,
                                        StaleElementReferenceException)
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = Path(os.environ.get("PHOTOS_BIN", ROOT / ".build" / "debug" / "photos"))
SCREENSHOTS = Path(os.environ.get("GALLERY_SCREENSHOTS", ROOT / ".build" / "gallery-screenshots"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `photos serve` of a demo library, and the API as its owner sees it."""

    def __init__(self, workdir):
        self.workdir = Path(workdir)
        self.library = self.workdir / "Gallery.photoslibrary"
        # TMPDIR too: `photos demo --keep` keeps the photos it generates in a
        # temporary folder, which then goes with the work directory.
        self.env = {**os.environ, "PHOTOS_LIBRARY": str(self.library), "TMPDIR": str(self.workdir)}
        self.photos("demo", "--assets", "150", "--keep", "--library", str(self.library))
        self.token = self.photos("token", "create", "--owner", "--label", "gallery tests", "--quiet").strip()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(self.workdir / "serve.log", "w")
        self.process = subprocess.Popen([str(PHOTOS), "serve", "--port", str(self.port)], env=self.env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("photos serve did not start: " + (self.workdir / "serve.log").read_text())

    def photos(self, *args):
        result = subprocess.run([str(PHOTOS), *args], env=self.env, capture_output=True, text=True)
        assert result.returncode == 0, f"photos {' '.join(args)} exited with {result.returncode}:\n{result.stderr[-4000:]}"
        return result.stdout

    def api(self, method, path, body=None, token=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + (token or self.token))
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, (json.loads(text) if text and "json" in response.headers.get("Content-Type", "") else text)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def get(self, path, token=None):
        status, body = self.api("GET", path, token=token)
        assert status == 200, f"GET {path}: {status} {body}"
        return body

    def timeline_ids(self, token=None):
        """Every id of the timeline, newest first, as the API pages it."""
        ids = []
        for bucket in self.get("/v1/timeline", token)["buckets"]:
            for page in range(bucket["pages"]):
                ids += self.get(f"/v1/timeline/{bucket['id']}?page={page}", token)["ids"]
        return ids

    def timeline_count(self, predicate=None):
        """How many assets the timeline holds, all or those `predicate` (PhotoKit predicate text) takes."""
        query = "?predicate=" + urllib.parse.quote(predicate) if predicate else ""
        return sum(b["count"] for b in self.get("/v1/timeline" + query)["buckets"])

    def asset(self, id):
        status, body = self.api("GET", f"/v1/assets/{id}")
        return body if status == 200 else None

    def deleted_ids(self):
        """The ids in Recently Deleted (an asset there is still found by id, so it can be shown)."""
        trash = next(a for a in self.get("/v1/smart-albums?limit=100")["items"] if a["subtype"] == "recentlyDeleted")
        return {x["id"] for x in self.get(f"/v1/albums/{trash['id']}/assets?limit=1000")["items"]}

    def change(self, *requests):
        status, body = self.api("POST", "/v1/changes", {"requests": list(requests)})
        assert status == 200, body
        return body

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        self.log.close()


@pytest.fixture(scope="session")
def server():
    workdir = tempfile.mkdtemp(prefix="gallery-tests-")
    server = Server(workdir)
    yield server
    server.stop()
    shutil.rmtree(workdir, ignore_errors=True)


# Chromium leaves a folder for its singleton socket in TMPDIR at every
# exit, so each browser gets this one, removed when the tests end.
CHROMIUM_TMPDIR = tempfile.mkdtemp(prefix="gallery-chromium-")


@pytest.fixture(scope="session", autouse=True)
def chromium_tmpdir():
    yield CHROMIUM_TMPDIR
    shutil.rmtree(CHROMIUM_TMPDIR, ignore_errors=True)


def make_driver(width=1280, height=900, mobile=False):
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--force-prefers-reduced-motion=0"]:
        options.add_argument(argument)
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env={**os.environ, "TMPDIR": CHROMIUM_TMPDIR})
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_script_timeout(30)
    return driver


@pytest.fixture
def browser():
    driver = make_driver()
    yield driver
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "Uncaught" in e["message"]]
    driver.quit()
    assert not errors, f"JavaScript errors: {errors}"


def wait(driver, condition, timeout=15, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)) \
        .until(lambda d: condition(d), message)


def sign_in(driver, server, token=None):
    driver.get(server.base + "/")
    field = wait(driver, lambda d: d.find_element(By.NAME, "token") if d.find_element(By.ID, "sign-in").is_displayed() else None)
    field.send_keys(token or server.token)
    driver.find_element(By.CSS_SELECTOR, ".sign-in button[type=submit]").click()
    wait_ready(driver)


def wait_ready(driver):
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), 20, "the gallery did not start")
    wait(driver, lambda d: d.execute_script("return gallery.grid.sections.length === 0 || document.querySelectorAll('.cell').length > 0"), 20,
         "no cells were drawn")


def cell_ids(driver):
    """The ids of the cells on screen, in reading order (top to bottom, left to right)."""
    return driver.execute_script("""
        const cells = [...document.querySelectorAll('#grid .cell:not(.leaving)')].filter(c => gallery.grid.placement(c).y + gallery.grid.placement(c).h > 0 && gallery.grid.placement(c).y < gallery.grid.viewportHeight);
        cells.sort((a, b) => gallery.grid.placement(a).y - gallery.grid.placement(b).y || gallery.grid.placement(a).x - gallery.grid.placement(b).x);
        return cells.map(c => c.dataset.id);""")


def screenshot(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def open_collection(driver, title):
    """Opens a collection from the side bar by its title and waits for its grid."""
    def find(d):
        entry = next((e for e in d.find_elements(By.CSS_SELECTOR, ".nav-entry") if e.get_attribute("data-title") == title), None)
        if entry is None:  # it may be inside a folder: open the closed ones
            for folder in d.find_elements(By.CSS_SELECTOR, 'li[aria-expanded="false"] > .nav-entry'):
                folder.click()
                break
        return entry
    entry = wait(driver, find, 15, f"no {title} in the side bar")
    entry.click()
    wait(driver, lambda d: d.find_element(By.ID, "view-title").text == title)
    wait(driver, lambda d: d.execute_script("return gallery.grid.sections.length === 0 || document.querySelectorAll('#grid .cell').length > 0"), 10)


def grid_total(driver):
    """How many assets the grid's sections hold."""
    return driver.execute_script("return gallery.grid.sections.reduce((n, s) => n + s.count, 0)")


def open_viewer(driver, id):
    """Opens the viewer on the cell of `id` and returns it.

    The click is retried while the grid is still settling after a jump (the cell drawn but not yet where the
    pointer can reach it), as a person would click again."""
    def click(d):
        try:
            d.find_element(By.CSS_SELECTOR, f'#grid .cell[data-id="{id}"]').click()
            return True
        except (ElementNotInteractableException, ElementClickInterceptedException):
            return False
    wait(driver, click, 10, f"the cell of {id} could not be clicked")
    wait(driver, lambda d: d.find_element(By.ID, "viewer").get_attribute("data-id") == id)
    return driver.find_element(By.ID, "viewer")


def show_busiest_month(driver):
    """Moves the grid to the month with the most photos, so a screenful of cells is there to use; returns their ids."""
    driver.execute_script("""
        const busiest = gallery.grid.sections.reduce((a, b) => (b.count > a.count ? b : a));
        gallery.grid.jumpTo(busiest.id);""")
    wait(driver, lambda d: len(cell_ids(d)) >= 8, 10, "the busiest month did not fill the screen")
    return cell_ids(driver)
