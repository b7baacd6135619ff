"""Ratings, captions and keywords: keys 0–5 in the viewer and over a selection, the info panel's stars, caption and
keywords, the grid's star badges, and filtering by rating and keyword."""

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import cell_ids, grid_total, open_viewer, screenshot, show_busiest_month, sign_in, wait


def shown(browser, id):
    """Whether the grid holds `id` in a page it has loaded."""
    return browser.execute_script("return gallery.grid.columnsOf(arguments[0]) !== null", id)


def badge(browser, id):
    return browser.execute_script(
        "return document.querySelector(`#grid .cell[data-id=\"${arguments[0]}\"] .badge.rating`)?.textContent ?? ''", id)


def replaced(element):
    """Whether `element` has left the page: the panel holding it was drawn again."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True


def test_the_viewer_rates_with_keys_and_edits_caption_and_keywords(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    id = next(id for id in ids if server.asset(id).get("rating", 0) == 0)
    keywords = server.asset(id).get("keywords", [])  # the demo's trip keyword
    viewer = open_viewer(browser, id)
    viewer.send_keys("4")
    wait(browser, lambda d: server.asset(id)["rating"] == 4, 10, "4 did not rate the photo")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-rating").text == "★★★★")
    viewer.send_keys("i")
    info = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-info .rating-control"))
    assert [b.get_attribute("aria-pressed") for b in info.find_elements(By.TAG_NAME, "button")] == \
        ["false", "false", "false", "true", "false"]

    caption = browser.find_element(By.CSS_SELECTOR, ".viewer-info textarea[name=caption]")
    caption.send_keys("Boats at dawn, 5 of them")
    caption.send_keys(Keys.ENTER)
    wait(browser, lambda d: server.asset(id).get("caption") == "Boats at dawn, 5 of them", 10, "the caption was not saved")
    assert server.asset(id)["rating"] == 4, "a digit typed in the caption rated the photo"
    # The viewer draws its panel again once the edit returns; its fields are new then.
    wait(browser, lambda d: replaced(caption), 10, "the panel was not drawn again after the caption was saved")

    keyword = browser.find_element(By.CSS_SELECTOR, ".viewer-info input[name=keyword]")
    keyword.send_keys("harbour", Keys.ENTER)
    wait(browser, lambda d: server.asset(id).get("keywords", []) == keywords + ["harbour"], 10, "the keyword was not added")
    # The panel is redrawn with the keyword field still focused, so the next one is typed straight on.
    wait(browser, lambda d: "harbour" in d.find_element(By.CSS_SELECTOR, ".viewer-info .keywords").text)
    browser.switch_to.active_element.send_keys("Sea \"quoted\"", Keys.ENTER)
    wait(browser, lambda d: server.asset(id).get("keywords", []) == keywords + ["harbour", "Sea \"quoted\""], 10)
    screenshot(browser, "viewer-descriptive")
    remove = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '.viewer-info button[aria-label="Remove keyword harbour"]'))
    remove.click()
    wait(browser, lambda d: server.asset(id).get("keywords", []) == keywords + ["Sea \"quoted\""], 10, "the keyword was not removed")

    # The current rating's star clears it; 0 clears it too.
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".rating-control button")[1].click() or True)
    wait(browser, lambda d: server.asset(id)["rating"] == 2, 10)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".rating-control button")[1].get_attribute("aria-pressed") == "true")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".rating-control button")[1].click() or True)
    wait(browser, lambda d: server.asset(id)["rating"] == 0, 10, "the current star did not clear the rating")
    viewer.send_keys("5")
    wait(browser, lambda d: server.asset(id)["rating"] == 5, 10)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".rating-control button")[4].get_attribute("aria-pressed") == "true")

    # An empty caption clears it.
    caption = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".viewer-info textarea[name=caption]"))
    caption.clear()
    viewer.click()
    wait(browser, lambda d: server.asset(id).get("caption") is None, 10, "an emptied caption was not cleared")
    viewer.send_keys(Keys.ESCAPE)
    wait(browser, lambda d: badge(d, id) == "★★★★★", 10, "the grid's cell shows no stars")
    assert "5 stars" in browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-id="{id}"]').get_attribute("aria-label")
    server.change({"op": "updateAsset", "asset": id, "rating": 0, "removeKeywords": ["Sea \"quoted\""]})
    wait(browser, lambda d: badge(d, id) == "", 10, "a rating cleared elsewhere stayed on the cell")


def test_keys_rate_a_selection_and_the_filter_finds_ratings_and_keywords(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    chosen = [id for id in ids if server.asset(id).get("rating", 0) == 0][:3]
    keywords = {id: server.asset(id).get("keywords", []) for id in chosen}
    for id in chosen:
        browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-id="{id}"] .check').click()
    wait(browser, lambda d: d.execute_script("return gallery.selection.size") == 3)
    browser.find_element(By.TAG_NAME, "body").send_keys("3")
    wait(browser, lambda d: all(server.asset(id)["rating"] == 3 for id in chosen), 10, "3 did not rate the selection")
    wait(browser, lambda d: all(badge(d, id) == "★★★" for id in chosen), 10)

    button = wait(browser, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#selection-bar button") if b.text == "Add keyword"), None))
    button.click()
    field = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog input[name=value]"))
    field.send_keys("Regatta", Keys.ENTER)
    wait(browser, lambda d: all(server.asset(id).get("keywords", []) == keywords[id] + ["Regatta"] for id in chosen), 10)
    server.change({"op": "updateAsset", "asset": chosen[0], "rating": 5})

    browser.find_element(By.ID, "filter-button").click()
    form = browser.find_element(By.ID, "filter")
    Select(form.find_element(By.NAME, "rating")).select_by_value("3")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == server.timeline_count("rating >= 3") and all(shown(d, id) for id in chosen), 10,
         "the rating filter did not hold the rated photos")
    Select(form.find_element(By.NAME, "rating")).select_by_value("5")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == server.timeline_count("rating == 5") and shown(d, chosen[0]) and not shown(d, chosen[1]), 10)
    Select(form.find_element(By.NAME, "rating")).select_by_value("0")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == server.timeline_count("rating == 0") and not shown(d, chosen[1]), 10)
    form.find_element(By.CSS_SELECTOR, "button[type=reset]").click()
    wait(browser, lambda d: grid_total(d) == server.timeline_count(), 10)
    form.find_element(By.NAME, "keyword").send_keys("regatta")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == 3 and sorted(cell_ids(d)) == sorted(chosen), 10, "the keyword filter (any case) did not find them")
    form.find_element(By.NAME, "keyword").clear()
    form.find_element(By.NAME, "keyword").send_keys('say "hi" \\')
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: grid_total(d) == 0, 10, "a keyword with quotes was not taken as text")
    assert not browser.find_element(By.CSS_SELECTOR, ".predicate-error").is_displayed()
    form.find_element(By.CSS_SELECTOR, "button[type=reset]").click()
    server.change(*({"op": "updateAsset", "asset": id, "rating": 0, "removeKeywords": ["Regatta"]} for id in chosen))
