"""The HTML puzzle sheet: one self-contained file to print or to play in a browser.

Every puzzle is drawn with the shared SVG cards (``meldsat.cardart``) with its number, level and
goal, its melds numbered (the steps and Check's messages name melds by number); printed, the
puzzles come two a page and the solutions, with their steps, two a page after them. On screen a
small script (``sheet.js``, no network) lets the player move cards between melds, undo, and press
Check, which compares the table with the solution in canonical form and marks every illegal meld;
the solution's canonical keys are written into the page here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from importlib import resources

from meldsat.cardart import CARD_CSS, card_svg, meld_svg
from meldsat.cards import Card, Joker, Piece
from meldsat.notation import Meld
from meldsat.puzzles.canonical import Canonical, canonical_form
from meldsat.puzzles.grade import grade_puzzle
from meldsat.puzzles.puzzle import Puzzle
from meldsat.rules import RuleSet


def canonical_keys(canonical: Canonical) -> list[str]:
    """The canonical counts as the sorted key list the page's script builds from a table."""
    keys = [
        f"g:{rank}:{','.join(map(str, suits))}"
        for (rank, suits), count in canonical.groups
        for _ in range(count)
    ]
    keys += [f"r:{suit}:{place}" for (suit, place), count in canonical.runs for _ in range(count)]
    keys += [f"j:{card.rank}:{card.suit}" for card, count in canonical.jokers for _ in range(count)]
    return sorted(keys)


def _asset(name: str) -> str:
    return resources.files("meldsat.puzzles").joinpath(name).read_text(encoding="utf-8")


def _piece(piece: Piece, rules: RuleSet, origin: str) -> str:
    attributes = {"data-card": piece.text(rules.notation), "data-origin": origin}
    if isinstance(piece, Joker):
        attributes["data-joker"] = "1"
    elif isinstance(piece, Card):
        attributes["data-rank"] = str(piece.rank)
        attributes["data-suit"] = str(piece.suit)
    return card_svg(piece, rules.notation, attributes=attributes)


def _meld(meld: Meld, rules: RuleSet, origin: str, number: int) -> str:
    cards = "".join(_piece(piece, rules, origin) for piece in meld)
    label = f'<span class="meld-number">{number}</span>'
    return f'<span class="meld" data-meld="{number}">{label}{cards}</span>'


def _rules_data(rules: RuleSet) -> str:
    data = {
        "groupMin": rules.group_min,
        "groupMax": rules.group_max,
        "runMin": rules.run_min,
        "aceLow": rules.ace_low,
        "aceHigh": rules.ace_high,
    }
    return escape(json.dumps(data), quote=True)


def _puzzle_section(number: int, puzzle: Puzzle) -> str:
    rules = puzzle.rules
    if puzzle.solution is None:
        raise ValueError("a sheet needs solved puzzles")
    keys = escape(json.dumps(canonical_keys(canonical_form(puzzle.solution, rules))), quote=True)
    level = escape(puzzle.level or "ungraded")
    melds = "".join(
        _meld(meld, rules, "table", index) for index, meld in enumerate(puzzle.table, 1)
    )
    hand = "".join(_piece(piece, rules, "hand") for piece in puzzle.hand)
    return (
        f'<section class="puzzle" id="puzzle-{number}" data-rules="{_rules_data(rules)}"'
        f' data-solution="{keys}" data-play-all="{"true" if puzzle.goal.play_all else "false"}">'
        f"<h2>Puzzle {number} · {level}</h2>"
        f'<p class="goal">{escape(rules.name)}, {rules.players} players. Goal: '
        f"{escape(puzzle.goal.describe())}, leaving every meld on the table legal.</p>"
        f'<div class="board"><div class="label">Table</div><div class="table">{melds}</div>'
        f'<div class="label">Hand</div><div class="hand"><span class="hand-row">{hand}</span>'
        f'<span class="new-meld" title="start a new meld">+ new meld</span></div></div>'
        '<div class="controls"><button type="button" class="check">Check</button>'
        '<button type="button" class="undo" disabled>Undo</button>'
        '<button type="button" class="reset">Reset</button>'
        '<span class="result" aria-live="polite"></span></div>'
        "</section>"
    )


def _solution_section(number: int, puzzle: Puzzle, steps: Sequence[str]) -> str:
    rules = puzzle.rules
    assert puzzle.solution is not None
    melds = "".join(meld_svg(meld, rules.notation) for meld in puzzle.solution)
    items = "".join(f"<li>{escape(step)}</li>" for step in steps)
    features = escape(puzzle.grade.text()) if puzzle.grade is not None else ""
    return (
        f'<section class="solution" id="solution-{number}"><h2>Solution {number}</h2>'
        f'<div class="table">{melds}</div>'
        f'<p>{len(steps)} moves:</p><ol class="steps">{items}</ol>'
        f'<p class="features">{features}</p></section>'
    )


PER_PAGE = 2  # puzzles (and solutions) a printed page


def _pages(sections: Sequence[str]) -> str:
    """The sections two by two, each pair one printed page (a pair too tall simply flows on)."""
    return "".join(
        f'<div class="page">{"".join(sections[start : start + PER_PAGE])}</div>'
        for start in range(0, len(sections), PER_PAGE)
    )


def render_sheet(puzzles: Sequence[Puzzle], title: str = "meldsat puzzles") -> str:
    """The whole sheet as one HTML document (puzzles first, solutions on the pages after)."""
    sections = []
    answers = []
    for number, puzzle in enumerate(puzzles, start=1):
        steps = [step.text for step in grade_puzzle(puzzle).plan.steps]
        sections.append(_puzzle_section(number, puzzle))
        answers.append(_solution_section(number, puzzle, steps))
    intro = (
        "Each puzzle has exactly one solution. Rearrange the table to reach the puzzle's goal "
        "(every card of the hand played, or cards worth at least the points it names) so that "
        "every meld is a legal group (3-4 cards of one rank in different suits or colours) or "
        "sequence (3 or more cards of one suit or colour in a row). On screen: click a card, then "
        "click the meld it should join (or + new meld), and press Check; Undo takes a move back."
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{CARD_CSS}\n{_asset('sheet.css')}</style></head><body>"
        f'<h1>{escape(title)}</h1><p class="intro">{escape(intro)}</p>'
        + _pages(sections)
        + '<div class="solutions"><h1>Solutions</h1>'
        + _pages(answers)
        + "</div>"
        f"<script>{_asset('sheet.js')}</script></body></html>\n"
    )
