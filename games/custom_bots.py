"""Bots written outside meldsat, named on the command line by where they live.

A ``--bots`` entry with a colon is a bot spec: ``MODULE:NAME`` (an importable module, as
``mybots.gin:CautiousBot``) or ``FILE.py:NAME`` (a Python file, as
``examples/first_gin_bot.py:FirstGinBot``). ``NAME`` is a maker, called like a roster's
(:data:`meldsat.games.roster.BotMaker`) with the spec, the seat's seeded random generator and the
hint time limit; a class whose first three fields are ``name``, ``rng`` and ``time_limit`` is
such a maker. What it makes answers the family's protocol (:mod:`meldsat.games.agents`).
docs/BOTS.md walks through one.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

from meldsat.errors import MeldsatError
from meldsat.games.agents import Agent
from meldsat.games.roster import BotMaker


def is_bot_spec(name: str) -> bool:
    """Whether a ``--bots`` entry names a bot by its module or file (it holds a colon)."""
    return ":" in name


def _module(where: str, spec: str) -> ModuleType:
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise MeldsatError(f"bot '{spec}': no file '{where}'")
        # One module per file, loaded once however many seats or games name it.
        key = "meldsat_bot_" + re.sub(r"\W", "_", str(path.resolve()))
        if key in sys.modules:
            return sys.modules[key]
        loader = importlib.util.spec_from_file_location(key, path)
        if loader is None or loader.loader is None:
            raise MeldsatError(f"bot '{spec}': '{where}' cannot be loaded as Python")
        module = importlib.util.module_from_spec(loader)
        sys.modules[key] = module
        try:
            loader.loader.exec_module(module)
        except Exception as error:
            del sys.modules[key]
            raise MeldsatError(f"bot '{spec}': loading '{where}' failed: {error}") from None
        return module
    try:
        return importlib.import_module(where)
    except ImportError as error:
        raise MeldsatError(f"bot '{spec}': cannot import '{where}': {error}") from None


def bot_maker(spec: str) -> BotMaker:
    """The maker a bot spec names (``MODULE:NAME`` or ``FILE.py:NAME``); bad specs are bad input."""
    where, _, attribute = spec.strip().rpartition(":")
    if not where or not attribute:
        raise MeldsatError(f"bot '{spec}': a bot spec is MODULE:NAME or FILE.py:NAME")
    module = _module(where, spec)
    maker = getattr(module, attribute, None)
    if maker is None:
        # A front end that lowers its input (``meldsat play``) still finds ``FirstGinBot``.
        folded = [name for name in vars(module) if name.lower() == attribute.lower()]
        maker = getattr(module, folded[0], None) if len(folded) == 1 else None
    if not callable(maker):
        raise MeldsatError(f"bot '{spec}': '{where}' has no bot maker '{attribute}'")
    made: BotMaker = maker
    return made


def make_custom_bot(spec: str, rng: random.Random, time_limit: float) -> Agent:
    """The bot a spec names, made for one seat."""
    bot = bot_maker(spec)(spec.strip(), rng, time_limit)
    if not hasattr(bot, "name"):
        raise MeldsatError(f"bot '{spec}': what it makes has no 'name'")
    return bot
