"""The page's gin and puzzle modes and its typed-card errors in headless Chromium, as a player uses
them: solve a hard puzzle the server made by taps (with an illegal meld outlined and an undo), get
the discard of an 11-card gin hand and the draw advice of a 10-card one, settle a knock, type a
bad token; and check mode's answer in view on a 1280x800 screen. Each answer is compared with the
library's (the commands' own) answer.

Skipped, saying so, where Chromium or chromedriver is not installed (as tests/test_web_browser.py).
``MELDSAT_SCREENSHOTS=DIR`` saves the screenshots of docs/WEB.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from meldsat.web import answers
from meldsat.web.limits import Limits
from tests.test_web_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    EXAMPLE_URL,
    LAPTOP,
    PHONE,
    Page,
    chromium,
    serving,
    sized,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or chromedriver on this machine: the browser test is skipped",
)

# An 11-card gin hand (after the draw): discard 6H, knock with 2 deadwood.
ELEVEN = ["6H", "7C", "8C", "9C", "3S", "3D", "3H", "KS", "KD", "KC", "2D"]
# The other player's hand when that hand knocks: 10C and JC lay off on 7C 8C 9C.
DEFENDER = ["10C", "JC", "4S", "4D", "4H", "5S", "5D", "QH", "QS", "9H"]
# The table of `meldsat puzzle generate --level hard --seed 1 --format json`; its one solution
# makes groups of the sevens, eights and nines (the taps below).
HARD_1 = [
    ["5S", "5H", "5C"],
    ["6S", "7S", "8S", "9S"],
    ["7S", "8S", "9S"],
    ["5H", "6H", "7H", "8H"],
    ["7C", "8C", "9C"],
    ["7C", "8C", "9C"],
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    # No time limit a test could hit: a puzzle made slowly on a busy machine is still made.
    with serving(Limits(time_limit=600.0)) as url:
        yield url


@pytest.fixture(scope="module")
def driver() -> Iterator[object]:
    with chromium() as browser:
        yield browser


def fits(page: Page) -> bool:
    return bool(
        page.driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    )


def tap_move(page: Page, card: str, target: str) -> None:
    """Tap ``card`` (a selector in the puzzle board), then the place ``target``."""
    page.tap(card)
    page.until(lambda: page.all('#puzzle-board button.movable[aria-pressed="true"]'))
    page.tap(target)


def meld(number: int, card: str | None = None) -> str:
    box = f'#puzzle-melds [data-meld="{number}"]'
    return box if card is None else f'{box} [data-card="{card}"]'


def test_a_hard_puzzle_the_server_made_is_solved_by_taps(server: str, driver: object) -> None:
    page = Page(driver, server + "#mode=puzzle")
    sized(page, PHONE)
    page.one("#puzzle-seed").clear()
    page.one("#puzzle-seed").send_keys("1")
    page.tap("#puzzle-make")
    page.until(lambda: page.text("#puzzle-status").startswith("A hard puzzle, number 1"))
    shown = [
        [card.get_attribute("data-card") for card in page.all(meld(number) + " button.movable")]
        for number in range(len(HARD_1))
    ]
    assert shown == HARD_1
    assert [card.get_attribute("data-card") for card in page.all("#puzzle-hand button")] == [
        "7H",
        "7D",
        "9D",
    ]
    assert "seed=1" in page.driver.current_url and "solution" not in page.driver.current_url

    tap_move(page, '#puzzle-hand [data-card="7H"]', "#puzzle-new")
    page.until(lambda: page.all(meld(6) + ".illegal"))  # 7H alone: outlined, with its reason
    assert "at least 3 cards" in page.text(meld(6))
    page.tap("#puzzle-undo")
    page.until(lambda: page.all('#puzzle-hand [data-card="7H"]') and not page.all(meld(6)))

    # The one solution: the sevens, eights and nines each become a group.
    tap_move(page, '#puzzle-hand [data-card="7H"]', "#puzzle-new")
    tap_move(page, '#puzzle-hand [data-card="7D"]', meld(6))
    tap_move(page, meld(2, "7S"), meld(6))
    tap_move(page, meld(5, "7C"), meld(6))
    tap_move(page, meld(3, "8H"), "#puzzle-new")
    tap_move(page, meld(2, "8S"), meld(7))
    tap_move(page, meld(5, "8C"), meld(7))
    page.screenshot("web-puzzle-phone.png", "#puzzle-board")
    tap_move(page, '#puzzle-hand [data-card="9D"]', meld(2))
    tap_move(page, meld(5, "9C"), meld(2))
    page.until(lambda: page.text("#puzzle-result").startswith("✓ Solved!"))
    assert not page.all("#puzzle-melds .illegal")
    assert fits(page)
    sized(page, LAPTOP)
    page.screenshot("web-puzzle.png", "#puzzle-panel")


def test_an_eleven_card_gin_hand_gets_its_discard_and_a_ten_card_one_its_draw(
    server: str, driver: object
) -> None:
    page = Page(driver, server)
    sized(page, PHONE)
    # Gin has no shared table: its rule sets are the gin mode's, not the best play's.
    assert not page.all('#rules option[value="gin"]')
    page.tap("#mode-gin")
    page.until(lambda: page.all('#gin-picker button[data-card="KC"]'))
    for card in ELEVEN:
        page.tap(f'#gin-picker button[data-card="{card}"]')
    page.until(lambda: page.all("#gin-result .summary"))
    expected = answers.deadwood_answer({"hand": " ".join(ELEVEN)})
    assert expected["discard"] == "6H"
    summary = page.text("#gin-result .summary")
    assert (
        summary == f"Discard 6♥: {expected['deadwood']} deadwood left, you can knock (10 or less)"
    )
    weighed = [item.get_attribute("data-card") for item in page.all("#gin-discards li")]
    assert weighed == [option["card"] for option in expected["discards"]]
    assert fits(page)
    page.screenshot("web-gin-phone.png", "#gin-result")

    # Before that draw: 10 cards without the KC, and the KC face up. Take it, or the stock?
    page.tap('#gin-zones [data-zone="hand"] [data-card="KC"]')
    page.tap('#gin-zones [data-zone="upcard"]')
    page.tap('#gin-picker button[data-card="KC"]')
    page.until(lambda: page.all("#gin-result .draw"))
    ten = [card for card in ELEVEN if card != "KC"]
    draw = answers.deadwood_answer({"hand": " ".join(ten), "upcard": "KC"})["draw"]
    assert draw["advice"] == "upcard"
    words = page.text("#gin-result .draw")
    assert words.startswith("Draw: take the upcard K♣")
    assert f"then discard 6♥, {draw['upcard']['deadwood']} deadwood" in words
    assert f"{draw['stock']['expected_deadwood']:.2f} deadwood expected" in words
    assert "upcard=KC" in page.driver.current_url
    sized(page, LAPTOP)
    page.screenshot("web-gin.png", "#gin-panel")


def test_a_knock_is_settled_from_the_hand_that_knocks(server: str, driver: object) -> None:
    hand = "+".join(ELEVEN)
    page = Page(driver, server + f"#mode=gin&rules=gin&view=hand&hand={hand}")
    sized(page, PHONE)
    page.until(lambda: page.all("#gin-knock-with"))
    page.tap("#gin-knock-with")
    page.until(lambda: page.all('#gin-zones [data-zone="defender"].active'))
    for card in DEFENDER:
        page.tap(f'#gin-picker button[data-card="{card}"]')
    page.tap("#gin-ask")
    page.until(lambda: page.all("#gin-result .summary"))
    expected = answers.layoff_answer(
        {
            "melds": "3S 3H 3D | 7C 8C 9C | KS KD KC",
            "knocker_deadwood": "2D",
            "hand": " ".join(DEFENDER),
        }
    )
    assert page.text("#gin-result .summary") == (
        f"Knock: the knocker scores {expected['score']['points']}."
    )
    assert "laid off: 10♣ J♣" in page.text("#gin-result")
    assert fits(page)
    page.screenshot("web-knock-phone.png", "#gin-result")
    sized(page, LAPTOP)
    page.screenshot("web-knock.png", "#gin-panel")


def test_a_typed_token_the_page_does_not_know_is_an_error_naming_it(
    server: str, driver: object
) -> None:
    page = Page(driver, server)
    page.tap("#typing summary")
    hand = page.one("#hand-text")
    hand.send_keys("QH KH ax\n")
    page.until(lambda: "unknown card 'ax'" in page.text("#position-status"))
    assert page.text("#position-status").startswith("Hand: unknown card 'ax'")
    assert not page.all("#hand-cards button")  # nothing drawn, no joker in its place
    hand.clear()
    hand.send_keys("qh kh 2c\n")  # lower case is the same card, drawn as itself
    page.until(lambda: len(page.all("#hand-cards button")) == 3)
    cards = [button.get_attribute("data-card") for button in page.all("#hand-cards button")]
    assert cards == ["QH", "KH", "2C"]
    assert not page.all('#hand-cards [data-card="*"]')
    # The gin mode's typed cards too.
    page.tap("#mode-gin")
    page.until(lambda: page.all('#gin-picker button[data-card="KC"]'))
    page.tap("#gin-typing summary")
    page.one("#gin-text-hand").send_keys("7C 8C 9X\n")
    page.until(lambda: "unknown card '9X'" in page.text("#gin-result"))
    assert not page.all('#gin-zones [data-zone="hand"] button')


def test_check_mode_shows_its_answer_without_scrolling_on_a_laptop(
    server: str, driver: object
) -> None:
    page = Page(driver, server + EXAMPLE_URL + "&mode=check")
    sized(page, LAPTOP)
    page.driver.execute_script("scrollTo(0, 0)")
    page.drag('#check-hand [data-card="KH"]', '#check-melds [data-meld="1"]')
    page.until(lambda: page.all('#check-melds [data-meld="1"] [data-card="KH"]'))
    page.tap("#check-move")
    page.until(lambda: page.all("#reasons li"))
    reason = page.text("#reasons li")
    assert "K♥" in reason or "♥" in reason, reason
    assert not any(token in reason for token in ("KH", "7H", "7S"))  # one notation: the symbols
    seen = page.driver.execute_script(
        "const box = document.querySelector('#check-result .summary').getBoundingClientRect();"
        "return box.top >= 0 && box.bottom <= innerHeight"
    )
    assert seen
    page.screenshot("web-check.png", None)  # as the player sees it, not scrolled
    sized(page, PHONE)
    assert fits(page)
    page.screenshot("web-check-phone.png", "#check-result")


# Two puzzles in the text form of `meldsat puzzle generate` (the first: --level easy --seed 3).
PUZZLE_FILE = """rules: manipulation
players: 4
table: AS AH AD AC | AH AD AC | 3S 3H 3C
hand: AS 3D
goal: all
solution: AS AH AD AC | AS AH AD AC | 3S 3H 3D 3C
level: easy
grade: changed_melds=0 moves=2 cards_moved=0 jokers_redeclared=0 longest_chain=0 decoys=0
seed: 3
---
rules: manipulation
players: 4
table: 7S 7D 7C | 9H 9D 9C | 8D 9D 10D
hand: 6D 7D 9S
goal: all
"""


def test_a_puzzle_opened_from_a_file_is_solved_and_its_link_opens_it_again(
    server: str, driver: object, tmp_path: Path
) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(PUZZLE_FILE, encoding="utf-8")
    page = Page(driver, server + "#mode=puzzle")
    page.one("#puzzle-file").send_keys(str(path))
    page.until(lambda: page.text("#puzzle-status") == "Puzzle 1 of 2 from puzzles.txt.")
    assert len(page.all("#puzzle-pick option")) == 2
    tap_move(page, '#puzzle-hand [data-card="AS"]', meld(1))
    tap_move(page, '#puzzle-hand [data-card="3D"]', meld(2))
    page.until(lambda: page.text("#puzzle-result").startswith("✓ Solved!"))

    # The link holds the puzzle (not its solution): opened again, the server solves it to check.
    link = page.driver.current_url
    assert "solution" not in link and "table=AS+AH+AD+AC" in link
    again = Page(driver, link)
    again.until(lambda: again.text("#puzzle-status") == "The puzzle of the link.")
    tap_move(again, '#puzzle-hand [data-card="3D"]', meld(2))
    tap_move(again, '#puzzle-hand [data-card="AS"]', meld(1))
    again.until(lambda: again.text("#puzzle-result").startswith("✓ Solved!"))
