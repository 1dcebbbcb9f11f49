"""The compiled search (``_search.c``, built at install where a C compiler is found), the
budgets, and the rules as its functions take them."""

from __future__ import annotations

import os

from ..rules.profiles import Rules
from .position import Position


try:  # the compiled search (_search.c), built at install where a C compiler is found
    if os.environ.get("BOORAY_AUDIT_PURE"):
        raise ImportError("the pure-Python search was asked for")
    from . import _search
except ImportError:
    _search = None
# which implementation of the exact search runs (`booray-audit --version`)
SOLVER = "compiled" if _search else "pure Python"
# the exact search's default budget per decision (``--cinch-nodes``): a compiled node
# costs about 3 µs, a Python one 40
PYTHON_NODES = 3_000
NODES = 200_000 if _search else PYTHON_NODES
FIRST_NODES = 20_000  # the compiled judge's first try, before the refuter (judge)
COMPILED_SEATS = 10  # the most seats _search.c takes (MAXS)
DEAL_NODES = 5_000  # the refuter's double dummy, nodes per deal: ~50 ns each, compiled only
_BEAT = {"none": 0, "winner": 1, "previous": 2}


def _duties(rules: Rules) -> tuple[int, bool, bool, bool]:
    """The rules as _search.c's functions take them: must-beat, must-trump,
    must-overtrump, and whether a trump that cannot win may be kept."""
    return _BEAT[rules.must_beat], rules.must_trump, rules.must_overtrump, rules.trump_when_cannot_win == "may"


def _seen(deal, pos: Position, me: int) -> list[int]:
    """Every seat's cards on a deal of the unseen ones: P's own, the deal's for the rest."""
    return [pos.hand if i == me else deal[i] for i in range(len(pos.seats))]
