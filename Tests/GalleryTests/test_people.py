"""People: the side bar's people (the demo's two), each with their face cropped from a photo, their photos in the grid, and naming one."""

import time

from selenium.webdriver.common.by import By

from conftest import grid_total, screenshot, sign_in, wait
from test_organising import answer


def people(server):
    """Waits for `photos serve`'s indexer to have found the demo's people: four photos each of two of dlib's johns."""
    deadline = time.time() + 120
    while time.time() < deadline:
        found = server.get("/v1/people")["items"]
        if len(found) == 2:
            return found
        time.sleep(0.5)
    raise AssertionError("the server's indexer did not find the demo's two people")


def test_people_are_listed_with_their_faces_and_open_their_photos(browser, server):
    found = people(server)
    # Named people first: the demo named one.
    assert [p.get("name") for p in found] == ["John Salley", None] and all(p["assets"] == 4 for p in found)
    person = found[1]
    sign_in(browser, server)
    section = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#sidebar details.people:not([hidden])"), 10)
    section.find_element(By.TAG_NAME, "summary").click()
    entry = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, f"#sidebar li[data-id='person:{person['id']}']"))
    crop = entry.find_element(By.CSS_SELECTOR, ".face-crop img")
    # The face, cut from its photo: the image loaded, scaled and moved so the face fills the circle.
    wait(browser, lambda d: d.execute_script("return arguments[0].naturalWidth > 0 && arguments[0].style.transform !== ''", crop))
    assert crop.get_attribute("alt") == "Unnamed's face"
    browser.execute_script("arguments[0].scrollIntoView({ block: 'center' })", entry)
    screenshot(browser, "people")
    entry.find_element(By.CSS_SELECTOR, ".nav-entry").click()
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "Unnamed")
    wait(browser, lambda d: grid_total(d) == 4, 10)
    # Named from its menu: the side bar and search say the name.
    entry.find_element(By.CSS_SELECTOR, "button[aria-label='Actions for Unnamed']").click()
    answer(browser, choice="Name")
    answer(browser, value="John Simm")
    wait(browser, lambda d: any(e.get_attribute("data-title") == "John Simm" for e in d.find_elements(By.CSS_SELECTOR, "#sidebar li.person .nav-entry")))
    assert server.get("/v1/search?limit=1&q=person:simm")["total"] == 4
    # Merged from its menu into the other person, then split back from the menu.
    photos = [a["id"] for a in server.get(f"/v1/people/{person['id']}/assets")["items"]]
    faces = [server.get(f"/v1/assets/{id}/faces")["items"][0]["id"] for id in photos]
    entry = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, f"#sidebar li[data-id='person:{person['id']}']"))
    entry.find_element(By.CSS_SELECTOR, "button[aria-label='Actions for John Simm']").click()
    answer(browser, choice="The same person as John Salley (4)")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sidebar li.person")) == 1)
    # The merged person's photos were open: the grid now shows the person they joined.
    wait(browser, lambda d: d.find_element(By.ID, "view-title").text == "John Salley")
    wait(browser, lambda d: grid_total(d) == 8, 10)
    merged = server.get("/v1/people")["items"]
    assert len(merged) == 1 and merged[0]["name"] == "John Salley" and merged[0]["assets"] == 8
    salley = merged[0]["id"]
    entry = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, f"#sidebar li[data-id='person:{salley}']"))
    entry.find_element(By.CSS_SELECTOR, "button[aria-label='Actions for John Salley']").click()
    answer(browser, choice="Split off faces…")
    dialog = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.choose[open]"))
    options = dialog.find_elements(By.CSS_SELECTOR, "button.option")
    assert sorted(o.get_attribute("data-value") for o in options) == sorted(f["id"] for f in server.get(f"/v1/people/{salley}/faces")["items"])
    wait(browser, lambda d: all(d.execute_script("return arguments[0].querySelector('img').naturalWidth > 0", o) for o in options))
    assert not dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").is_enabled(), "nothing chosen yet"
    for option in options:
        if option.get_attribute("data-value") in faces:
            option.click()
            assert option.get_attribute("aria-pressed") == "true"
    screenshot(browser, "people-split")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sidebar li.person")) == 2)
    split = [p for p in server.get("/v1/people")["items"] if p["id"] != salley]
    assert len(split) == 1 and split[0]["assets"] == 4 and split[0].get("name") is None
    assert sorted(f["id"] for f in server.get(f"/v1/people/{split[0]['id']}/faces")["items"]) == sorted(faces)
    status, _ = server.api("PATCH", f"/v1/people/{split[0]['id']}", {"name": "John Simm"})
    assert status == 200
