"""Search: the box with suggestions as you type, results in the same grid and viewer, and the places view."""

import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import grid_total, open_viewer, screenshot, sign_in, wait


def indexed(server):
    """Waits for `photos serve`'s background indexer to have named the demo's places."""
    deadline = time.time() + 30
    while time.time() < deadline:
        if server.get("/v1/places")["items"]:
            return server.get("/v1/places")["items"]
        time.sleep(0.2)
    raise AssertionError("the server's indexer named no place")


def search_total(server, q):
    return server.get("/v1/search?limit=1&q=" + urllib.parse.quote(q))["total"]


def test_search_suggests_finds_and_opens_in_the_grid_and_viewer(browser, server):
    indexed(server)
    sign_in(browser, server)
    # The owner is told of the indexer's progress only while it has work.
    wait(browser, lambda d: not d.find_element(By.ID, "index-state").is_displayed())
    assert server.get("/v1/index")["searchable"] == server.get("/v1/index")["assets"]
    box = browser.find_element(By.CSS_SELECTOR, "#search input[name=q]")
    box.send_keys("kyo")
    # Suggestions as you type: the city the photos were taken in.
    wait(browser, lambda d: any(o.get_attribute("value") == "Kyoto" for o in d.find_elements(By.CSS_SELECTOR, "#search-suggestions option")))
    box.send_keys("to", Keys.ENTER)
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Search: kyoto")
    expected = search_total(server, "kyoto")
    assert expected > 0
    wait(browser, lambda d: grid_total(d) == expected, 10)
    assert browser.execute_script("return document.body.dataset.view") == "search"
    screenshot(browser, "search-kyoto")
    # A result opens in the same viewer.
    first = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#grid .cell").get_attribute("data-id"))
    viewer = open_viewer(browser, first)
    viewer.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not d.find_element(By.ID, "viewer").is_displayed())
    # Filters combine with words; a search nothing matches shows an empty grid.
    box.clear()
    box.send_keys("japan favorite", Keys.ENTER)
    wait(browser, lambda d: grid_total(d) == search_total(server, "japan favorite"), 10)
    # Text read in a photo: the demo's receipt, found by what it says, and despite a typo.
    for query in ["plumber", "plumbre kitchen"]:
        box.clear()
        box.send_keys(query, Keys.ENTER)
        wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Search: " + query)
        assert search_total(server, query) == 1
        wait(browser, lambda d: grid_total(d) == 1, 10)
    box.clear()
    box.send_keys("zzzqqq", Keys.ENTER)
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Search: zzzqqq")
    wait(browser, lambda d: grid_total(d) == 0, 10)
    # Emptying the box goes back to the timeline.
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Photos")


def test_places_list_countries_then_cities_and_open_their_photos(browser, server):
    places = indexed(server)
    sign_in(browser, server)
    section = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "details.places") if d.find_element(By.CSS_SELECTOR, "details.places").is_displayed() else None)
    section.find_element(By.TAG_NAME, "summary").click()
    japan = wait(browser, lambda d: next((s for s in d.find_elements(By.CSS_SELECTOR, ".place-country") if s.text.startswith("Japan")), None))
    kyoto = next(p for p in places if p["city"] == "Kyoto")
    assert japan.find_element(By.CSS_SELECTOR, ".count").text == f"{kyoto['assetCount']:,}"
    japan.click()
    entry = wait(browser, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, "details.places .nav-entry") if e.get_attribute("data-title") == "Kyoto"), None))
    cover = entry.find_element(By.CSS_SELECTOR, "img.place-cover")
    wait(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", cover), 10, "the cover did not load")
    screenshot(browser, "places")
    entry.click()
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Search: Kyoto")
    wait(browser, lambda d: grid_total(d) == kyoto["assetCount"], 10)
