"""Filtering: favorites, media type, dates, album, and PhotoKit predicate text with the server's error and caret."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import grid_total, screenshot, sign_in, wait


def test_filters_and_a_bad_predicate_shows_the_caret(browser, server):
    sign_in(browser, server)
    browser.find_element(By.ID, "filter-button").click()
    form = browser.find_element(By.ID, "filter")
    form.find_element(By.NAME, "predicate").send_keys("pixelWidth > > 3")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".predicate-error") if d.find_element(By.CSS_SELECTOR, ".predicate-error").is_displayed() else None)
    assert "^" in error.text
    screenshot(browser, "filter-error")
    form.find_element(By.NAME, "predicate").clear()
    form.find_element(By.NAME, "from").send_keys("01012021")
    form.find_element(By.NAME, "to").send_keys("12312022")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: not d.find_element(By.CSS_SELECTOR, ".predicate-error").is_displayed())
    expected = server.timeline_count('creationDate >= CAST(631152000, "NSDate") AND creationDate < CAST(694224000, "NSDate")')
    wait(browser, lambda d: grid_total(d) == expected, 10)
    assert 0 < expected < server.timeline_count("mediaType == 1")
    assert all(s.startswith(("2021", "2022")) for s in browser.execute_script("return gallery.grid.sections.map(s => s.id)"))
    form.find_element(By.CSS_SELECTOR, "button[type=reset]").click()
    form.find_element(By.NAME, "favorites").click()
    Select(form.find_element(By.NAME, "media")).select_by_visible_text("Photos")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == server.timeline_count("favorite == YES AND mediaType == 1"), 10)
    form.find_element(By.CSS_SELECTOR, "button[type=reset]").click()
    Select(form.find_element(By.NAME, "album")).select_by_visible_text("Paris 2019")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Paris 2019")
    album = next(a for a in server.get("/v1/albums?limit=1000")["items"] if a["title"] == "Paris 2019")
    wait(browser, lambda d: grid_total(d) == len(server.get(f"/v1/albums/{album['id']}/assets?limit=1000")["items"]), 10)
