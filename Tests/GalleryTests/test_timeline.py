"""The timeline: sign-in, order, scrolling and the scrubber to the oldest photo, position kept on resize, phones, one origin."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import make_driver, screenshot, show_busiest_month, sign_in, wait, wait_ready, cell_ids


def test_a_wrong_token_is_refused_and_a_right_one_signs_in_and_out(browser, server):
    browser.get(server.base + "/")
    field = wait(browser, lambda d: d.find_element(By.NAME, "token"))
    field.send_keys("opk_nothing_like_a_token")
    browser.find_element(By.CSS_SELECTOR, ".sign-in button[type=submit]").click()
    error = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#sign-in .error") if d.find_element(By.CSS_SELECTOR, "#sign-in .error").is_displayed() else None)
    assert "not valid" in error.text
    screenshot(browser, "sign-in")
    field.clear()
    field.send_keys(server.token)
    browser.find_element(By.CSS_SELECTOR, ".sign-in button[type=submit]").click()
    wait_ready(browser)
    browser.refresh()
    wait_ready(browser)  # the session cookie survives a reload
    browser.find_element(By.ID, "sign-out").click()
    wait(browser, lambda d: d.find_element(By.ID, "sign-in").is_displayed())


def test_the_grid_shows_the_library_newest_first(browser, server):
    sign_in(browser, server)
    expected = server.timeline_ids()
    shown = cell_ids(browser)
    assert len(shown) >= 3
    assert shown == expected[: len(shown)]
    # Further down, the cells on screen are the next stretch of the same order.
    browser.execute_script("gallery.grid.scrollBy(1500)")
    wait(browser, lambda d: cell_ids(d) and cell_ids(d)[0] != shown[0])
    further = cell_ids(browser)
    start = expected.index(further[0])
    assert further == expected[start:start + len(further)]
    headers = browser.execute_script("return [...document.querySelectorAll('.section-header')].sort((a,b)=>gallery.grid.placement(a).y-gallery.grid.placement(b).y).map(h => h.textContent)")
    assert headers[0]
    screenshot(browser, "timeline")


def test_cells_are_drawn_where_the_grid_places_them_as_its_layer_moves(browser, server):
    """Scrolling moves one layer, whose base follows far moves; each cell's
    place on screen stays what the grid says it is (`_x`, `_y`), which
    selection and these tests read."""
    sign_in(browser, server)
    browser.execute_script("gallery.grid.rebaseDistance = 400")
    bases = set()
    total = browser.execute_script("return gallery.grid.maxPos()")
    for pos in [0, 350, 1200, 2600, total / 2, total - 10, 900]:
        browser.execute_script("gallery.grid.scrollTo(arguments[0])", pos)
        wait(browser, lambda d: d.execute_script(
            "return !gallery.grid.sections.some((s) => s.loadingGroups || s.loadingPages.size) && !gallery.grid.frame"), 10, "the grid did not settle")
        misplaced = browser.execute_script("""
            const grid = document.getElementById('grid').getBoundingClientRect();
            return [...document.querySelectorAll('#grid .cell:not(.leaving)')].filter((c) => {
                const r = c.getBoundingClientRect();
                return Math.abs(r.top - grid.top - gallery.grid.placement(c).y) > 1 || Math.abs(r.left - grid.left - Math.round(gallery.grid.placement(c).x)) > 1;
            }).map((c) => [c.dataset.id, gallery.grid.placement(c).x, gallery.grid.placement(c).y]);""")
        assert misplaced == [], f"at {pos}: {misplaced}"
        assert cell_ids(browser), f"nothing on screen at {pos}"
        bases.add(browser.execute_script("return gallery.grid.base"))
    assert len(bases) > 2, "the layer's base never moved"


def test_cells_passed_over_before_their_thumbnails_are_asked_for_ask_for_nothing(browser, server):
    """Thumbnails are asked for after the frame that makes their cells; a
    cell scrolled past by then makes no request, and the cells that stay
    all get theirs."""
    sign_in(browser, server)
    settled = "return !gallery.grid.sections.some((s) => s.loadingGroups || s.loadingPages.size) && !gallery.grid.frame"
    far = browser.execute_script("return gallery.grid.maxPos() / 2")
    browser.execute_script("gallery.grid.scrollTo(arguments[0])", far)
    wait(browser, lambda d: d.execute_script(settled), 10, "the middle of the timeline did not settle")
    browser.execute_script("gallery.grid.scrollTo(0)")
    wait(browser, lambda d: d.execute_script(settled), 10, "the top did not settle")
    passed = browser.execute_script("""
        const grid = gallery.grid, before = new Set(grid.rendered.values());
        grid.scrollTo(arguments[0]);
        grid.render();
        const made = [...grid.rendered.values()].filter((e) => e.classList.contains('cell') && !before.has(e));
        grid.scrollTo(0);
        grid.render();
        window.__passed = made.map((c) => c.querySelector('img'));
        return made.length;""", far)
    assert passed > 0, "no cells were made in the middle of the timeline"
    wait(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#grid .cell:not(.leaving)')].every((c) => c.classList.contains('loaded'))"),
        10, "a cell on screen never got its thumbnail")
    asked = browser.execute_script("return window.__passed.filter((image) => image.hasAttribute('src')).length")
    assert asked == 0, f"{asked} of {passed} cells passed over asked for thumbnails"


def test_scrolling_and_the_scrubber_reach_the_oldest_photo(browser, server):
    sign_in(browser, server)
    oldest = server.timeline_ids()[-1]
    grid = browser.find_element(By.ID, "grid")
    grid.click()
    for _ in range(400):
        grid.send_keys(Keys.PAGE_DOWN)
        if oldest in cell_ids(browser):
            break
    wait(browser, lambda d: oldest in cell_ids(d), 10, "page down did not reach the oldest photo")
    grid.send_keys(Keys.HOME)
    wait(browser, lambda d: d.execute_script("return gallery.grid.pos") == 0)
    # The wheel, as a person scrolls.
    browser.execute_script("""
        const grid = document.getElementById('grid');
        window.__wheel = setInterval(() => grid.dispatchEvent(new WheelEvent('wheel', {deltaY: 2000, bubbles: true, cancelable: true})), 16);""")
    wait(browser, lambda d: oldest in cell_ids(d), 30, "the wheel did not reach the oldest photo")
    browser.execute_script("clearInterval(window.__wheel)")
    grid.send_keys(Keys.HOME)
    # The scrubber: a click at its bottom jumps to the end at once.
    scrubber = browser.find_element(By.ID, "scrubber")
    browser.execute_script("""
        const s = arguments[0], r = s.getBoundingClientRect();
        const options = {clientX: r.left + r.width / 2, clientY: r.bottom - 1, bubbles: true, pointerId: 1};
        s.dispatchEvent(new PointerEvent('pointerdown', options));
        s.dispatchEvent(new PointerEvent('pointerup', options));""", scrubber)
    wait(browser, lambda d: oldest in cell_ids(d), 10, "the scrubber did not reach the oldest photo")
    # A year mark jumps to that year.
    marks = browser.find_elements(By.CSS_SELECTOR, ".scrubber-mark.year")
    assert len(marks) >= 2
    section = marks[len(marks) // 2].get_attribute("data-section")
    browser.execute_script("arguments[0].dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerId: 1}))", marks[len(marks) // 2])
    wait(browser, lambda d: d.execute_script("return gallery.grid.currentSection().id") == section)


def test_the_photo_at_the_top_stays_when_the_window_is_resized(browser, server):
    sign_in(browser, server)
    show_busiest_month(browser)
    browser.execute_script("gallery.grid.scrollBy(100)")
    top = cell_ids(browser)[0]
    browser.set_window_size(900, 900)
    wait(browser, lambda d: d.execute_script("return gallery.grid.width") < 900)
    wait(browser, lambda d: top in cell_ids(d)[:6], 5, "the top photo moved away on resize")
    # Resizes far down the timeline lay out deferred sections as they come into view, whose real
    # heights move the view onto others still deferred: every one in view is laid out before it is
    # drawn (a section drawn unlaid-out threw "section.blocks is not iterable").
    for width, scroll in [(700, 4000), (1280, -2500), (600, 6000), (1100, -800), (1280, 3000)]:
        browser.execute_script(f"gallery.grid.scrollBy({scroll})")
        browser.set_window_size(width, 900)
        # The grid has taken the new width (its measure: the element's width less its margins).
        wait(browser, lambda d: d.execute_script(
            "const w = gallery.grid.element.clientWidth; return gallery.grid.width === Math.max(100, w - (w < 600 ? 8 : 32))"))
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "Uncaught" in e["message"]]
        assert not errors, f"JavaScript errors after a resize to {width}: {errors}"
    browser.set_window_size(1280, 900)


def test_a_phone_sized_screen_has_the_grid_and_a_menu(server):
    driver = make_driver(390, 844, mobile=True)
    try:
        sign_in(driver, server)
        assert driver.find_element(By.ID, "menu-button").is_displayed()
        assert driver.execute_script("return document.getElementById('sidebar').getBoundingClientRect().right") <= 1
        assert len(cell_ids(driver)) >= 4
        screenshot(driver, "phone-timeline")
        driver.find_element(By.ID, "menu-button").click()
        wait(driver, lambda d: d.execute_script("return document.getElementById('sidebar').getBoundingClientRect().left") >= -1)
        screenshot(driver, "phone-albums")
    finally:
        driver.quit()


def test_every_request_stays_on_the_origin_and_images_have_text(browser, server):
    sign_in(browser, server)
    foreign = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))")
    assert foreign == []
    missing = browser.execute_script("return [...document.querySelectorAll('img')].filter(i => !i.alt).length")
    assert missing == 0
    import urllib.request
    with urllib.request.urlopen(server.base + "/") as response:
        policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy


def test_every_control_is_reachable_by_keyboard(browser, server):
    sign_in(browser, server)
    seen = set()
    for _ in range(60):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        element = browser.switch_to.active_element
        seen.add(element.get_attribute("id") or element.get_attribute("class") or element.tag_name)
    assert {"filter-button", "upload-button", "sign-out", "grid", "scrubber"} <= seen
    assert any("nav-entry" in s for s in seen)
