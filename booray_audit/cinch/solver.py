"""The exact sure-tricks search (the Python reference; ``_search.c`` is the same search
compiled): can P make k more tricks whatever the unseen cards are and however the others
play?  A game of perfect information between P and an adversary, solved with
memoisation; the bounds (``bounds``) decide the easy positions first."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.engine import legal, winning
from ..rules.profiles import Rules
from .bounds import Bounds
from .canon import _canon, _distinct
from .compiled import NODES, PYTHON_NODES, _duties, _search
from .moves import Moves
from .position import Position


class Undecided(Exception):
    """The search went past its node budget."""


@dataclass(frozen=True, slots=True)
class Unsettled:
    """``judge``'s answer when the search stops at its budget: no cinch is claimed and
    none is ruled out (the audit reports the check as undecidable, never a finding)."""
    nodes: int

    def __bool__(self) -> bool:
        return False


class Solver(Bounds, Moves):
    """Exact sure-tricks search for one position's player, in four steps.

    1. Bounds (``_lower``), at every node: each of P's trumps loses only to a higher
       trump in the same trick (``top_trumps``); a trick P's card wins whatever the
       seats still to play hold; on lead, cashing the trumps above every captor, then
       the plain cards no one can beat.
    2. Restricted adversaries (``PASSES``): the adversary keeps one or two moves per
       turn under a policy; P failing there fails against every adversary.
    3. The relaxed game (``_relax``): a stronger adversary, for whom the ranks of the
       suits P lacks are blank; P succeeding there succeeds against every adversary.
    4. The exact search, each adversary move first probed against step 2's adversary;
       its positions are packed after each trick (``_canon``) and its memo key inside
       a trick keeps only what the rest depends on (``_summary``).
    Steps 2 and 3 have node shares of their own; step 4 has ``max_nodes`` (None: no
    limit), of which ``EXACT_FIRST`` goes before step 3: nearly every position that
    gets past step 2 is no cinch, which the exact search shows and the relaxed game
    cannot.

    This Python search is the reference.  Where the compiled one (_search.c, the same
    steps with larger shares) is built, ``solve`` hands it the position unless
    ``compiled=False``; ``search`` and the helpers below always run in Python.  The
    compiled search has one step more: the exact search with each turn's moves first
    tried in small, growing shares of their own, the adversary's killer moves first
    (its own share of nodes; every answer it gives is exact, like step 4's), before
    step 4's second part at 7 seats or more, where step 4 stops at its budget at fewer
    (_search.c, ``run``).
    """

    def __init__(self, rules: Rules, max_nodes: int | None = NODES, compiled: bool | None = None):
        self.rules = rules
        # the compiled search, where built (None: whenever it is); the Python one is the reference
        self.compiled = _search is not None and compiled is not False
        self.nodes = 0
        self.budget = max_nodes  # the exact search's share; None: no limit (exact, however long)
        self.max_nodes: float = max_nodes or float("inf")  # where the current step stops
        self.trump = 0
        self.me = 0
        self.width: int | None = None
        self.policy = 0
        self.decided_by = "bounds"  # or "restricted adversary", "relaxed search", "search"
        self._memo: dict = {}
        self._lost: set = set()  # positions P loses against a restricted adversary: lost against all
        self._probes: tuple = ({}, {})  # the full searches' probes with the restricted adversary
        self.relaxed = False  # see _relax

    def solve(self, pos: Position, k: int, nodes: int | None = None) -> bool:
        """Can P win ``k`` more tricks for sure? Raises ``Undecided`` when the exact
        search goes past ``max_nodes`` (the class docstring gives the steps); the compiled
        search (where built) takes ``nodes`` instead, when given (0: no limit)."""
        self.trump = pos.trump
        self.me = pos.seats.index(pos.me)
        if self.compiled:
            answer = self._compiled(pos, k, self.budget or 0 if nodes is None else nodes)
            if answer is not None:
                return answer
            if self.budget and self.budget > PYTHON_NODES:  # a table wider than it takes
                self.budget = self.max_nodes = PYTHON_NODES
        args = (pos.hand, pos.unseen, pos.counts, pos.constraints(), pos.trick, k)
        for self.width, self.policy in self.PASSES:
            self._memo = {}
            self.max_nodes = self.nodes + self.PASS_NODES
            try:
                if not self._p(*args):
                    self.decided_by = "restricted adversary"
                    return False
            except Undecided:
                pass  # a restricted pass can only refute; past its share it gives way
        self.width, self.policy = None, 0
        exact: dict = {}  # the exact search's memo, kept across its two shares
        first = min(self.EXACT_FIRST, self.budget) if self.budget else self.EXACT_FIRST
        self._memo, self.max_nodes = exact, self.nodes + first
        self.decided_by = "search"
        try:
            return self._p(*args)
        except Undecided:
            pass  # most positions that get here are refuted within this share
        self.relaxed, self._memo = True, {}
        self.max_nodes = self.nodes + self.RELAXED_NODES
        try:
            if self._p(*args):
                self.decided_by = "relaxed search"
                return True
        except Undecided:
            pass  # the relaxed game can only show a cinch
        finally:
            self.relaxed = False
        self._memo = exact
        self.max_nodes = self.nodes + self.budget - first if self.budget else float("inf")
        return self._p(*args)

    def _compiled(self, pos: Position, k: int, nodes: int) -> bool | None:
        """Every step in C (_search.c), within ``nodes`` (0: no limit); None when it does
        not take the position (more than 10 seats, a seat known to hold two cards), for
        the Python steps to answer."""
        answer, nodes = _search.solve(pos.hand, pos.unseen, pos.trump, self.me, pos.counts, pos.forbidden,
                                      pos.holds, pos.trick, k, *_duties(self.rules), nodes)
        self.nodes += nodes
        if answer == -2:
            return None
        self.decided_by = "compiled search"
        if answer < 0:
            raise Undecided
        return bool(answer)

    def search(self, pos: Position, k: int, relaxed: bool = False) -> bool:
        """Step 4 alone (or, ``relaxed``, step 3 alone), within ``max_nodes``: what the
        other steps only shorten, for checking each against the oracle."""
        self.trump, self.me = pos.trump, pos.seats.index(pos.me)
        self.width, self.policy, self.relaxed, self._memo = None, 0, relaxed, {}
        self.max_nodes = self.nodes + self.budget if self.budget else float("inf")
        return self._p(pos.hand, pos.unseen, pos.counts, pos.constraints(), pos.trick, k)

    # Restricted adversaries: (moves per turn, policy); each may use PASS_NODES nodes.
    PASSES = ((1, 0), (1, 1), (1, 2), (1, 3), (2, 0))
    PASS_NODES = 1_000
    RELAXED_NODES = 3_000  # the relaxed game's share; the exact search has max_nodes
    EXACT_FIRST = 1_000  # of which this much goes before the relaxed game

    def _p(self, hand, unseen, counts, forb, trick, k) -> bool:
        if k <= 0:
            return True
        if self.relaxed:
            forb = self._relax(self._held(hand, trick), unseen, forb)
        left = hand.bit_count() + any(j == self.me for j, _ in trick)  # P's card in this trick counts
        if left < k:
            return False
        if self.width is None and len(trick) > 1:
            key = self._summary(hand, unseen, counts, forb, trick, k)
        else:
            key = (hand, unseen, counts, forb, trick, k)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if key in self._lost:
            return False
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Undecided
        if not self.nodes & self.TRIM_MASK:
            self._trim()
        if trick and len(trick) == self._players(counts, trick):
            res = self._finish(hand, unseen, counts, forb, trick, k)
        elif self._lower(hand, unseen, counts, forb, trick) >= k:
            res = True
        else:
            seat = self.me if not trick else self._next(trick[-1][0], counts, trick)
            if seat == self.me:
                cards = [c for _, c in trick]
                options = _distinct(legal(hand, cards, self.trump, self.rules).cards, unseen)
                res = any(self._p(hand & ~(1 << c), unseen, counts, forb, trick + ((seat, c),), k)
                          for c in options)
            elif self.width == 1 and not self.relaxed:
                res = self._line(seat, hand, unseen, counts, forb, trick, k)
            else:
                res = self._against(((hand, unseen & ~(1 << c), cnt, fb, trick + ((seat, c),), k)
                                     for c, cnt, fb in self._adversary(seat, hand, unseen, counts, forb, trick)))
        self._memo[key] = res
        if not res and not self.relaxed:
            self._lost.add(key)
        return res

    MEMO_ENTRIES = 1_000_000  # past this many (about 0.8 GB), the memos start afresh (set_memory)
    TRIM_MASK = 0xFFFF  # checked every 65,536 nodes

    def _trim(self) -> None:
        """Bound the memory of a long search (``--cinch-nodes 0``): results are only
        remembered, so forgetting them costs time, never correctness."""
        memos = (self._memo, self._lost) + self._probes
        if sum(len(m) for m in memos) > self.MEMO_ENTRIES:
            for m in memos:
                m.clear()

    def _line(self, seat, hand, unseen, counts, forb, trick, k) -> bool:
        """A one-move adversary's plays up to P's turn or the end of the trick, without a
        memo or a bound at each: the moves are forced, so those would save nothing."""
        players = self._players(counts, trick)
        while True:
            move = next(self._adversary(seat, hand, unseen, counts, forb, trick), None)
            if move is None:
                return True
            c, counts, forb = move
            unseen &= ~(1 << c)
            trick += ((seat, c),)
            if len(trick) == players:
                return self._p(hand, unseen, counts, forb, trick, k)
            seat = self._next(seat, counts, trick)
            if seat == self.me:
                return self._p(hand, unseen, counts, forb, trick, k)
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise Undecided

    def _summary(self, hand, unseen, counts, forb, trick, k) -> tuple:
        """The full search's memo key inside a trick: what the rest of the game depends on.
        Of the trick's cards only the winning one, P's, and (must-beat=previous) the last
        one of the led suit still matter, beside the led suit, the leader, who has played
        and who followed; the live cards are packed as ``_canon`` does.  Positions that
        differ only in cards the others threw meet here, which cuts the adversary's
        branching, exponential in the number of opponents, to what can differ after."""
        cards = [c for _, c in trick]
        led = cards[0] >> 4
        w = winning(cards, self.trump)
        keep = [cards[w]]
        if self.rules.must_beat == "previous":
            keep.append(next(c for c in reversed(cards) if c >> 4 == led))
        seats = followed = 0
        for j, c in trick:
            seats |= 1 << j
            if c >> 4 == led:
                followed |= 1 << j
            if j == self.me:
                keep.append(c)
        hand, unseen, forb, keep = _canon(hand, unseen, forb, keep)
        return (hand, unseen, counts, forb, keep, trick[0][0], trick[w][0], seats, followed, led, k)
