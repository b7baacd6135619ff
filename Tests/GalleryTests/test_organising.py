"""Organising: selecting (click, shift-click, drag), favorite, hide, delete and restore, albums and folders, reordering.
Every action is a change block; the grid shows its result from the change stream."""
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import Select

from conftest import cell_ids, show_busiest_month, open_collection, screenshot, sign_in, wait


def cell(browser, id):
    return browser.find_element(By.CSS_SELECTOR, f'#grid .cell[data-id="{id}"]')


def selected(browser):
    return set(browser.execute_script("return [...gallery.selection.ids]"))


def press(browser, label):
    button = wait(browser, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#selection-bar button") if b.text == label), None))
    button.click()


def answer(browser, value=None, choice=None):
    dialog = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"))
    if choice is not None:
        Select(dialog.find_element(By.NAME, "choice")).select_by_visible_text(choice)
    if value is not None:
        field = dialog.find_element(By.NAME, "value")
        field.clear()
        field.send_keys(value)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    def closed(d):
        try:
            return not d.execute_script("return arguments[0].isConnected && arguments[0].open", dialog)
        except StaleElementReferenceException:
            return True
    wait(browser, closed)


def test_click_shift_click_and_drag_select(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    cell(browser, ids[0]).find_element(By.CSS_SELECTOR, ".check").click()
    assert selected(browser) == {ids[0]}
    ActionChains(browser).key_down(Keys.SHIFT).click(cell(browser, ids[4])).key_up(Keys.SHIFT).perform()
    assert selected(browser) == set(ids[:5])
    cell(browser, ids[2]).click()  # a click while selecting toggles
    assert selected(browser) == set(ids[:5]) - {ids[2]}
    browser.find_element(By.ID, "grid").send_keys(Keys.ESCAPE)
    wait(browser, lambda d: not selected(d))
    # A rectangle dragged from the gap left of the first row selects what it crosses.
    first, second = cell(browser, ids[0]), cell(browser, ids[1])
    grid = browser.find_element(By.ID, "grid")
    start = browser.execute_script("const g = arguments[0].getBoundingClientRect(), c = arguments[1].getBoundingClientRect(); return [c.left - g.left - 8, c.top - g.top - 4]", grid, first)
    ActionChains(browser).move_to_element_with_offset(grid, 0, 0).move_by_offset(-grid.size["width"] // 2 + int(start[0]), -grid.size["height"] // 2 + int(start[1])) \
        .click_and_hold().move_to_element(second).move_by_offset(5, 5).release().perform()
    assert {ids[0], ids[1]} <= selected(browser)
    screenshot(browser, "selection")
    press(browser, "Clear selection")


def test_favorite_hide_delete_and_restore_from_the_selection_bar(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)
    a, b = ids[5], ids[6]
    for id in (a, b):
        cell(browser, id).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Favorite")
    wait(browser, lambda d: server.asset(a)["isFavorite"] and server.asset(b)["isFavorite"])
    wait(browser, lambda d: "favorite" in cell(d, a).get_attribute("aria-label"), 10, "the grid did not show the favorite")
    assert cell(browser, a).find_element(By.CSS_SELECTOR, ".badges .favorite").get_attribute("textContent") == "♥"
    cell(browser, a).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Unfavorite")
    wait(browser, lambda d: not server.asset(a)["isFavorite"])
    wait(browser, lambda d: not cell(d, a).find_elements(By.CSS_SELECTOR, ".badges .favorite"), 10, "the heart stayed")
    cell(browser, a).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Hide")
    wait(browser, lambda d: a not in cell_ids(d), 10, "the hidden photo stayed in the timeline")
    open_collection(browser, "Hidden")
    wait(browser, lambda d: a in cell_ids(d))
    cell(browser, a).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Unhide")
    wait(browser, lambda d: not server.asset(a)["isHidden"])
    open_collection(browser, "Photos")
    wait(browser, lambda d: a in show_busiest_month(d), 10)
    cell(browser, b).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Delete")
    wait(browser, lambda d: b not in cell_ids(d), 10)
    assert b in server.deleted_ids()
    open_collection(browser, "Recently Deleted")
    wait(browser, lambda d: b in cell_ids(d))
    wait(browser, lambda d: "loaded" in cell(d, b).get_attribute("class"), 10, "a deleted photo's thumbnail did not load")
    cell(browser, b).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Restore")
    wait(browser, lambda d: b not in server.deleted_ids())
    server.change({"op": "updateAsset", "asset": b, "favorite": False})


def test_albums_and_folders_are_made_filled_renamed_reordered_and_emptied(browser, server):
    sign_in(browser, server)
    ids = show_busiest_month(browser)[:4]
    for id in ids:
        cell(browser, id).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Add to album")
    answer(browser, choice="New album…")
    answer(browser, value="Gallery test album")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.nav-entry[data-title="Gallery test album"]'), 10)
    album = next(a for a in server.get("/v1/albums?limit=1000")["items"] if a["title"] == "Gallery test album")
    assert [x["id"] for x in server.get(f"/v1/albums/{album['id']}/assets")["items"]] == ids
    open_collection(browser, "Gallery test album")
    assert cell_ids(browser) == ids
    # Drag the first photo onto the third: the album's order changes in one change block.
    browser.execute_script("""
        const [from, to] = arguments, data = new DataTransfer();
        from.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: data}));
        to.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: data}));
        to.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: data}));
        from.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: data}));""", cell(browser, ids[0]), cell(browser, ids[2]))
    reordered = [ids[1], ids[0], ids[2], ids[3]]
    wait(browser, lambda d: [x["id"] for x in server.get(f"/v1/albums/{album['id']}/assets")["items"]] == reordered, 10)
    wait(browser, lambda d: cell_ids(d) == reordered, 10, "the grid did not show the new order")
    screenshot(browser, "album")
    cell(browser, ids[3]).find_element(By.CSS_SELECTOR, ".check").click()
    press(browser, "Remove from album")
    wait(browser, lambda d: ids[3] not in cell_ids(d), 10)
    # Rename through the album's menu.
    menu = browser.find_element(By.CSS_SELECTOR, f'li[data-id="{album["id"]}"] > button.small')
    menu.click()
    answer(browser, choice="Rename")
    answer(browser, value="Renamed test album")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.nav-entry[data-title="Renamed test album"]'), 10)
    # A folder, a folder inside it, and an album inside that.
    browser.find_element(By.CSS_SELECTOR, 'button[aria-label="New folder"]').click()
    answer(browser, value="Outer folder")
    outer = wait(browser, lambda d: next((f for f in server.get("/v1/folders?limit=1000")["items"] if f["title"] == "Outer folder"), None))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'li[data-id="{outer["id"]}"] > button.small'))
    browser.find_element(By.CSS_SELECTOR, f'li[data-id="{outer["id"]}"] > button.small').click()
    answer(browser, choice="New folder inside")
    answer(browser, value="Inner folder")
    inner = wait(browser, lambda d: next((f for f in server.get(f"/v1/folders/{outer['id']}/children")["items"] if f["title"] == "Inner folder"), None))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'li[data-id="{inner["id"]}"] > button.small'), 10, "the inner folder is not shown open")
    browser.find_element(By.CSS_SELECTOR, f'li[data-id="{inner["id"]}"] > button.small').click()
    answer(browser, choice="New album inside")
    answer(browser, value="Nested album")
    wait(browser, lambda d: any(c["title"] == "Nested album" for c in server.get(f"/v1/folders/{inner['id']}/children")["items"]))
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.nav-entry[data-title="Nested album"]'), 10)
    screenshot(browser, "albums-and-folders")
    # Delete the album: its photos stay.
    browser.find_element(By.CSS_SELECTOR, f'li[data-id="{album["id"]}"] > button.small').click()
    answer(browser, choice="Delete")
    answer(browser)
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, '.nav-entry[data-title="Renamed test album"]'), 10)
    assert all(server.asset(id) for id in ids)
