"""The game screen in headless Chromium: whole games against a bot, by clicks.

Short games (two players, Manipulation played to 40 points and gin to 20: a house rule the screen
offers) so that the tests stay quick. In Manipulation one move is made with the keyboard and
refused with its reason; every other step takes the hint with the "play it" button; the log the
page offers replays clean. Both games end with a bonus, which the score sheet shows between the
rounds' points and the final totals.
``MELDSAT_SCREENSHOTS=DIR`` saves what the browser shows.
"""

from __future__ import annotations

import json
import urllib.request

from meldsat.games.replay import replay_events
from tests.test_web_browser import Page, driver, pytestmark, server

__all__ = ["driver", "pytestmark", "server"]  # the fixtures and the skip, shared


def assert_fits_a_phone(page: Page) -> None:
    """Nothing on the page is wider than a phone's screen (390 CSS pixels)."""
    page.driver.set_window_size(390, 844)
    try:
        overflow = page.driver.execute_script(
            "return document.documentElement.scrollWidth - innerWidth"
        )
        assert overflow <= 0
    finally:
        page.driver.set_window_size(1100, 1500)


def test_a_manipulation_game_is_played_to_its_end_by_clicks(server: str, driver: object) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    page = Page(driver, server + "#mode=game")
    page.wait = WebDriverWait(page.driver, 20.0, poll_frequency=0.05)  # many short waits
    page.until(lambda: page.one("body").get_attribute("data-game-ready") == "1")
    assert not page.one("#game-panel").get_attribute("hidden")
    Select(page.one("#game-rules")).select_by_value("manipulation")
    Select(page.one("#game-players")).select_by_value("2")
    page.one("#game-target").send_keys("40")
    page.one("#game-seed").send_keys("5")  # a game of nine steps
    page.driver.execute_script("document.body.dataset.eventDelay = '0'")
    page.tap("#game-start")

    def step() -> str:
        return str(page.one("body").get_attribute("data-game-step"))

    page.until(lambda: step() == "meld")
    assert page.text("#game-status").startswith("You drew ")
    # One card alone is no meld: chosen and moved with the keyboard, checked before it is sent.
    page.one("#game-hand button.gcard").send_keys(Keys.ENTER)
    page.one('#game-table [data-meld="new"]').send_keys(Keys.ENTER)
    page.until(lambda: len(page.all("#game-table .gdrop")) > len(page.all("#game-table h3")))
    page.tap("#game-meld")
    page.until(lambda: page.all("#game-reasons li"))
    assert "illegal_meld" in [
        item.get_attribute("data-code") for item in page.all("#game-reasons li")
    ]
    page.tap("#game-reset")

    steps = 0
    while step() != "over":
        page.tap("#game-hint")
        page.until(lambda: page.all("#game-play-hint"))
        page.tap("#game-play-hint")
        page.until(lambda: step() != "busy" and not page.all("#game-play-hint"))
        steps += 1
    assert steps >= 5
    assert page.text("#game-status").startswith("The game is over: ")
    assert page.text("#game-events li[data-event='game_end']").startswith("Game over: You win with")
    rows = [row.text.split() for row in page.all("#game-sheet tfoot tr")]
    # Seed 5's game ends with Manipulation's bonus for rounds won, shown above the final totals.
    assert [row[0] for row in rows] == ["Rounds", "Bonuses", "Final"]
    hands, bonuses, footer = rows
    assert [int(a) + int(b) for a, b in zip(hands[1:], bonuses[1:], strict=True)] == [
        int(total) for total in footer[1:]
    ]
    page.screenshot("game-over.png", "#game-status")
    assert_fits_a_phone(page)  # one column, nothing wider than the screen

    log = urllib.request.urlopen(page.one("#game-log").get_attribute("href")).read().decode()
    events = [json.loads(line) for line in log.splitlines()]
    assert replay_events(enumerate(events, start=1)).games == 1
    assert [str(total) for total in events[-1]["totals"]] == footer[1:]


def test_a_gin_game_ends_with_its_bonuses_shown_between_the_hands_and_the_final(
    server: str, driver: object
) -> None:
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    page = Page(driver, server + "#mode=game")
    page.wait = WebDriverWait(page.driver, 20.0, poll_frequency=0.05)
    page.until(lambda: page.one("body").get_attribute("data-game-ready") == "1")
    Select(page.one("#game-rules")).select_by_value("gin")
    Select(page.one("#game-bots")).select_by_value("knocker")
    page.one("#game-target").send_keys("20")  # one hand decides it (seed 1: ten steps)
    page.one("#game-seed").send_keys("1")
    page.driver.execute_script("document.body.dataset.eventDelay = '0'")
    page.tap("#game-start")

    def step() -> str:
        return str(page.one("body").get_attribute("data-game-step"))

    page.until(lambda: step() not in ("", "busy"))
    while step() != "over":
        page.tap("#game-hint")
        page.until(lambda: page.all("#game-play-hint"))
        page.tap("#game-play-hint")
        page.until(lambda: step() != "busy" and not page.all("#game-play-hint"))
    rows = [row.text.split() for row in page.all("#game-sheet tfoot tr")]
    assert [row[0] for row in rows] == ["Rounds", "Bonuses", "Final"]
    hands, bonuses, final = ([int(number) for number in row[1:]] for row in rows)
    assert [a + b for a, b in zip(hands, bonuses, strict=True)] == final
    assert any(bonuses)
    assert page.text("#game-events li[data-event='game_end']").startswith(
        "Game over: knocker (seat 1) wins with"
    )
    page.screenshot("game-gin-over.png", "#game-sheet")
    page.driver.set_window_size(390, 844)  # a phone: the three rows still fit
    try:
        overflow = page.driver.execute_script(
            "return document.documentElement.scrollWidth - innerWidth"
        )
        assert overflow <= 0
        page.screenshot("game-gin-over-phone.png", "#game-sheet")
    finally:
        page.driver.set_window_size(1100, 1500)

    log = urllib.request.urlopen(page.one("#game-log").get_attribute("href")).read().decode()
    events = [json.loads(line) for line in log.splitlines()]
    assert events[-1]["event"] == "game_end" and events[-1]["totals"] == final
    last_hand = [event for event in events if event["event"] == "round_end"][-1]
    assert last_hand["totals"] == hands


def test_a_five_player_score_sheet_keeps_the_page_within_a_phone(
    server: str, driver: object
) -> None:
    from selenium.webdriver.support.select import Select

    page = Page(driver, server + "#mode=game")
    page.until(lambda: page.one("body").get_attribute("data-game-ready") == "1")
    Select(page.one("#game-rules")).select_by_value("manipulation")
    Select(page.one("#game-players")).select_by_value("5")
    Select(page.one("#game-bots")).select_by_value("shedder")
    page.one("#game-seed").send_keys("7")
    page.tap("#game-start")
    page.until(lambda: len(page.all("#game-sheet th")) == 6)
    assert_fits_a_phone(page)  # six columns are wider than a phone: the sheet scrolls
