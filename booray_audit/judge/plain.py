"""The replay of a plain, complete record: an accelerator, not a definition.

``replay.HandReplay`` defines how a hand is audited.  An online game's log writes most
hands in full: `Seats`, every seated player's deal, each declaration in turn from the
dealer's left with its discards and draws by card, and the tricks numbered in order,
each led by the winner of the one before, every active player's card written in
clockwise order.  In such a hand every player's cards are known at every trick and
nothing is in doubt, so most of what the full replay works out (which facts the
record contradicts, what a suit-only card was, which plays prove a void, whether a
reshuffle came back) has one answer.  ``plain_replay`` checks that a hand is plain,
then checks that every play is legal (``engine.legal``: every card of the hand is
known) and judges the cinch duties with the full replay's own checks
(``plays.PlayChecks``) and the same hook on the same positions (``cinch.position.position``),
over ``Plain``, which answers what ``knowledge.Knowledge`` answers for such a record.

It returns the Replay the full replay gives, or None: for a hand that is not plain,
and for a hand with any finding or any check left undecidable (the full replay then
gives them, with their evidence).  Its Replay carries no ``kept`` evidence and no
``know``: only `replay` and the rulings on disputes read those, and they take the full
replay (a hand with a `Dispute` line is not plain).  tests/test_plain.py holds it to
HandReplay on every corpus and on generated and mutated hands.
"""

from __future__ import annotations

from functools import lru_cache

from .. import record as r
from ..cards import mask_of
from ..cinch.compiled import _duties, _search
from ..rules.engine import legal, winning
from .knowledge import Knowledge
from .plays import _best
from .findings import Replay
from .replay import HandReplay
from ..rules.profiles import Rules

# events a plain hand may carry besides its deals, up-card, declarations and tricks: the
# table's claims, which the settlement checks and the replay only reads names from
_CLAIMS = (r.TricksClaim, r.NetClaim, r.PotClaim, r.Ante)


if _search is not None:  # the records the compiled walk reads
    _search.setup_walk(r.Trick, r.Deal, r.Decision, r.Up, r.Dealer, r.TricksClaim, r.NetClaim, r.PotClaim, r.Ante)


class _NotPlain(Exception):
    """The hand needs the full replay."""


class Plain:
    """What ``knowledge.Knowledge`` knows of a plain hand, for the play checks and the
    cinch's positions: every active player's hand after the draw (``post``), the discards
    each knows out of play (``known_out``) and the tricks; every card known, nothing in
    doubt."""

    suspect: frozenset[int] = frozenset()
    doubted: frozenset[int] = frozenset()
    contested = 0
    _unsure: dict[str, list[int]] = {}  # no card played unseen

    def __init__(self, rules: Rules, trump: int, active: list[str], tricks: list[r.Trick], post: dict[str, int],
                 known_out: dict[str, int], up: int, dealer: str, dealer_stood: bool):
        self.rules, self.trump, self.active = rules, trump, active
        self.cycle = active  # in the order of `Seats`
        self.tricks = tricks
        self.post, self.known_out = post, known_out
        self.up, self.up_player = up, dealer
        self._keeps = dealer_stood  # the dealer played and drew nothing: kept the up-card
        self.by_trick = {p: {} for p in active}
        for t, trick in enumerate(tricks, 1):
            for p, c in trick.plays:
                self.by_trick[p][t] = c
        # per player, index t: the cards played before trick t (as Knowledge._before)
        self._before: dict[str, list[int]] = {}
        for p, mine in self.by_trick.items():
            before, m = [0, 0], 0
            for t in range(1, len(tricks) + 1):
                m |= 1 << mine[t]
                before.append(m)
            self._before[p] = before

    def numbered(self, t: int) -> int:
        return t

    def whole_hand(self, p: str, t: int) -> int:
        return self.post[p] & ~self._before[p][t]

    def held_besides(self, p: str, t: int) -> tuple[int, tuple[int, ...], bool]:
        own = self.by_trick[p].get(t)
        return self.post[p] & ~self._before[p][t] & ~(1 << own if own is not None else 0), (), True

    # Knowledge's own answers, from the facts above
    proven_held = Knowledge.proven_held
    equivalent = Knowledge.equivalent
    separating = Knowledge.separating

    def open_discards(self, p: str) -> tuple[int, int]:
        return 0, 0  # every discard written

    def keeps_up(self, t: int) -> bool:
        return self._keeps and not any(c == self.up for k, c in self.by_trick[self.up_player].items() if k < t)

    def out_of_play(self, p: str) -> int:
        """P's discards, unless a reshuffle after them may have brought them back."""
        return self.known_out.get(p, 0)

    def source(self, p: str, t: int, card, suit: int) -> str:
        raise _NotPlain  # asked only for a finding's evidence: the full replay gives it


def plain_replay(hand: r.Hand, rules: Rules, seats: list[str], dealer: str | None, cinch) -> Replay | None:
    """The Replay ``HandReplay(hand, rules, seats, dealer, cinch).run()`` gives, for a
    plain hand without findings or undecidable checks; None for any other.  The compiled
    walk answers first where it can (``_compiled``); a hand it leaves, the Python walk."""
    if _search is not None:
        rep = _compiled(hand, rules, seats, dealer, cinch)
        if rep is not None:
            return rep
    try:
        return _Walk(hand, rules, seats, dealer, cinch).walk()
    except _NotPlain:
        return None


def _compiled(hand: r.Hand, rules: Rules, seats: list[str], dealer: str | None, cinch) -> Replay | None:
    """``_Walk.walk`` compiled (``_search.walk_hand``, cinch/_walk.c): the Replay of a plain
    hand it finds clean, else None.  It judges each cinch by the compiled search's first
    try (``cinch.first``), so it takes no hook but cinch_judge's own, nor the top-trumps
    count; a position that try leaves open, it leaves to the Python walk."""
    judged = cinch is not None and rules.cinch != "off"
    if (judged and not (rules.cinch == "sure-tricks" and hasattr(cinch, "first")) or rules.lead != "winner"
            or rules.trump_card != "dealer" or rules.reshuffle == "together"):
        return None
    got = _search.walk_hand(hand, seats, dealer, *_walk_rules(rules, len(seats), judged,
                                                              cinch.first if judged else 0))
    if got is None:
        return None
    trump, active, passed, discards, won, plays = got
    return Replay(hand.number, dealer, trump, list(seats), active, passed, discards, won, True, plays=plays)


_WALK_RULES: dict = {}  # (id(rules), players, judged, first) -> (rules, walk_hand's arguments)


def _walk_rules(rules: Rules, players: int, judged: bool, first: int) -> tuple:
    """walk_hand's arguments after the hand, seats and dealer: the same for every hand of a
    session, so kept by the rules object (held here, so that its id is not reused)."""
    key = (id(rules), players, judged, first)
    got = _WALK_RULES.get(key)
    if got is None or got[0] is not rules:
        if len(_WALK_RULES) >= 64:
            _WALK_RULES.clear()
        got = _WALK_RULES[key] = (rules, (
            rules.cards, _limits(rules, players), rules.reshuffle == "folded-first", *_duties(rules), judged,
            rules.cinch_last, rules.lead_trump_when_others_void, rules.need, first))
    return got[1]


@lru_cache(maxsize=64)
def _limits(rules: Rules, players: int) -> tuple[int, ...]:
    """The most cards each place from the dealer's left may discard."""
    return tuple(rules.discard_limit(players, k) for k in range(players))


class _Walk(HandReplay):
    """The full replay's cinch checks, over ``Plain``; a finding stops it."""

    def add(self, *args, **kw):
        raise _NotPlain

    def walk(self) -> Replay:
        rules, seats, dealer = self.rules, self.seats, self.dealer
        if not seats or dealer not in seats or len(set(seats)) != len(seats):
            raise _NotPlain
        if rules.lead != "winner" or rules.trump_card != "dealer" or rules.reshuffle == "together":
            raise _NotPlain  # the plain walk knows only the winner's lead and the dealer's up-card
        deals: dict[str, r.Deal] = {}
        decisions: list[r.Decision] = []
        tricks: list[r.Trick] = []
        up = None
        dealers = 0
        seated = set(seats)
        counted: list[str] = []  # players the table's `Tricks` line gives a trick
        for e in self.hand.events:
            kind = type(e)
            if kind is r.Trick:
                tricks.append(e)
            elif kind is r.Deal:
                if e.player in deals:
                    raise _NotPlain
                deals[e.player] = e
            elif kind is r.Decision:
                decisions.append(e)
            elif kind is r.Up and up is None:
                up = e.card
            elif kind is r.Dealer and e.player == dealer and not dealers:
                dealers = 1
            elif kind in _CLAIMS:
                if not all(name in seated for name, _ in r.naming((e,))):
                    raise _NotPlain  # a name not seated: an unknown-player error
                if kind is r.TricksClaim:
                    counted += [p for p, won in e.counts if won > 0]
            else:
                raise _NotPlain  # a dispute, a `Trump` line, a second `Up` or `Dealer`, ...
        n = rules.cards
        if up is None or not up & 15 or deals.keys() != seated or len(tricks) != n:
            raise _NotPlain
        dealt: dict[str, int] = {}
        every = 0
        for p, d in deals.items():
            m = mask_of(d.cards)
            if len(d.cards) != n or m.bit_count() != n or m & every or any(not c & 15 for c in d.cards):
                raise _NotPlain
            dealt[p] = m
            every |= m
        if not dealt[dealer] >> up & 1:
            raise _NotPlain  # the up-card is the dealer's
        trump = up >> 4
        # each seated player's one declaration, in turn from the dealer's left
        i = seats.index(dealer)
        if [d.player for d in decisions] != seats[i + 1:] + seats[:i + 1]:
            raise _NotPlain
        drawn: dict[str, int] = {}
        discarded: dict[str, int] = {}
        discards: dict[str, int | None] = {}
        passed: list[str] = []
        for d in decisions:
            p = d.player
            if d.action == "pass":
                if d.discards is not None or d.draws is not None or p == dealer and up & 15 == 14:
                    raise _NotPlain  # the dealer may not pass with an Ace up (dealer-passed)
                passed.append(p)
                continue
            if d.action != "play":
                raise _NotPlain
            if d.discards == 0 and d.draws is None:
                gone = got = 0
            elif isinstance(d.discards, tuple) and isinstance(d.draws, tuple) and d.discards:
                gone, got = mask_of(d.discards), mask_of(d.draws)
                count = len(d.discards)
                if (len(d.draws) != count or gone.bit_count() != count or got.bit_count() != count
                        or count > rules.discard_limit(len(seats), (seats.index(p) - i - 1) % len(seats))
                        or gone & ~dealt[p] or any(not c & 15 for c in d.discards + d.draws)):
                    raise _NotPlain
            else:
                raise _NotPlain
            discards[p] = gone.bit_count()
            discarded[p], drawn[p] = gone, got
        drawing = [p for p in seats[i + 1:] + seats[:i + 1] if p in drawn]  # who drew, in turn
        # the stock (docs/rules.md, the deal and the draw): past its end the discards of those who drew before are
        # shuffled into a new one (Knowledge._reshuffles): a drawn card may be one of those,
        # and the player who discarded it no longer knows it out of play (``forgotten``)
        stock, pile, last = 52 - len(seats) * n, 0, -1
        if rules.reshuffle == "folded-first" and passed and sum(discards[p] for p in drawing) > stock:
            raise _NotPlain  # the folded hands may have come back before the discards
        for j, p in enumerate(drawing):
            if discards[p] > stock:
                stock, pile, last = stock + pile - discards[p], 0, j
            else:
                stock -= discards[p]
            pile += discards[p]
        forgotten = set(drawing[:last]) if last >= 0 else set()
        thrown = 0  # every discard
        for m in discarded.values():
            thrown |= m
        taken = 0
        for p in drawing:
            got = drawn[p]
            back = got & every  # dealt to someone: only a discard of another's, come back
            if got & taken or back and (last < 0 or back & ~(thrown & ~discarded[p])):
                raise _NotPlain
            taken |= got
        post = {p: dealt[p] & ~discarded[p] | drawn[p] for p in drawing}
        active = [p for p in seats if p in post]
        if len(active) < 2 or any(p in passed for p in counted):
            raise _NotPlain  # a pass the table's count contradicts: who played is in doubt
        # the tricks: numbered in order, each from the winner of the one before, clockwise,
        # every play legal (rules 1-3 as engine.legal defines them, from the player's whole
        # hand: a play PlayChecks._check finds no breach in; else the full replay gives it)
        leader = next(p for p in seats[i + 1:] + seats[:i + 1] if p in post)
        hands = dict(post)
        winners = []
        for t, trick in enumerate(tricks, 1):
            if trick.number != t or trick.by_seat or trick.loose or trick.seat_cards:
                raise _NotPlain
            j = active.index(leader)
            turn = active[j:] + active[:j]
            if [p for p, _ in trick.plays] != turn:
                raise _NotPlain
            cards = [c for _, c in trick.plays]
            for seq, (p, c) in enumerate(trick.plays):
                if not legal(hands[p], cards[:seq], trump, rules).cards >> c & 1:
                    raise _NotPlain
                hands[p] &= ~(1 << c)
            leader = turn[winning(cards, trump)]
            winners.append(leader)
        known_out = {p: 0 if p in forgotten else m for p, m in discarded.items()}
        know = Plain(rules, trump, active, tricks, post, known_out, up, dealer,
                     discards.get(dealer) == 0 and dealer in post)
        # each play's cinch duties, judged as PlayChecks._check judges them
        cinch = self.cinch is not None and rules.cinch != "off"
        won = {p: 0 for p in active}
        plays = []
        for t, (trick, winner) in enumerate(zip(tricks, winners), 1):
            cards = [c for _, c in trick.plays]
            before = dict(won)
            for seq, (p, c) in enumerate(trick.plays):
                prior = cards[:seq]
                if not seq:
                    self._lead_checks(t, p, c, trump, know, before, {})
                elif cinch:
                    self._cinch_follow(t, p, c, prior, _best(prior, trump), trump, know, before, True, {})
                if self.undecidable:
                    raise _NotPlain
                plays.append((t, seq, p, c, p == winner))
            won[winner] += 1
        return Replay(self.n, dealer, trump, list(seats), active, passed, discards, won, True, plays=plays)
