"""Rule sets: every rule the supported games differ in, as one immutable value.

Each reading taken where the original rule texts are ambiguous is a field here, so a house rule is
one ``dataclasses.replace`` away. The presets and their lookup by name (``get_rules``) are in
``meldsat.rulesets``; ``docs/RULES.md`` states every preset in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum

from meldsat.cards import Card, Joker, Notation, Piece
from meldsat.errors import RulesError, quote

# Sequence positions: ranks 1-13 as they are, and 14 for the ace played above the king. A sequence
# is a window of consecutive positions, so Q-K-A is 12-13-14 and the longest one, A-2-...-K-A,
# holds the ace twice (positions 1 and 14). Every module that walks along a sequence uses these.
HIGH_ACE = 14


def rank_at(position: int) -> int:
    """The rank shown at a sequence position: 1-13 as they are, 14 is the ace (rank 1)."""
    return position if position < HIGH_ACE else 1


@dataclass(frozen=True)
class Scoring:
    """Scoring constants of a game; a field that a game does not use keeps its default."""

    game_target: int = 0
    undercut_bonus: int = 0
    going_out_bonus: int = 0
    game_bonus: int = 0
    round_win_bonus: int = 0
    # Manipulation: the seed gives the per-round bonus to the "other players" only (reading taken).
    round_win_bonus_for_everyone: bool = False
    gin_bonus: int = 0
    big_gin_bonus: int = 0
    shutout_doubles: bool = False
    spade_upcard_doubles: bool = False
    games_at_once: int = 1
    # Hollywood: a player shut out of a game (it ended before the player won a hand in it) enters
    # its next win as the first score of the next open game, as published rule books have it;
    # false scores each win only in the games its count of wins names.
    shutout_enters_next_game: bool = False
    deal_pool: int = 0
    rounds_per_deal: int = 0
    only_deal_winner_scores: bool = False


@dataclass(frozen=True)
class RuleSet:
    """The rules of one game. Presets come from :func:`meldsat.rulesets.get_rules`."""

    name: str
    notation: Notation
    decks: int
    jokers: int
    players: int
    min_players: int
    max_players: int
    hand_size: int
    rank_values: tuple[int, ...]
    joker_value: int
    ace_low: bool = True
    ace_high: bool = True
    wrap_around: bool = False
    group_min: int = 3
    group_max: int = 4
    run_min: int = 3
    # An ace melded low (A-2-3) may be worth less than in hand (500 rummy: 1 instead of 15).
    ace_low_meld_value: int | None = None
    knock_limit: int | None = None
    knock_limit_from_upcard: bool = False
    initial_meld_points: int = 0
    new_meld_needs_hand_card: bool = False
    # Rummikub: a joker in a group of three may be won back by a real tile of either missing
    # colour (the official rules), not only the one it was declared as.
    group_joker_either_missing: bool = False
    table_rearrangement: bool = True
    # Manipulation: whoever draws a third card in a turn may not meld that turn.
    draws_before_meld_forbidden: int | None = None
    # (players, decks) where the number of decks, and jokers with them, follows the player count.
    decks_by_players: tuple[tuple[int, int], ...] = ()
    scoring: Scoring = field(default_factory=Scoring)

    def __repr__(self) -> str:
        # A call that rebuilds this rule set: the preset, then any fields that differ from it.
        preset = _PRESETS.get(self.name)
        if preset is None:
            return _field_repr(self)
        try:
            base = preset.with_players(self.players)
        except RulesError:
            return _field_repr(self)
        call = f"get_rules({self.name!r}, {self.players})"
        changed = [
            f"{item.name}={_value_repr(getattr(self, item.name))}"
            for item in fields(self)
            if getattr(self, item.name) != getattr(base, item.name)
        ]
        return f"replace({call}, {', '.join(changed)})" if changed else call

    @property
    def copies(self) -> int:
        """How many physical copies of each card (or tile) the game holds."""
        return self.decks

    def value(self, piece: Piece) -> int:
        """What a piece counts in hand (a joker counts ``joker_value`` whatever it declares)."""
        if isinstance(piece, Joker):
            return self.joker_value
        return self.rank_values[piece.rank - 1]

    def card_value(self, card: Card) -> int:
        """What a real card counts in hand."""
        return self.rank_values[card.rank - 1]

    @property
    def draw_limit(self) -> int:
        """Cards a Manipulation turn draws at most, melding forbidden after the last of them:
        ``draws_before_meld_forbidden``, or 3 when the rule set leaves it unset."""
        return self.draws_before_meld_forbidden or 3

    @property
    def sequence_positions(self) -> range:
        """The positions a sequence may use: low ace (or the 2) to high ace (or the king)."""
        return range(1 if self.ace_low else 2, (HIGH_ACE if self.ace_high else 13) + 1)

    @property
    def longest_sequence(self) -> int:
        """The most cards a sequence can hold: 14 (A..K..A) when the ace is both low and high."""
        return len(self.sequence_positions)

    def with_players(self, players: int) -> RuleSet:
        """This rule set for ``players`` players (decks and jokers follow where the game says)."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"bad player count {quote(players)}: {self.name} takes "
                f"{self.min_players}-{self.max_players} players"
            )
        decks = dict(self.decks_by_players).get(players)
        if decks is None:
            return replace(self, players=players)
        # Jokers come with the decks (Manipulation: one joker a deck).
        jokers = self.jokers * decks // self.decks
        return replace(self, players=players, decks=decks, jokers=jokers)


def _field_repr(rules: RuleSet) -> str:
    values = ", ".join(
        f"{item.name}={_value_repr(getattr(rules, item.name))}" for item in fields(rules)
    )
    return f"RuleSet({values})"


def _value_repr(value: object) -> str:
    # Enums print as <Notation.CARDS: 'cards'> by default, which does not read back.
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    return repr(value)


# The presets by name, for ``repr``. They are defined in ``meldsat.rulesets``, which imports this
# module for ``RuleSet`` and so hands them over itself (:func:`register_presets`): importing it
# from here would make the two modules import each other.
_PRESETS: dict[str, RuleSet] = {}


def register_presets(presets: Mapping[str, RuleSet]) -> None:
    """Let ``repr`` write these rule sets, and those made from them, as ``get_rules`` calls."""
    _PRESETS.update(presets)


def require_rules(value: object, argument: str = "rules") -> RuleSet:
    """``value`` if it is a :class:`RuleSet`, else a ``TypeError`` (say ``get_rules(name)``)."""
    if not isinstance(value, RuleSet):
        raise TypeError(
            f"{argument} must be a RuleSet (from get_rules), not {type(value).__name__}"
        )
    return value
