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


def test_a_group_said_not_alike_leaves_the_list_for_good(browser, server):
    groups = server.get("/v1/similar")["items"]
    assert len(groups) >= 2, "the demo has several groups of look-alikes"
    sign_in(browser, server)
    section = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#sidebar details.similar:not([hidden])"), 10)
    section.find_element(By.TAG_NAME, "summary").click()
    # The last group listed: its photos stay as they are, only no longer listed together.
    index = len(groups)
    group = groups[index - 1]
    button = browser.find_element(By.CSS_SELECTOR, f"#sidebar button[aria-label='Look-alikes {index} are not alike']")
    browser.execute_script("arguments[0].scrollIntoView({ block: 'center' })", button)
    button.click()
    wait(browser, lambda d: "not be listed together again" in d.find_element(By.ID, "notices").text, 10)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sidebar .similar-group")) == len(groups) - 1, 10)
    assert not any(set(g["assets"]) == set(group["assets"]) for g in server.get("/v1/similar")["items"])
    assert all(server.asset(id) for id in group["assets"]), "nothing happened to the photos"
    stack = browser.find_element(By.CSS_SELECTOR, "#sidebar button[aria-label^='Stack look-alikes 1:']")
    assert stack.is_displayed() and stack.text == "Stack"
