"""The page in headless Chromium: enter the README's example by taps, walk through the best play,
and check an illegal move made by dragging a card.

Debian's ``chromium`` and ``chromium-driver`` drive it through Selenium; where they are not
installed the tests are skipped and say so. ``MELDSAT_SCREENSHOTS=DIR`` saves what the browser
shows.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from meldsat.web.limits import Limits

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or chromedriver on this machine: the browser test is skipped",
)

# The README's example (examples/manipulation.txt), as a player taps it in.
TABLE = [["4S", "5S", "6S", "*", "7S"], ["7S", "7H", "7D", "7C"], ["9D", "10D", "JD"]]
HAND = ["QH", "KH", "8D", "2C"]
# The same position as the page's URL holds it.
EXAMPLE_URL = (
    "#rules=manipulation&players=4&table=4S+5S+6S+*%3D7S+%7C+7S+7H+7D+7C+%7C+9D+10D+JD"
    "&hand=QH+KH+8D+2C"
)
WAIT = 20.0
LAPTOP, PHONE = (1280, 800), (390, 844)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as url:
        yield url


@contextlib.contextmanager
def serving(limits: Limits | None = None) -> Iterator[str]:
    """``meldsat serve``'s server on a free loopback port, in a thread: its page's URL."""
    with running_server(limits or Limits()) as (port, _):
        yield f"http://127.0.0.1:{port}/"


@contextlib.contextmanager
def running_server(limits: Limits) -> Iterator[tuple[int, Any]]:
    """``meldsat serve``'s server (its app, limits and connection guards) with ``limits`` on a
    free loopback port, in a thread: the port and the uvicorn server."""
    import uvicorn

    from meldsat.web.server import server_config

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    running = uvicorn.Server(server_config(limits, "127.0.0.1", port))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started
    try:
        yield port, running
    finally:
        running.should_exit = True
        thread.join(WAIT)
        thread.join(WAIT)


@pytest.fixture(scope="module")
def driver() -> Iterator[object]:
    with chromium() as browser:
        yield browser


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """Headless Chromium driven by Selenium, closed when done."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument("--window-size=1100,1500")
    browser = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield browser
    finally:
        browser.quit()


class Page:
    """The page in the browser, with the few actions a player takes."""

    def __init__(self, driver: object, url: str) -> None:
        from selenium.webdriver.remote.webdriver import WebDriver
        from selenium.webdriver.support.ui import WebDriverWait

        assert isinstance(driver, WebDriver)
        self.driver = driver
        self.wait = WebDriverWait(driver, WAIT)
        driver.get("about:blank")  # a new document, whatever the last test left
        driver.get(url)
        self.until(lambda: self.one("body").get_attribute("data-ready") == "1")

    def one(self, selector: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def tap(self, selector: str) -> None:
        self.one(selector).click()

    def text(self, selector: str) -> str:
        return str(self.one(selector).text)

    def until(self, condition: Callable[[], object]) -> None:
        self.wait.until(lambda _driver: condition())

    def drag(self, card: str, meld: str) -> None:
        """Drag the card matching ``card`` onto the drop zone matching ``meld`` (check mode)."""
        from selenium.webdriver import ActionChains

        source, target = self.one(card), self.one(meld)
        ActionChains(self.driver).click_and_hold(source).move_by_offset(10, -10).move_to_element(
            target
        ).release().perform()

    def screenshot(self, name: str, top: str | None) -> None:
        """Save what the browser shows, scrolled to ``top`` (a selector) unless it is None."""
        folder = os.environ.get("MELDSAT_SCREENSHOTS")
        if folder:
            if top is not None:
                self.driver.execute_script(f"document.querySelector('{top}').scrollIntoView()")
            self.driver.save_screenshot(str(Path(folder) / name))


def sized(page: Page, size: tuple[int, int]) -> None:
    """The page seen on a screen of ``size`` CSS pixels (a phone's: 390 wide).

    Headless Chromium keeps its windows at least 500 pixels wide, so the screen is emulated.
    """
    width, height = size
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    assert page.driver.execute_script("return [innerWidth, innerHeight]") == [width, height]


def test_the_readme_example_by_taps_gets_the_best_play_step_by_step(
    server: str, driver: object
) -> None:
    page = Page(driver, server)
    for meld in TABLE:
        page.tap("#new-meld")
        for card in meld:  # the joker, then 7S: the joker stands for the 7S
            page.tap(f'#picker button[data-card="{card}"]')
    page.tap("#hand-cards")
    for card in HAND:
        page.tap(f'#picker button[data-card="{card}"]')
    page.until(lambda: page.text("#position-status").startswith("The table is legal"))
    assert page.driver.current_url.endswith(EXAMPLE_URL + "&mode=hint")

    sized(page, LAPTOP)
    page.tap("#get-hint")
    page.until(lambda: page.all("#hint-result .summary"))
    assert page.text("#hint-result .summary").startswith("The best play, proven: play 8♦ Q♥ K♥")
    assert "the joker = J♥" in page.text("#hint-result")
    assert len(page.all('[data-view="after"] .tag.new')) == 1
    assert len(page.all('[data-view="after"] .tag.changed')) == 3

    moved = []
    for number in range(1, 6):
        assert page.text("#step-count") == f"step {number} of 5"
        lit = page.all('[data-view="after"] svg.card.highlight')
        moved.append([card.get_attribute("data-card") for card in lit])
        if number < 5:
            page.tap("#step-next")
    assert moved == [["7S"], ["8D"], ["*=JH"], ["QH", "KH"], ["*=JH"]]
    page.tap("#step-prev")
    assert page.text("#step-count") == "step 4 of 5"
    hand_lit = page.all('[data-view="before"] [data-meld="-1"] svg.card.highlight')
    assert [card.get_attribute("data-card") for card in hand_lit] == ["QH", "KH"]
    page.screenshot("web-hint.png", "#get-hint")


def test_a_move_made_by_dragging_is_checked_with_every_reason(server: str, driver: object) -> None:
    page = Page(driver, server + EXAMPLE_URL + "&mode=check")
    page.drag('#check-hand [data-card="KH"]', '#check-melds [data-meld="1"]')
    page.until(lambda: page.all('#check-melds [data-meld="1"] [data-card="KH"]'))
    page.tap("#check-move")
    page.until(lambda: page.all("#reasons li"))
    assert [item.get_attribute("data-code") for item in page.all("#reasons li")] == ["illegal_meld"]
    assert "Illegal (1 reason)" in page.text("#check-result")

    # The keyboard moves a card too: Enter on the king, then Enter on the hand takes it back.
    from selenium.webdriver.common.keys import Keys

    page.one('#check-melds [data-card="KH"]').send_keys(Keys.ENTER)
    page.one("#check-hand").send_keys(Keys.ENTER)
    page.until(lambda: page.all('#check-hand [data-card="KH"]'))

    # The README's best play, by dragging: the freed joker becomes the JH beside QH KH.
    page.drag('#check-melds [data-card="7S"]', '#check-melds [data-meld="0"]')
    page.drag('#check-melds [data-meld="0"] [data-card="*=7S"]', "#check-new")
    page.drag('#check-hand [data-card="QH"]', '#check-melds [data-meld="3"]')
    page.drag('#check-hand [data-card="KH"]', '#check-melds [data-meld="3"]')
    page.drag('#check-hand [data-card="8D"]', '#check-melds [data-meld="2"]')
    # * QH KH could be AH or JH: the player says which.
    page.tap('#check-melds [data-meld="3"] [data-card="*"]')
    from selenium.webdriver.support.select import Select

    Select(page.one("#joker-card")).select_by_value("JH")
    page.until(lambda: page.all('#check-melds [data-meld="3"] [data-card="*=JH"]'))
    page.tap("#check-move")
    page.until(lambda: page.text("#check-result").startswith("✓ A legal move."))
    assert not page.all("#reasons li")


def test_the_page_fits_a_phone_screen(server: str, driver: object) -> None:
    page = Page(driver, server + EXAMPLE_URL)
    sized(page, PHONE)
    try:
        page.tap("#get-hint")
        page.until(lambda: page.all("#hint-result .summary"))
        overflow = page.driver.execute_script(
            "return document.documentElement.scrollWidth - innerWidth"
        )
        assert overflow <= 0
        page.screenshot("web-phone.png", "#get-hint")
        # Another rule set: the picker shows its pieces (Rummikub tiles and its joker).
        from selenium.webdriver.support.select import Select

        assert not page.one("#initial-box").is_displayed()
        Select(page.one("#rules")).select_by_value("rummikub")
        page.until(lambda: page.all('#picker button[data-card="r13"]'))
        assert len(page.all("#picker button")) == 53
        assert "rules=rummikub" in page.driver.current_url
        # Rummikub's 30-point initial meld: o1 o2 o3 (6 points) is no play for a first meld.
        page.tap("#initial")
        for tile in ("o1", "o2", "o3"):
            page.tap(f'#picker button[data-card="{tile}"]')
        page.tap("#get-hint")
        page.until(lambda: "No legal play" in page.text("#hint-result"))
        assert "initial=1" in page.driver.current_url
    finally:
        page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
