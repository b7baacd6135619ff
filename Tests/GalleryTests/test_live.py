"""Live: a change made by `photos` in another process animates into the open grid; after a dropped stream, nothing is missed."""
from selenium.webdriver.common.by import By

import media
from conftest import cell_ids, show_busiest_month, sign_in, wait, screenshot


def test_an_import_by_another_process_animates_into_the_grid(browser, server, tmp_path):
    sign_in(browser, server)
    browser.execute_script("""
        window.__animated = [];
        gallery.grid.addEventListener('animated', (e) => window.__animated.push({...e.detail, at: performance.now()}));""")
    path = media.photo(tmp_path, "live.jpg", 77)
    server.photos("import", str(path), "--quiet")
    new = server.timeline_ids()[0]
    wait(browser, lambda d: any(new in a["inserted"] for a in d.execute_script("return window.__animated")), 10, "the import did not animate in")
    assert cell_ids(browser)[0] == new
    assert any(a["moved"] for a in browser.execute_script("return window.__animated")), "the cells after the new photo did not move to make room"
    screenshot(browser, "live-insert")
    server.photos("delete", new)
    wait(browser, lambda d: new not in cell_ids(d), 10, "a deletion by another process did not leave the grid")


def test_changes_made_while_the_stream_is_down_arrive_after_it_reconnects(browser, server):
    sign_in(browser, server)
    target = show_busiest_month(browser)[2]
    before = server.asset(target)["isFavorite"]
    # The stream drops (as when the network goes): the gallery's own recovery resumes from its last token.
    browser.execute_script("gallery.stream.source.close(); gallery.stream.reopen()")
    server.change({"op": "updateAsset", "asset": target, "favorite": not before})
    wait(browser, lambda d: ("favorite" in d.find_element(By.CSS_SELECTOR, f'#grid .cell[data-id="{target}"]').get_attribute("aria-label")) == (not before),
         40, "the change made while disconnected never arrived")
    server.change({"op": "updateAsset", "asset": target, "favorite": before})
