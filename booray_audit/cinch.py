"""The cinch: sure tricks judged from what the player can know (RULES.md §4).

``sure(pos, k)`` answers "can P make k more tricks whatever the unseen cards
are and however the others play?": P picks its cards seeing only the history;
an adversary places unseen cards in the opponents' hands lazily, within their
hand sizes and everything their plays revealed, and plays for them any card
rules 1–4 allow.  Because P's knowledge is exactly the public history, this is
a game of perfect information between P and the adversary, solved exactly by
search with memoisation; cheap bounds decide the easy positions first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from .cards import FULL_DECK, above, card_str, cards_of, suit_mask
from .engine import beats, legal, winning
from .refute import refutes
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Position:
    """P's view just before P plays."""
    hand: int                       # P's cards
    unseen: int                     # cards P has not seen (in opponents' hands or out of play)
    trump: int
    seats: tuple[str, ...]          # active players in clockwise order, P among them
    me: str
    counts: tuple[int, ...]         # cards left per seat (P's entry 0)
    forbidden: tuple[int, ...]      # per seat: cards that player's plays showed it cannot hold
    trick: tuple[tuple[int, int], ...]  # (seat index, card) played so far in this trick
    holds: tuple[int, ...] = ()     # per seat: unseen cards it is known to hold (the up-card)

    def constraints(self) -> tuple[int, ...]:
        """The solver's per-seat constraints: ``forbidden``, with ``holds`` above bit HOLD."""
        if not any(self.holds):
            return self.forbidden
        return tuple(f | h << HOLD for f, h in zip(self.forbidden, self.holds))


# A seat's constraint mask carries the cards it cannot hold in its low bits and, shifted
# up by HOLD, the unseen cards it is known to hold; played cards leave both.
HOLD = 64
LOW = (1 << HOLD) - 1


@dataclass(frozen=True, slots=True)
class Unjudged:
    """The replay hook's answer when the record does not show P's view (P's whole hand,
    the cards played so far or the order of play): no cinch claimed, none ruled out."""

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Contradicted:
    """``judge``'s answer when no deal of the unseen cards fits every play and fact the
    record shows: never a cinch (a cinch over no deals proves nothing, RULES.md §4)."""

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Cinch:
    sure: int
    why: str

    def __bool__(self) -> bool:
        return True


def reveal(card: int, prior: list[int], trump: int, rules: Rules, best: int | None = None) -> int:
    """Cards a player cannot hold after playing ``card`` legally on ``prior`` (rules 2–3);
    ``best`` is the card winning ``prior``, when the caller knows it."""
    if not prior:
        return 0
    led = prior[0] >> 4
    if best is None:
        best = prior[winning(prior, trump)]
    suit = card >> 4
    out = 0
    if suit == led:
        if best >> 4 == led and rules.must_beat != "none":
            target = best if rules.must_beat == "winner" else next(c for c in reversed(prior) if c >> 4 == led)
            if not beats(card, target, trump):
                out |= suit_mask(led) & above(target)
        return out
    out |= suit_mask(led)
    if led == trump:
        return out
    if suit == trump:  # with or without a duty to trump, a trump played must over-trump (rule 3)
        if rules.must_overtrump and best >> 4 == trump and not beats(card, best, trump):
            out |= suit_mask(trump) & above(best)
        return out
    if not rules.must_trump:
        return out
    if rules.trump_when_cannot_win == "must" or best >> 4 != trump:
        out |= suit_mask(trump)
    else:
        out |= suit_mask(trump) & above(best)
    return out


def _feasible(unseen: int, counts, forbidden, skip: int) -> bool:
    """Hall's condition: every group of opponents can be given its cards at once.

    Opponents with the same allowed cards are merged; an opponent that may hold any
    unseen card satisfies every group it is in, so only the others are enumerated, and
    only when two short cuts (each exact where it answers) do not settle it.  Cards a
    seat is known to hold (above bit HOLD) are given to it first.  The compiled search
    (``_search.feasible``) does the same; tests/test_feasible.py holds both to dealing
    the cards every way."""
    held = 0
    for f in forbidden:
        held |= f >> HOLD
    if held:
        counts = list(counts)
        for i, f in enumerate(forbidden):
            mine = f >> HOLD
            if mine:
                if mine & f or mine & ~unseen:
                    return False
                counts[i] -= mine.bit_count()
                if counts[i] < 0:
                    return False
        unseen &= ~held
    groups: dict[int, int] = {}
    total = 0
    for i, n in enumerate(counts):
        if i != skip and n > 0:
            total += n
            allowed = unseen & ~forbidden[i]
            groups[allowed] = groups.get(allowed, 0) + n
    if unseen.bit_count() < total:
        return False
    # Enough, and exact: every seat still to be dealt to allows as many cards as all of
    # them need (each set of seats allows at least any one member's cards).
    if all(a.bit_count() >= total for a in groups):
        return True
    items = [(a, n) for a, n in groups.items() if a != unseen]
    for a, n in items:
        if a.bit_count() < n:
            return False
    k = len(items)
    if k < 2:
        return True
    # Enough, and exact: with the groups in order of allowed cards, fewest first, each
    # allowing at least all the cards it and those before it need, every set of groups
    # allows at least its last member's cards, which are at least what the set needs.
    need = 0
    for size, n in sorted((a.bit_count(), n) for a, n in items):
        need += n
        if size < need:
            break
    else:
        return True
    unions = [0] * (1 << k)
    needs = [0] * (1 << k)
    for sub in range(1, 1 << k):
        low = sub & -sub
        j = low.bit_length() - 1
        rest = sub ^ low
        unions[sub] = unions[rest] | items[j][0]
        needs[sub] = needs[rest] + items[j][1]
        if unions[sub].bit_count() < needs[sub]:
            return False
    return True


def top_trumps(hand: int, captors: int, trump: int) -> int:
    """P's trumps minus the most of them that higher ``captors`` could each capture once
    (a maximum matching, greedy from the top: RULES.md §4 `top-trumps`)."""
    mine = hand & suit_mask(trump)
    free = sure = 0
    for rank in range(14, 1, -1):
        bit = 1 << (trump * 16 + rank)
        if captors & bit:
            free += 1
        elif mine & bit:
            if free:
                free -= 1
            else:
                sure += 1
    return sure


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


class Undecided(Exception):
    """The search went past its node budget."""


@dataclass(frozen=True, slots=True)
class Unsettled:
    """``judge``'s answer when the search stops at its budget: no cinch is claimed and
    none is ruled out (the audit reports the check as undecidable, never a finding)."""
    nodes: int

    def __bool__(self) -> bool:
        return False


class Solver:
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

    def _lower(self, hand, unseen, counts, forb, trick) -> int:
        """Tricks P wins for sure by simple counting: a lower bound of the search."""
        if not trick:
            return self._lead_lower(hand, unseen, counts, forb)
        trumps = suit_mask(self.trump)
        held = [unseen & ~forb[j] if n else 0 for j, n in enumerate(counts)]
        played = {j for j, _ in trick}
        captors = 0
        if self.me not in played:  # trumps in this trick can capture only P's card in it
            for j, c in trick:
                captors |= (1 << c) & trumps
        for h in held:
            captors |= h & trumps
        sure = top_trumps(hand, captors, self.trump)
        # A card of P that wins this trick whatever the seats still to play hold gives
        # P the trick and the lead with the rest of its hand.
        later = 0
        for j, h in enumerate(held):
            if j not in played:
                later |= h
        cards = [c for _, c in trick]
        w = winning(cards, self.trump)
        best = cards[w]
        if self.me in played:
            mine = [best] if trick[w][0] == self.me else []
            rest = [hand]
        else:
            ok = legal(hand, cards, self.trump, self.rules).cards
            mine = [c for c in cards_of(ok) if beats(c, best, self.trump)]
            rest = [hand & ~(1 << c) for c in mine]
        for c, h in zip(mine, rest):
            beaters = suit_mask(c >> 4) & above(c)
            if c >> 4 != self.trump:
                beaters |= trumps
            if not later & beaters:
                sure = max(sure, 1 + self._lead_lower(h, unseen, counts, forb))
        return sure

    def _captors(self, unseen, counts, forb) -> int:
        """The trumps some opponent may still hold."""
        return _possible(unseen, counts, forb) & suit_mask(self.trump)

    def _lead_lower(self, hand, unseen, counts, forb) -> int:
        """Sure tricks for P on lead by counting, the better of two plans.

        Any order: each of P's trumps loses only to a higher trump, each of which captures
        once (``top_trumps``).  Cash first: P leads its trumps above every trump an
        opponent may hold (each such lead makes every opponent holding a trump play one,
        so at most the highest u - b of the u trumps they may hold are left), then its
        plain cards that no opponent may beat in their suit (bosses): either all win and P
        keeps the lead, or an opponent ruffs one, spending a trump (the lowest, the least
        loss to the adversary), after which only the trump count is sure — or, when that
        ruff spent the last trump an opponent may hold and P keeps one, every trump and
        boss P has left (P wins the next trick by following with a boss or trumping, and
        keeps the lead)."""
        trumps = suit_mask(self.trump)
        anything = _possible(unseen, counts, forb)
        captors = anything & trumps
        sure = top_trumps(hand, captors, self.trump)
        mine = hand & trumps
        bosses = mine & ~((1 << captors.bit_length()) - 1)
        b = bosses.bit_count()
        kept = captors
        for _ in range(min(b, captors.bit_count())):
            kept &= kept - 1  # drop the lowest
        rest = hand & ~bosses
        plain = 0
        for c in cards_of(hand & ~trumps):
            if not anything & suit_mask(c >> 4) & above(c):
                plain += 1
        after = top_trumps(rest, kept, self.trump)
        if plain and kept:
            if kept & (kept - 1) or not rest & trumps:
                ruffed = top_trumps(rest, kept & (kept - 1), self.trump)
            else:  # the ruff spent the last trump: P's trumps and other bosses all win
                ruffed = (rest & trumps).bit_count() + plain - 1
            after = min(plain + after, ruffed)
        elif plain:
            after += plain
        return max(sure, b + after)

    def _players(self, counts, trick) -> int:
        """How many play to the current trick: P and every opponent still holding cards."""
        played = {s for s, _ in trick}
        return sum(1 for i, c in enumerate(counts) if i == self.me or c > 0 or i in played)

    def _next(self, last, counts, trick):
        played = {s for s, _ in trick}
        n = len(counts)
        i = last
        for _ in range(n):
            i = (i + 1) % n
            if i not in played and (i == self.me or counts[i] > 0):
                return i
        return self.me

    def _finish(self, hand, unseen, counts, forb, trick, k):
        cards = [c for _, c in trick]
        i = winning(cards, self.trump)
        w = trick[i][0]
        hand, unseen, forb, _ = _canon(hand, unseen, forb)
        if w == self.me:
            return self._p(hand, unseen, counts, forb, (), k - 1)
        if hand.bit_count() < k:
            return False
        # an opponent won: the adversary leads the next trick
        if top_trumps(hand, self._captors(unseen, counts, forb), self.trump) >= k:
            return True
        leaders = [w]
        if self.relaxed:
            forb = self._relax(hand, unseen, forb)  # P's card in the trick no longer counts
            if self._blank(hand) >> cards[i] & 1:
                # ranks of a suit P lacks are blank: any seat that followed it may have won
                leaders = [j for j, c in trick if c >> 4 == cards[i] >> 4]
        return all(self._against(((hand, unseen & ~(1 << c), cnt, fb, ((w, c),), k)
                                  for c, cnt, fb in self._adversary(w, hand, unseen, counts, forb, ())))
                   for w in leaders)

    def _held(self, hand, trick) -> int:
        """P's hand and P's card in this trick."""
        for j, c in trick:
            if j == self.me:
                return hand | 1 << c
        return hand

    def _blank(self, hand) -> int:
        """The plain suits P holds no card of (P never will again)."""
        out = 0
        for suit in range(4):
            m = suit_mask(suit)
            if suit != self.trump and not hand & m:
                out |= m
        return out

    def _relax(self, hand, unseen, forb):
        """The relaxed game (a stronger adversary, so a cinch there is a cinch): in the
        suits P lacks, ranks are blank — no seat is known to lack some of a suit's cards
        and not all (it may hold any), following shows nothing, and any seat that
        followed may win the trick.  Only voids stay known."""
        blank = self._blank(hand)
        if not blank:
            return forb
        out = []
        for f in forb:
            for suit in range(4):
                m = suit_mask(suit) & blank
                if m and f & m and unseen & m & ~f:
                    f &= ~m
            out.append(f)
        return tuple(out)

    def _reveal(self, c, cards, best, blank) -> int:
        """``reveal``, except that following a blank suit (relaxed game) shows nothing."""
        if cards and c >> 4 == cards[0] >> 4 and blank >> c & 1:
            return 0
        return reveal(c, cards, self.trump, self.rules, best)

    def _against(self, children) -> bool:
        """Does P succeed after every adversary move?  In the full search each move is first
        probed against the restricted adversary (cheap, and a loss there is a loss), so a
        refutation anywhere among the moves is found before any move is searched in full."""
        if self.width is not None:
            return all(self._p(*child) for child in children)
        children = list(children)
        saved = self._memo
        self.width, self._memo = 1, self._probes[self.relaxed]
        try:
            lost = any(not self._p(*child) for child in children)
        finally:
            self.width, self._memo = None, saved
        return not lost and all(self._p(*child) for child in children)

    def _adversary(self, seat, hand, unseen, counts, forb, trick):
        """The cards the adversary can give ``seat`` to play, most dangerous first,
        with the counts and constraints after each (checked lazily, as they are tried)."""
        cards = [c for _, c in trick]
        pool = unseen & ~forb[seat]
        blank = self._blank(self._held(hand, trick)) if self.relaxed else 0
        choices = _choices(pool, hand | _mask(cards), unseen, forb, counts, seat)
        if blank:  # a blank suit's lowest card stands for the others, but for a card the seat must hold
            held = forb[seat] >> HOLD
            choices = [c for c in choices if not blank >> c & 1 or held >> c & 1]
            for suit in range(4):
                m = pool & blank & suit_mask(suit) & ~held
                if m:
                    choices.append((m & -m).bit_length() - 1)
        cnt = counts[:seat] + (counts[seat] - 1,) + counts[seat + 1:]
        key, shows = self._danger(seat, trick, hand, unseen, forb, counts)
        best = cards[winning(cards, self.trump)] if cards else None
        if shows:
            moves = sorted(((key(c, extra), c, extra) for c in choices
                            for extra in (self._reveal(c, cards, best, blank),)))
        else:  # what each move shows is needed only for the moves tried
            moves = sorted((key(c, 0), c, -1) for c in choices)
        tried = 0
        for _, c, extra in moves:
            if extra < 0:
                extra = self._reveal(c, cards, best, blank)
            rest = unseen & ~(1 << c)
            live = rest | rest << HOLD
            fb = tuple(f & live for f in forb[:seat] + (forb[seat] | extra,) + forb[seat + 1:])
            if _feasible(rest, cnt, fb, -1):
                yield c, cnt, fb
                tried += 1
                if self.width is not None and tried >= self.width:
                    return

    def _keeper(self, unseen, forb, counts) -> int:
        """The first opponent that may still hold a trump (policies 2 and 3 keep them there)."""
        trumps = unseen & suit_mask(self.trump)
        return next((j for j, n in enumerate(counts) if n and trumps & ~forb[j]), -1)

    def _danger(self, seat, trick, hand, unseen, forb, counts):
        """Move order for the adversary, most dangerous to P first: a key of (card,
        cards the move shows the seat cannot hold), and whether it reads the latter.

        Policy 0: lead high in a plain suit P must follow; once P has played, one
        opponent beats P's card as cheaply as it can and the others play what shows
        the least (a low trump under P's rather than a void that gives up every trump
        kept to capture P's later ones).  Policy 1: lead and follow with high trumps,
        to draw P's trumps early.  Policy 2: the trumps stay in one hand (``_keeper``),
        which leads them high; the other seats capture when they can, else show void.
        Policy 3: as 2, but only the keeper captures (the others keep their trumps out
        of P's way, so the keeper's stay for P's lower ones)."""
        trump = self.trump
        trumps = unseen & suit_mask(trump)
        cards = [c for _, c in trick]

        def cost(extra):
            return (extra & trumps).bit_count(), (extra & unseen).bit_count()
        if not cards and self.policy in (1, 2, 3):  # draw P's trumps with high ones
            return (lambda c, extra: (c >> 4 != trump, -(c & 15))), False
        if self.policy == 1:
            best = cards[winning(cards, trump)]
            return (lambda c, extra: (not beats(c, best, trump), -(c & 15))), False
        if not cards:
            def lead(c, extra):
                mine = hand & suit_mask(c >> 4)
                if c >> 4 != trump and mine and c > mine.bit_length() - 1:
                    return (0, -(c & 15))  # P must follow under it
                return (1 if c >> 4 != trump and not mine else 2, c & 15)
            return lead, False
        # policy 2 keeps the trumps together in one hand: the other seats show void
        keep_apart = self.policy in (2, 3) and seat != self._keeper(unseen, forb, counts)
        if keep_apart and self.policy == 3:  # only the keeper captures
            return (lambda c, extra: (c >> 4 == trump, c & 15)), False
        w = winning(cards, trump)
        if trick[w][0] == self.me:
            best = cards[w]

            if keep_apart:
                return (lambda c, extra: (not beats(c, best, trump), c >> 4 == trump, c & 15)), False

            def capture(c, extra):
                if beats(c, best, trump):
                    return (0, c >> 4 == trump, c & 15)
                return (1, cost(extra), c >> 4 == trump, c & 15)
            return capture, True
        if any(j == self.me for j, _ in trick):
            if keep_apart:
                return (lambda c, extra: (c >> 4 == trump, c & 15)), False
            return (lambda c, extra: (cost(extra), c >> 4 == trump, c & 15)), True
        return (lambda c, extra: (c >> 4 == trump, c & 15)), False


def _possible(unseen: int, counts, forb) -> int:
    """The unseen cards some opponent still holding cards may hold."""
    out = 0
    for j, n in enumerate(counts):
        if n:
            out |= unseen & ~forb[j]
    return out


def _packing(live: int) -> tuple[int, list]:
    """Moves (from bit, to bit) that bring each suit's ``live`` cards up to its top ranks,
    their order kept, and the mask of the bits that move."""
    moves = []
    src = 0
    for suit in range(4):
        m = live & suit_mask(suit)
        n = m.bit_count()
        if m == ((1 << n) - 1) << (suit * 16 + 15 - n):
            continue  # already at the top
        d = suit * 16 + 14
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            if c != d:
                moves.append((c, d))
                src |= 1 << c
            d -= 1
    return src, moves


def _moved(x: int, src: int, moves) -> int:
    if not x & src:
        return x
    y = x & ~src
    for c, d in moves:
        if x >> c & 1:
            y |= 1 << d
    return y


def _moved_constraint(f: int, src: int, moves) -> int:
    if f >> HOLD:
        return _moved(f & LOW, src, moves) | _moved(f >> HOLD, src, moves) << HOLD
    return _moved(f, src, moves)


def _canon(hand: int, unseen: int, forb: tuple, keep=()) -> tuple:
    """The same position with each suit's live cards (P's, the unseen and the cards
    ``keep`` of the trick) moved up to its top ranks, their order kept; returns hand,
    unseen, forb and the kept cards moved.  Played cards no longer matter, and every
    rule compares only live cards, so the two positions are the same game; positions
    that differ only in which of such cards fell meet in the memo."""
    src, moves = _packing(hand | unseen | _mask(keep))
    if not moves:
        return hand, unseen, forb, tuple(keep)
    return (_moved(hand, src, moves), _moved(unseen, src, moves), tuple(_moved_constraint(f, src, moves) for f in forb),
            tuple(_moved(1 << c, src, moves).bit_length() - 1 for c in keep))


def _distinct(options: int, unseen: int) -> list[int]:
    """P's options, highest first, one per group of cards that no unseen card separates
    (playing any card of such a group is the same)."""
    out: list[int] = []
    prev = -1
    for c in reversed(cards_of(options)):
        if prev >= 0 and c >> 4 == prev >> 4 and not unseen & ((1 << prev) - (2 << c)):
            continue  # equivalent to the card kept above it
        out.append(c)
        prev = c
    return out


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _choices(pool: int, fixed: int, unseen: int, forb, counts, seat) -> list[int]:
    """The adversary's cards worth trying for ``seat``.  Unplayed cards of a suit that no
    card of ``fixed`` (P's hand, the trick) separates, and that every opponent may or
    may not hold alike, form a run; playing any card of a run inside it is the same as
    playing its lowest or its highest, so only those two are tried."""
    others = [forb[j] & pool for j in range(len(counts)) if j != seat and counts[j] > 0 and forb[j] & pool]
    breakers = (fixed | unseen) & ~pool
    held = forb[seat] >> HOLD  # a card the seat is known to hold is a run of its own
    out: list[int] = []
    lo = prev = -1
    prev_sig = 0
    m = pool
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        sig = held >> c & 1
        for f in others:
            sig = (sig << 1) | (f >> c & 1)
        if lo >= 0 and c >> 4 == prev >> 4 and sig == prev_sig and not breakers & (low - (2 << prev)):
            prev = c
            continue
        if lo >= 0:
            out.append(lo)
            if prev != lo:
                out.append(prev)
        lo = prev = c
        prev_sig = sig
    if lo >= 0:
        out.append(lo)
        if prev != lo:
            out.append(prev)
    return out


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
    """Cap the memory of the cinch search's memos (``--cinch-memory``; default about 256 MB
    compiled, 800 MB in Python): past it they start afresh, which costs time, never an answer."""
    Solver.MEMO_ENTRIES = max(1, megabytes * 1_000_000 // ENTRY_BYTES)
    if _search:
        _search.memory(megabytes)


def others_out_of_trump(pos: Position) -> bool:
    """P knows no other player holds a trump: none unseen, or every opponent's plays
    showed it holds none of the unseen ones (Wikipedia's "play to win" on lead)."""
    return not _possible(pos.unseen, pos.counts, pos.forbidden) & suit_mask(pos.trump)  # P's count is 0


def out_of_reach(pos: Position) -> int:
    """The unseen cards no opponent still holding cards can hold, from what its plays
    revealed: out of play as far as P knows (RULES.md §4)."""
    return pos.unseen & ~_possible(pos.unseen, pos.counts, pos.forbidden)


def _why(pos: Position, won: int, sure: int) -> str:
    trumps = pos.hand & suit_mask(pos.trump)
    top = " ".join(card_str(c) for c in reversed(cards_of(trumps)))
    return f"won {won} trick{'s' if won != 1 else ''}, {sure} sure with {top}"


def position(know, p: str, t: int, prior: list[int]) -> Position | None:
    """P's view before playing to trick t (RULES.md §4), or None when the record does not
    show it: P's whole hand, every card played so far and the order of play known.

    What an opponent's play revealed is kept only while the record does not prove that
    play illegal (a card the same player held then, the up-card included), and not from
    a trick the replay found may be written out of the order of play; none after a trick
    whose cards the next lead contradicts (``Knowledge.suspect``); the up-card
    can be in no other opponent's hand, and is in the dealer's while it is known kept."""
    hand = know.whole_hand(p, t)
    trump = know.trump
    seats = know.cycle
    if hand is None or trump is None or not seats or p not in seats or any(k < t for k in know.suspect):
        return None
    index = {s: i for i, s in enumerate(seats)}
    counts = [know.rules.cards] * len(seats)
    forb = [0] * len(seats)
    played = 0
    for k, trick in enumerate(know.tricks[:t], 1):
        plays = trick.plays if k < t else trick.plays[:len(prior)]
        seen: list[int] = []
        best = 0  # the card winning the trick so far
        for q, c in plays:
            if not c & 15 or q not in index:
                return None
            i = index[q]
            if q != p and seen and k not in know.doubted:
                shown = reveal(c, seen, trump, know.rules, best)
                if shown:
                    held, suits = know.proven_held(q, k)
                    if not (shown & held or any(shown & suit_mask(s) == suit_mask(s) for s in suits)):
                        forb[i] |= shown
            counts[i] -= 1
            played |= 1 << c
            if not seen or beats(c, best, trump):
                best = c
            seen.append(c)
    unseen = FULL_DECK & ~played & ~hand & ~know.out_of_play(p)
    holds = [0] * len(seats)
    up = know.up
    if up is not None and unseen >> up & 1 and not know.contested >> up & 1:
        dealer = index.get(know.up_player)
        if know.up_player is not None:  # with no dealer known, the up-card may be in any hand
            for j in range(len(seats)):
                if j != dealer:
                    forb[j] |= 1 << up  # only the dealer, who draws last, can have the up-card
            if dealer is not None and know.keeps_up(t):
                holds[dealer] = 1 << up
    me = index[p]
    counts[me] = 0
    cur = know.tricks[t - 1].plays[:len(prior)] if t - 1 < len(know.tricks) else ()
    trick = tuple((index[q], c) for q, c in cur)
    return Position(hand, unseen, trump, tuple(seats), p, tuple(counts),
                    tuple(f & unseen for f in forb), trick, tuple(holds))


@lru_cache(maxsize=16)
def cinch_judge(rules: Rules, nodes: int = NODES):
    """The replay's hook: (knowledge, player, trick, tricks won, prior cards) → Cinch,
    Unsettled or None; ``nodes`` is the exact search's budget (0: none, exact however long).
    One hook per rules and budget, its answers remembered across hands: a judgement
    depends on nothing else (each search starts with an empty memo)."""
    if rules.cinch == "off":
        return None

    @lru_cache(maxsize=256)
    def _judge(pos: Position, won: int):
        return judge(pos, won, rules, Solver(rules, nodes or None))

    def hook(know, p, t, won, prior):
        pos = position(know, p, t, prior)
        return Unjudged() if pos is None else _judge(pos, won)

    return hook
