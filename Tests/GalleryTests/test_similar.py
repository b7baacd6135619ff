"""Look-alikes: the side bar's groups of photos that look alike, and keeping one of a group."""

from selenium.webdriver.common.by import By

from conftest import screenshot, sign_in, wait


def test_look_alikes_are_listed_and_keeping_one_moves_the_others_to_recently_deleted(browser, server):
    groups = server.get("/v1/similar")["items"]
    assert groups, "the demo's generated photos of a trip look alike"
    sign_in(browser, server)
    section = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#sidebar details.similar:not([hidden])"), 10)
    section.find_element(By.TAG_NAME, "summary").click()
    shown = browser.find_elements(By.CSS_SELECTOR, "#sidebar .similar-group")
    assert len(shown) == len(groups)
    # The smallest group, to put back what it moves.
    group = min(groups, key=lambda g: len(g["assets"]))
    first = browser.find_element(By.CSS_SELECTOR, f"#sidebar .similar-photo[data-id='{group['suggested']}']")
    assert "suggested" in first.get_attribute("class")
    assert first.find_element(By.TAG_NAME, "img").get_attribute("alt")
    screenshot(browser, "look-alikes")
    first.click()
    others = [a for a in group["assets"] if a != group["suggested"]]
    try:
        wait(browser, lambda d: "moved to Recently Deleted" in d.find_element(By.ID, "notices").text, 10)
        wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, f"#sidebar .similar-photo[data-id='{others[0]}']"), 10)
        assert all(not any(a in g["assets"] for a in others) for g in server.get("/v1/similar")["items"])
    finally:
        server.change({"op": "restoreAssets", "assets": others})
