"""Rule sets: every rule the supported games differ in, as one immutable value.

Each reading taken where the original rule texts are ambiguous is a field here, so a house rule is
one ``dataclasses.replace`` away. ``docs/RULES.md`` states every preset in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from meldsat.cards import Card, Joker, Notation, Piece
from meldsat.errors import RulesError

# Card values by rank (index 0 = ace). Face cards count 10 in every card game here.
_FACE_TEN_ACE_ONE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_FACE_TEN_ACE_FIFTEEN = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_TILE_NUMBERS = tuple(range(1, 14))

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
    deal_pool: int = 0
    rounds_per_deal: int = 0
    only_deal_winner_scores: bool = False


@dataclass(frozen=True)
class RuleSet:
    """The rules of one game. Presets come from :func:`get_rules`."""

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
    table_rearrangement: bool = True
    # Manipulation: whoever draws a third card in a turn may not meld that turn.
    draws_before_meld_forbidden: int | None = None
    scoring: Scoring = field(default_factory=Scoring)

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
                f"bad player count '{players}': {self.name} takes "
                f"{self.min_players}-{self.max_players} players"
            )
        if self.name == "manipulation":
            # One deck and one joker for two players, two decks and two jokers for 3-5.
            decks = 1 if players == 2 else 2
            return replace(self, players=players, decks=decks, jokers=decks)
        return replace(self, players=players)


def _manipulation() -> RuleSet:
    return RuleSet(
        name="manipulation",
        notation=Notation.CARDS,
        decks=2,
        jokers=2,
        players=4,
        min_players=2,
        max_players=5,
        hand_size=10,
        rank_values=_FACE_TEN_ACE_ONE,
        joker_value=25,
        knock_limit=5,
        draws_before_meld_forbidden=3,
        scoring=Scoring(
            game_target=150,
            undercut_bonus=10,
            going_out_bonus=25,
            game_bonus=100,
            round_win_bonus=25,
        ),
    )


def _rummikub() -> RuleSet:
    return RuleSet(
        name="rummikub",
        notation=Notation.TILES,
        decks=2,
        jokers=2,
        players=4,
        min_players=2,
        max_players=4,
        hand_size=14,
        rank_values=_TILE_NUMBERS,
        joker_value=30,
        ace_high=False,
        initial_meld_points=30,
    )


def _gin(name: str, scoring: Scoring, *, knock_from_upcard: bool = False) -> RuleSet:
    return RuleSet(
        name=name,
        notation=Notation.CARDS,
        decks=1,
        jokers=0,
        players=2,
        min_players=2,
        max_players=2,
        hand_size=10,
        rank_values=_FACE_TEN_ACE_ONE,
        joker_value=0,
        ace_high=False,
        knock_limit=10,
        knock_limit_from_upcard=knock_from_upcard,
        table_rearrangement=False,
        scoring=scoring,
    )


_GIN_SCORING = Scoring(
    game_target=100,
    undercut_bonus=25,
    game_bonus=100,
    round_win_bonus=25,
    gin_bonus=25,
    big_gin_bonus=31,
    shutout_doubles=True,
)


def _rummy500(name: str, target: int, *, killer: bool = False) -> RuleSet:
    return RuleSet(
        name=name,
        notation=Notation.CARDS,
        decks=2,
        jokers=2,
        players=4,
        min_players=2,
        max_players=6,
        hand_size=13,
        rank_values=_FACE_TEN_ACE_FIFTEEN,
        joker_value=15,
        ace_low_meld_value=1,
        new_meld_needs_hand_card=True,
        scoring=Scoring(
            game_target=target,
            deal_pool=0 if killer else 30,
            rounds_per_deal=10,
            only_deal_winner_scores=killer,
        ),
    )


def _presets() -> dict[str, RuleSet]:
    return {
        "manipulation": _manipulation(),
        "rummikub": _rummikub(),
        "gin": _gin("gin", _GIN_SCORING),
        "oklahoma-gin": _gin(
            "oklahoma-gin",
            replace(_GIN_SCORING, game_target=150, spade_upcard_doubles=True),
            knock_from_upcard=True,
        ),
        "hollywood-gin": _gin("hollywood-gin", replace(_GIN_SCORING, games_at_once=3)),
        "rummy500": _rummy500("rummy500", 500),
        "rummy300": _rummy500("rummy300", 300),
        "rummy500-killer": _rummy500("rummy500-killer", 500, killer=True),
    }


PRESETS: dict[str, RuleSet] = _presets()
RULE_SET_NAMES: tuple[str, ...] = tuple(PRESETS)


def get_rules(name: str = "manipulation", players: int | None = None) -> RuleSet:
    """The preset called ``name`` (case-insensitive), for ``players`` players if given."""
    rules = PRESETS.get(name.strip().lower())
    if rules is None:
        raise RulesError(f"unknown rule set '{name}' (choose from {', '.join(RULE_SET_NAMES)})")
    return rules if players is None else rules.with_players(players)
