"""The expert gin bot, the cautious table bot and bots named by a spec (``FILE.py:NAME``): a few
decisions that must hold, on fixed hands and seeds (their strength is measured in benchmarks/)."""

from __future__ import annotations

import random
import re
import shlex
from pathlib import Path

import pytest

from meldsat.cards import Card
from meldsat.errors import MeldsatError
from meldsat.games.agents import GinDiscard, GinView, TurnView
from meldsat.games.bots import CautiousBot
from meldsat.games.custom_bots import make_custom_bot
from meldsat.games.gin_expert import ExpertGinBot, play_out, race_score
from meldsat.gin.bits import cards_mask
from meldsat.notation import parse_pieces
from meldsat.rulesets import get_rules
from tests.conftest import CliRunner, simulated_twice

GIN = get_rules("gin")
ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "first_gin_bot.py"


def cards(text: str) -> tuple[Card, ...]:
    pieces = parse_pieces(text)
    assert all(isinstance(piece, Card) for piece in pieces)
    return tuple(piece for piece in pieces if isinstance(piece, Card))


def view(hand: str, upcard: str, seen: str = "", stock: int = 31, first: str = "") -> GinView:
    first_upcard = cards(first)[0] if first else cards(seen or upcard)[0]
    return GinView(GIN, 0, cards(hand), cards(upcard)[0], stock, 10, first_upcard, cards(seen))


def test_big_gin_and_gin_always_end_the_hand() -> None:
    bot = ExpertGinBot("expert", random.Random(1))
    big = view("AS 2S 3S 4H 5H 6H 7D 8D 9D 10D", "KH", seen="QH")
    assert bot.finish_turn(big, cards("JD")[0], took_upcard=False) == GinDiscard(None, knock=True)
    gin = view("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "KH", seen="QH")
    ending = ExpertGinBot("expert", random.Random(1)).finish_turn(gin, cards("10D")[0], False)
    assert ending.knock
    assert ending.discard == cards("KC")[0]


def test_it_remembers_the_discard_the_opponent_took_and_leaves_it_out_of_the_stock() -> None:
    bot = ExpertGinBot("expert", random.Random(2))
    hand = "AS 2S 5H 6H 9D 10D QC KC 3D 8C"
    first = view(hand, "7S", first="7S")
    took = bot.take_upcard(first)
    drawn = cards("7S" if took else "4C")[0]
    thrown = bot.finish_turn(first, drawn, took_upcard=took).discard
    assert thrown is not None
    kept = tuple(card for card in (*first.hand, drawn) if card != thrown)
    # The opponent took that discard (the pile below the new upcard lacks it) and threw JH.
    below = () if took else cards("7S")
    stock = 31 - (not took)
    bot.take_upcard(GinView(GIN, 0, kept, cards("JH")[0], stock, 10, cards("7S")[0], below))
    assert bot.opponent.holds == {thrown}
    assert cards("JH")[0] in bot.opponent.discarded
    # A new hand (the stock is full again) forgets it.
    bot.take_upcard(view(hand, "7S", first="7S"))
    assert not bot.opponent.holds


def test_the_same_seed_plays_the_same_gin_games() -> None:
    first, second = simulated_twice("gin", ["expert", "knocker"], 1, 17)
    assert first == second


def test_a_play_out_scores_a_knock_for_the_side_that_knocks() -> None:
    me = cards_mask(cards("AS 2S 3S 4H 5H 6H 7D 8D 9D 2C"))
    opponent = cards_mask(cards("KS KH QD QC JS JH 10D 10C 9S 9H"))
    # The opponent (no meld, about 90 deadwood) cannot knock on its turn; on mine I knock with
    # at most 2 deadwood and score its count less mine.
    stock = [cards_mask((card,)) for card in cards("AC KD 4D 3H 2D")]
    points = play_out(
        GIN, me, opponent, stock, cards_mask(cards("8C")), limit=10, first_upcard=None
    )
    assert points > 0
    # A hand that knocks on its next draw races better than one that cannot.
    draws = [[cards_mask(cards("AC"))]]
    assert race_score(me, draws, 10) == 1
    assert race_score(opponent, draws, 10) == 0


def test_cautious_melds_once_an_opponent_is_nearly_out_and_keeps_near_melds() -> None:
    rules = get_rules("manipulation")
    bot = CautiousBot("cautious", random.Random(3), time_limit=2.0)
    hand = parse_pieces("5H 6H 7H KS QD")
    safe = TurnView(rules, 0, (), hand, 1, 40, False, (5, 10, 10, 10))
    assert bot.choose_meld(safe) is None  # holding back, as hoarder would
    caught = TurnView(rules, 0, (), hand, 1, 40, False, (5, 10, 2, 10))
    table = bot.choose_meld(caught)
    assert table is not None
    assert sorted(map(str, table[0])) == ["5H", "6H", "7H"]
    discard_view = TurnView(rules, 0, (), parse_pieces("KS KH 9D 3C 4C"), 1, 40, False, (5,) * 4)
    assert str(bot.choose_discard(discard_view)) == "9D"


def test_the_worked_example_of_docs_bots_prints_what_the_document_shows(
    run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (ROOT / "docs" / "BOTS.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ (meldsat simulate .*?)\n(.*?)```", text, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(ROOT)
    result = run_cli(*shlex.split(block.group(1))[1:])
    assert result.code == 0, result.err
    assert result.out == block.group(2)
    # meldsat play lowers what it reads: the class is still found.
    assert make_custom_bot(f"{EXAMPLE}:firstginbot", random.Random(1), 0.0).name


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no/such/file.py:Bot", "no file"),
        ("meldsat.no_such_module:Bot", "cannot import"),
        (f"{EXAMPLE}:NoSuchBot", "no bot maker"),
        (":Bot", "MODULE:NAME"),
    ],
)
def test_a_bad_bot_spec_is_one_line_of_bad_input(spec: str, message: str) -> None:
    with pytest.raises(MeldsatError, match=message):
        make_custom_bot(spec, random.Random(1), 0.0)
