"""Exceptions raised by the library, one per failure stage.

Every exception is a ``ValueError`` whose message is one line that quotes the offending input, so a
front end can print ``str(error)`` as it is.
"""


class MeldsatError(ValueError):
    """Base class of every error the library raises on bad or impossible input."""


class NotationError(MeldsatError):
    """A card, joker, meld or position could not be read (bad syntax or unknown token)."""


class AmbiguousJokerError(NotationError):
    """An undeclared joker could stand for more than one card; the message names the options."""


class RulesError(MeldsatError):
    """An unknown rule set, or an option outside what the rule set allows (e.g. player count)."""


class ImpossiblePositionError(MeldsatError):
    """A position that cannot occur: more copies of a card than the decks hold, an illegal table."""


class UnsupportedError(MeldsatError):
    """A request the engine cannot answer exactly for this rule set; the message says which part."""
