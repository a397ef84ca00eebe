"""Both sides' answers re-checked with meldsat's rule checker (``meldsat.moves``, independent of
its engine), and the peer's optimum compared with meldsat's: equal, or why they differ."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from benchmarks.common.peer import PeerAnswer
from meldsat.cards import Card, Joker, Piece, represented_card
from meldsat.melds import meld_shapes
from meldsat.moves import ReasonCode, check_move
from meldsat.play import Objective, Play, Status
from meldsat.position import Position
from meldsat.rules import RuleSet


def _key(piece: Piece) -> Card | str:
    return "joker" if isinstance(piece, Joker) else piece


JOKER_LOCKING = "re-declares a table joker while its real card is not on the table"


def _declarations(sets: Sequence[Sequence[Piece]], rules: RuleSet) -> Iterator[list[list[Piece]]]:
    """Every way to declare the undeclared jokers of legal sets: the tables they make."""
    options: list[list[list[Piece]]] = []
    for meld in sets:
        known = [piece for piece in meld if isinstance(piece, Card)]
        wild = len(meld) - len(known)
        if not wild:
            options.append([list(meld)])
            continue
        declared = sorted({jokers for _, jokers in meld_shapes(known, wild, rules)})
        options.append([[*known, *(Joker(card) for card in jokers)] for jokers in declared])
    for choice in itertools.product(*options):
        yield list(choice)


def check_peer(position: Position, answer: PeerAnswer) -> str | None:
    """Why the peer's answer breaks meldsat's rules, or None when it is a legal play.

    The peer's sets carry undeclared jokers; the play is legal when some declaration of them makes
    a legal turn for meldsat's move checker (``meldsat.moves.check_move``, independent of the
    engine). When every declaration fails only on joker locking the answer is
    :data:`JOKER_LOCKING`: the peer treats every joker on the table as free to stand for any tile.
    """
    if not answer.tiles:
        return None
    if Counter(map(_key, answer.tiles)) - Counter(map(_key, position.hand)):
        return "places tiles that are not on the rack"
    rules = position.rules
    for meld in answer.sets:
        known = [piece for piece in meld if isinstance(piece, Card)]
        if not meld_shapes(known, len(meld) - len(known), rules):
            return f"illegal set {' '.join(piece.text(rules.notation) for piece in meld)}"
    before = Counter(_key(piece) for meld in position.table for piece in meld)
    after = Counter(_key(piece) for meld in answer.sets for piece in meld)
    if after != before + Counter(map(_key, answer.tiles)):
        return "its sets do not hold exactly the table plus the tiles placed"
    codes: set[str] = set()
    for table in _declarations(answer.sets, rules):
        verdict = check_move(position.table, position.hand, table, rules)
        if verdict.legal:
            return None
        codes.update(reason.code for reason in verdict.reasons)
    if codes == {ReasonCode.JOKER_REDECLARED}:
        return JOKER_LOCKING
    return "move checker: " + ", ".join(sorted(codes))


def check_meldsat(position: Position, play: Play) -> str | None:
    """Why meldsat's play breaks the rules (``meldsat.moves.check_move``), or None when legal."""
    if not play.found:
        return None
    verdict = check_move(position.table, position.hand, play.table, position.rules)
    if not verdict.legal:
        return "move checker: " + "; ".join(reason.message for reason in verdict.reasons)
    if Counter(map(_key, verdict.played)) != Counter(map(_key, play.played)):
        return "the cards played differ from what the table gained"
    if play.cards_played != len(play.played):
        return f"cards_played is {play.cards_played} but {len(play.played)} cards are played"
    if play.points_played != points(position.rules, play.played):
        return f"points_played is {play.points_played}, the cards played count differently"
    return None


def meldsat_problem(position: Position, play: Play) -> str | None:
    """What is wrong with meldsat's answer (not proven optimal, or illegal), or None."""
    if play.status not in (Status.OPTIMAL, Status.NO_MOVE):
        return f"not proven optimal ({play.status.value})"
    return check_meldsat(position, play)


EQUAL = "equal"
PEER_LOCKING = "peer higher: its play re-declares a locked table joker (rule difference)"
PEER_ILLEGAL = "peer higher: its play breaks the rules"
MELDSAT_SHORT = "PEER HIGHER WITH A LEGAL PLAY: meldsat's optimum is wrong"
PEER_JOKER_SETS = "peer lower: meldsat's play needs a joker set the peer omits"
PEER_VALUE_MODE = "peer lower: its total value mode maximises the tile count"
PEER_UNEXPLAINED = "PEER LOWER, UNEXPLAINED"


def classify(position: Position, play: Play, answer: PeerAnswer, objective: Objective) -> str:
    """How the peer's answer compares with meldsat's optimum, and why they differ."""
    if objective is Objective.CARDS:
        ours, theirs = play.cards_played, len(answer.tiles)
    else:
        ours, theirs = play.points_played, points(position.rules, answer.tiles)
    if ours == theirs:
        return EQUAL
    if theirs > ours:
        problem = check_peer(position, answer)
        if problem == JOKER_LOCKING:
            return PEER_LOCKING
        return MELDSAT_SHORT if problem is None else f"{PEER_ILLEGAL} ({problem})"
    if objective is Objective.POINTS:
        return PEER_VALUE_MODE
    return PEER_JOKER_SETS if uses_omitted_joker_set(play.table) else PEER_UNEXPLAINED


def uses_omitted_joker_set(table: Iterable[Sequence[Piece]]) -> bool:
    """True when a meld holds a joker in a 4-card group or at an end of a 4-5 card run.

    rummikub-solver leaves such sets out on purpose (its README: they leave a joker free for the
    next player), so it cannot make plays that need one.
    """
    for meld in table:
        if not any(isinstance(piece, Joker) for piece in meld):
            continue
        cards = [card for card in map(represented_card, meld) if card is not None]
        group = len({card.rank for card in cards}) == 1 and len({card.suit for card in cards}) > 1
        if group and len(meld) == 4:
            return True
        ends = isinstance(meld[0], Joker) or isinstance(meld[-1], Joker)
        if not group and len(meld) in (4, 5) and ends:
            return True
    return False


def points(rules: RuleSet, pieces: Iterable[Piece]) -> int:
    """Hand value of pieces (a Rummikub joker counts 30)."""
    return sum(rules.value(piece) for piece in pieces)
