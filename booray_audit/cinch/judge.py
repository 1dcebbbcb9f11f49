"""The judge: whether P had a cinch just before a play (docs/rules.md, the cinch), within a
budget.  The top-trumps count and the bounds first, then concrete deals that may refute
it (``refute``), then the exact search (``solver``, compiled where built: ``compiled``);
a position the budget does not settle is ``Unsettled``, never a cinch.  ``cinch_judge``
is the replay's hook: the position read from the record (``position.position``), judged.
"""

from __future__ import annotations

from functools import lru_cache

from ..rules.profiles import Rules
from .canon import _mask
from .compiled import COMPILED_SEATS, DEAL_NODES, FIRST_NODES, NODES, _duties, _search, _seen
from .position import Cinch, Contradicted, Position, Unjudged, _feasible, _why, position, top_trumps
from .refute import refutes
from .solver import Solver, Undecided, Unsettled


def judge(pos: Position, won: int, rules: Rules, solver: Solver | None = None, refute: bool = True,
          deal_nodes: int | None = None) -> Cinch | Unsettled | Contradicted | None:
    """A cinch (with the reason, in words) or None, under the rules' ``cinch`` toggle.
    A position the search cannot settle within its budget gives ``Unsettled``, one that
    no deal fits gives ``Contradicted`` (both falsy: the audit never invents a cinch,
    and reports the check as undecidable).  ``refute``: try concrete deals (refute.py)
    before the search; they can only show there is no cinch, and do so for most.  With
    the compiled search, each deal is first played out double dummy within
    ``deal_nodes`` (0: not at all; None: DEAL_NODES, or the search's budget if smaller)."""
    k = rules.need - won
    if rules.cinch == "off":
        return None
    if k <= 0:
        return Cinch(0, f"{pos.me} had already won {won} tricks")
    if rules.cinch == "top-trumps":
        captors = pos.unseen | _mask(c for _, c in pos.trick)
        count = top_trumps(pos.hand, captors, pos.trump)
        return Cinch(count, _why(pos, won, count)) if count >= k else None
    solver = solver or Solver(rules)
    solver.trump, solver.me = pos.trump, pos.seats.index(pos.me)
    if not _dealable(pos, solver):
        return Contradicted()
    if solver.compiled:
        return _judge_compiled(pos, won, k, rules, solver, refute, deal_nodes)
    lower = solver._lower(pos.hand, pos.unseen, pos.counts, pos.constraints(), pos.trick)
    if lower >= k:
        return Cinch(lower, _why(pos, won, lower))
    if refute and refutes(pos, k, rules):
        solver.decided_by = "refuter"
        return None
    try:
        if solver.solve(pos, k):
            return Cinch(k, _why(pos, won, k))
    except Undecided:
        STATS["undecided"] += 1
        return Unsettled(solver.budget or 0)
    return None


def _judge_compiled(pos: Position, won: int, k: int, rules: Rules, solver: Solver, refute: bool,
                    deal_nodes: int | None):
    """``judge`` with the compiled search: within FIRST_NODES, then the refuter (a few
    deals settle positions with many opponents that take the search millions of nodes;
    each deal played out double dummy first, compiled), then the search again within the
    whole budget (going on from where the first try stopped, its memo kept: _search.c's
    ``Resume``, the same answer and node count as from the start).  It runs every step
    of the Python search with larger shares: `python bench/ab.py` checks that it settles
    every decision the Python judge settles.

    The counting bound (``Solver._lower``), which the Python judge asks first, is asked
    here only of a cinch (its count is the one the reason gives) or of a position left
    unsettled: the bound never exceeds the sure tricks, so a position the search or the
    refuter shows is no cinch is one where it falls short of ``k``."""
    budget = solver.budget or 0
    first = min(budget, FIRST_NODES) if budget else FIRST_NODES
    if deal_nodes is None:
        deal_nodes = min(budget, DEAL_NODES) if budget else DEAL_NODES
    for nodes in (first, budget) if first != budget else (first,):
        try:
            if not solver.solve(pos, k, nodes):
                return None
            return _bounded(pos, won, k, solver) or Cinch(k, _why(pos, won, k))
        except Undecided:
            pass
        if refute and refutes(pos, k, rules, _played_out(deal_nodes) if deal_nodes else None, _versus):
            solver.decided_by = "refuter"
            return None
        refute = False
    cinch = _bounded(pos, won, k, solver)
    if cinch:
        return cinch
    STATS["undecided"] += 1
    return Unsettled(budget)


def _dealable(pos: Position, solver: Solver) -> bool:
    """Some deal of the unseen cards fits every seat's count and constraints: asked of the
    compiled check where it takes the position (``tests/test_feasible.py`` holds the two
    to dealing every way).  Every seat is dealt as many cards as P and plays one a trick,
    so an opponent left with fewer than P (fewer by one once it has played to this trick)
    is a record that contradicts itself too: no play of the game reaches that position."""
    size = pos.hand.bit_count()
    played = {seat for seat, _ in pos.trick}
    if any(n < size - (i in played) for i, n in enumerate(pos.counts) if i != solver.me):
        return False
    if solver.compiled and len(pos.counts) <= COMPILED_SEATS:
        return _search.feasible(pos.unseen, pos.counts, pos.forbidden, pos.holds or (0,) * len(pos.counts))
    return _feasible(pos.unseen, pos.counts, pos.constraints(), -1)


def _bounded(pos: Position, won: int, k: int, solver: Solver) -> Cinch | None:
    """The cinch the counting bound shows, with its count; None where it falls short."""
    lower = solver._lower(pos.hand, pos.unseen, pos.counts, pos.constraints(), pos.trick)
    if lower < k:
        return None
    solver.decided_by = "bounds"
    return Cinch(lower, _why(pos, won, lower))


def _played_out(nodes: int):
    """refute.double_dummy, compiled, within ``nodes`` a deal: True, False or None."""
    def play_out(deal, pos, me, k, rules):
        answer, _ = _search.double_dummy(_seen(deal, pos, me), me, pos.trump, pos.trick, k, *_duties(rules),
                                         nodes)
        return None if answer < 0 else bool(answer)
    return play_out


VERSUS_NODES = 100_000  # P's turns in the compiled policy play-out; past them the Python one answers


def _versus(deal, pos, me, k, rules, policy):
    """refute._best, compiled (``_search.versus_policy``): the tricks P makes against the
    policy (refute.POLICIES[policy]) on this deal; None for the Python one to answer."""
    tricks, _ = _search.versus_policy(_seen(deal, pos, me), me, pos.trump, pos.trick, k, *_duties(rules),
                                      policy, VERSUS_NODES)
    return None if tricks < 0 else tricks


STATS = {"undecided": 0}
ENTRY_BYTES = 800  # what one memo entry costs, measured: 2,000,000 entries took 1.6 GB


def set_memory(megabytes: int) -> None:
    """Cap the memory of the cinch search's memos (``--cinch-memory``; default about 85 MB
    compiled, 800 MB in Python): past it they start afresh, which costs time (and, within a
    node budget, can leave a decision undecided), never a wrong answer."""
    Solver.MEMO_ENTRIES = max(1, megabytes * 1_000_000 // ENTRY_BYTES)
    if _search:
        _search.memory(megabytes)


@lru_cache(maxsize=16)
def cinch_judge(rules: Rules, nodes: int = NODES):
    """The replay's hook: (knowledge, player, trick, tricks won, prior cards) → Cinch,
    Unsettled or None; ``nodes`` is the exact search's budget (0: none, exact however long).
    One hook per rules and budget, its answers remembered across hands: a judgement
    depends on nothing else (each search starts with an empty memo).  None where the cinch
    is not judged: ``cinch=off``, or the lead rotating (the search plays the winner's lead)."""
    if rules.cinch == "off" or rules.lead != "winner":
        return None

    @lru_cache(maxsize=256)
    def _judge(pos: Position, won: int):
        return judge(pos, won, rules, Solver(rules, nodes or None))

    def hook(know, p, t, won, prior):
        pos = position(know, p, t, prior)
        return Unjudged() if pos is None else _judge(pos, won)

    if _search is not None and rules.cinch == "sure-tricks":
        # the compiled judge's first try (_judge_compiled), for the compiled plain walk
        # (judge/plain.py), which settles there each position showing no cinch
        hook.first = min(nodes, FIRST_NODES) if nodes else FIRST_NODES
    return hook
