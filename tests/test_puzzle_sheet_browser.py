"""The HTML puzzle sheet in a real headless browser (Debian's chromium and chromedriver).

The sheet is loaded from a file, one solution is played by clicking cards and melds, and Check must
accept it; a table with cards left in hand and one with an illegal meld must be rejected. Skipped,
saying why, only where no browser (or no Selenium) is installed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meldsat.puzzles.generate import generate_puzzles
from meldsat.puzzles.sheet import render_sheet
from meldsat.rulesets import get_rules

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser() -> Iterator[Any]:
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip(
            "no chromium and chromedriver on this machine (Debian: chromium, chromium-driver)"
        )
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1400"):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def _play(driver: Any, section: Any, solution: list[list[str]]) -> None:
    """Build every meld of the solution as a new meld, card by card, by clicking."""
    from selenium.webdriver.common.by import By

    built: list[Any] = []
    for meld in solution:
        target = None
        for token in meld:
            card = next(
                element
                for element in section.find_elements(
                    By.CSS_SELECTOR, f'svg.card[data-card="{token}"]'
                )
                if not any(
                    driver.execute_script("return arguments[0].contains(arguments[1])", b, element)
                    for b in built
                )
            )
            card.click()
            if target is None:
                section.find_element(By.CSS_SELECTOR, ".new-meld").click()
                target = section.find_elements(By.CSS_SELECTOR, ".table .meld")[-1]
            else:
                target.click()
        built.append(target)


def test_the_sheet_plays_a_solution_and_check_accepts_it(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    puzzle = generate_puzzles(get_rules("manipulation"), "hard", 1, seed=7)[0]
    assert puzzle.solution is not None
    page = tmp_path / "sheet.html"
    page.write_text(render_sheet([puzzle]), encoding="utf-8")
    browser.get(page.as_uri())
    section = browser.find_element(By.CSS_SELECTOR, "section.puzzle")
    result = section.find_element(By.CSS_SELECTOR, ".result")
    check = section.find_element(By.CSS_SELECTOR, "button.check")

    check.click()  # the starting table, hand still full: rejected
    assert result.get_attribute("data-result") == "hand"

    # The melds are numbered on the page, 1 to n
    melds = section.find_elements(By.CSS_SELECTOR, ".table .meld")
    numbers = [meld.find_element(By.CSS_SELECTOR, ".meld-number").text for meld in melds]
    assert numbers == [str(n) for n in range(1, len(melds) + 1)]

    # an illegal meld: a hand card dropped into the first table meld, marked and named by Check
    undo = section.find_element(By.CSS_SELECTOR, "button.undo")
    assert not undo.is_enabled()
    hand_cards = len(section.find_elements(By.CSS_SELECTOR, ".hand svg.card"))
    section.find_element(By.CSS_SELECTOR, ".hand svg.card").click()
    melds[0].click()
    check.click()
    assert result.get_attribute("data-result") == "illegal"
    assert result.text == "Meld 1 is not a legal group or sequence."
    marked = section.find_elements(By.CSS_SELECTOR, ".table .meld.illegal")
    assert marked == [melds[0]]

    undo.click()  # the move is taken back, and the mark with it
    assert len(section.find_elements(By.CSS_SELECTOR, ".hand svg.card")) == hand_cards
    assert section.find_elements(By.CSS_SELECTOR, ".table .meld.illegal") == []
    assert result.text == "" and not undo.is_enabled()

    section.find_element(By.CSS_SELECTOR, "button.reset").click()
    notation = puzzle.rules.notation
    _play(browser, section, [[piece.text(notation) for piece in meld] for meld in puzzle.solution])
    assert section.find_elements(By.CSS_SELECTOR, ".hand svg.card") == []
    melds = section.find_elements(By.CSS_SELECTOR, ".table .meld")
    numbers = [meld.find_element(By.CSS_SELECTOR, ".meld-number").text for meld in melds]
    assert numbers == [str(n) for n in range(1, len(melds) + 1)]  # renumbered as melds came
    check.click()
    assert result.get_attribute("data-result") == "solved"
    assert "Solved" in result.text
    shot = tmp_path / "sheet.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_a_points_puzzle_is_solved_with_its_spare_cards_left_in_hand(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    puzzle = generate_puzzles(get_rules("manipulation"), "medium", 1, seed=4, goal="points")[0]
    assert puzzle.solution is not None and not puzzle.goal.play_all
    page = tmp_path / "sheet.html"
    page.write_text(render_sheet([puzzle]), encoding="utf-8")
    browser.get(page.as_uri())
    section = browser.find_element(By.CSS_SELECTOR, "section.puzzle")
    assert "worth at least" in section.find_element(By.CSS_SELECTOR, ".goal").text
    result = section.find_element(By.CSS_SELECTOR, ".result")
    notation = puzzle.rules.notation
    _play(browser, section, [[piece.text(notation) for piece in meld] for meld in puzzle.solution])
    assert section.find_elements(By.CSS_SELECTOR, ".hand svg.card")  # the spare cards stay
    section.find_element(By.CSS_SELECTOR, "button.check").click()
    assert result.get_attribute("data-result") == "solved"
