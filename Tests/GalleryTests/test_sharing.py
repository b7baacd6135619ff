"""Sharing: the owner makes a read-only link for an album; the link opens the gallery limited to that album; revoking ends it."""
from selenium.webdriver.common.by import By

from conftest import make_driver, open_collection, screenshot, sign_in, wait, wait_ready


def test_a_share_link_sees_only_its_album_and_can_be_revoked(browser, server):
    album = next(a for a in server.get("/v1/albums?limit=1000")["items"] if a["title"] == "Paris 2019")
    members = {x["id"] for x in server.get(f"/v1/albums/{album['id']}/assets?limit=1000")["items"]}
    sign_in(browser, server)
    open_collection(browser, "Paris 2019")
    browser.find_element(By.XPATH, "//div[@id='view-actions']/button[text()='Share']").click()
    dialog = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.share[open]"))
    dialog.find_element(By.CSS_SELECTOR, "[name=expires] option[value='7']").click()
    dialog.find_element(By.CSS_SELECTOR, "[data-action=create]").click()
    link = wait(browser, lambda d: d.find_element(By.NAME, "link").get_attribute("value") or None)
    assert link.startswith(server.base + "/#share=")
    screenshot(browser, "share-dialog")
    guest = make_driver()
    try:
        guest.get(link)
        wait_ready(guest)
        assert "#share" not in guest.current_url
        wait(guest, lambda d: d.execute_script("return gallery.grid.sections.reduce((n, s) => n + s.count, 0)") == len(members))
        guest.find_element(By.ID, "grid").click()
        shown = set()
        for _ in range(30):
            shown |= set(guest.execute_script("return [...document.querySelectorAll('#grid .cell')].map(c => c.dataset.id)"))
            guest.execute_script("gallery.grid.scrollBy(600)")
        assert shown == members
        assert not guest.find_element(By.ID, "upload-button").is_displayed()
        assert not guest.find_elements(By.CSS_SELECTOR, ".sidebar li > button.small")
        screenshot(guest, "shared-album")
        rows = dialog.find_elements(By.XPATH, ".//ul[@class='links']/li")
        rows[-1].find_element(By.TAG_NAME, "button").click()
        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "dialog.share ul.links li")) == len(rows) - 1)
        # Revocation takes effect at once on the server that revoked the link; the guest's
        # page goes back to sign-in on its next request or reload.
        def signed_out(d):
            d.refresh()
            return wait(d, lambda e: e.find_element(By.ID, "sign-in").is_displayed() or e.execute_script("return document.body.dataset.ready === 'true'"))\
                and d.find_element(By.ID, "sign-in").is_displayed()
        wait(guest, signed_out, 10, "a revoked link still opens the album")
    finally:
        guest.quit()


def test_a_share_link_with_a_password_asks_for_it(browser, server):
    sign_in(browser, server)
    open_collection(browser, "Paris 2019")
    browser.find_element(By.XPATH, "//div[@id='view-actions']/button[text()='Share']").click()
    dialog = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.share[open]"))
    dialog.find_element(By.NAME, "password").send_keys("correct horse")
    dialog.find_element(By.CSS_SELECTOR, "[data-action=create]").click()
    link = wait(browser, lambda d: d.find_element(By.NAME, "link").get_attribute("value") or None)
    wait(browser, lambda d: "with a password" in dialog.find_element(By.CSS_SELECTOR, "ul.links").text)
    guest = make_driver()
    try:
        guest.get(link)
        password = wait(guest, lambda d: d.find_element(By.NAME, "password") if d.find_element(By.NAME, "password").is_displayed() else None)
        assert not guest.find_element(By.NAME, "token").is_displayed()
        password.send_keys("wrong")
        guest.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
        wait(guest, lambda d: "not the password" in d.find_element(By.CSS_SELECTOR, "#sign-in .error").text)
        password.clear()
        password.send_keys("correct horse")
        guest.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
        wait_ready(guest)
        screenshot(guest, "shared-album-with-password")
    finally:
        guest.quit()
