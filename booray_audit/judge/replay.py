"""Replay one hand through the engine: tricks won, record errors and play findings.

Everything here follows docs/writing-hands.md, what a gap in the record hides: a finding needs a card the record proves
the player held, and names it; what the record cannot show is skipped.
"""

from __future__ import annotations

from .. import record as r
from ..cards import card_str
from ..cinch.position import Contradicted, Unjudged
from ..cinch.solver import Unsettled
from ..rules.profiles import Rules
from .declared import Declared, _appearing, _misspelt, _strays, _up_apart
from .findings import Finding, Replay, Undecidable
from .knowledge import Knowledge
from .plays import PlayChecks
from .recalls import Recalls
from .readings import led_ways, other_ways, pinned_ways, tallies, tally, winners_by_trick
from .walk import TrickWalk

UNJUDGED = Unjudged()


class HandReplay(PlayChecks, Declared, TrickWalk, Recalls):
    """Walks one hand; ``run()`` returns a ``Replay``."""

    def __init__(self, hand: r.Hand, rules: Rules, seats: list[str], dealer: str | None,
                 cinch=None, left_out: bool = False, unled: frozenset[int] | set[int] = frozenset()):
        self.hand, self.rules, self.n = hand, rules, hand.number
        self.seats, self.dealer = list(seats), dealer
        self.cinch = cinch  # callable(knowledge, player, trick, tricks_won) -> Cinch | None
        self.findings: list[Finding] = []
        self.undecidable: list[Undecidable] = []
        self.skip: set[str] = set()   # players whose holdings the record contradicts
        self.unseated: set[str] = set()  # names not in `Seats`
        self.bad_disputes: list[r.Dispute] = []
        self.skip_all = False
        self.trumps: set[int] = set()  # the suits a record that names two trumps may mean
        self.know: Knowledge | None = None
        self.trial = False  # checking a reading of a trick the record may not mean: no cinch
        self.left_out = left_out  # a trick may be left out before any unnumbered one (Knowledge)
        self.unled = unled  # the places of seat-order tricks read as placing no card (Knowledge)
        self.on_table: tuple = ()  # the plays of the trick being checked (``_plays``)
        # the tricks won before each trick (place), kept only where a card was taken back
        self.won_at: dict[int, dict[str, int]] | None = (
            {} if any(type(e) is r.Recall for e in hand.events) else None)

    def add(self, kind, trick, player, card, message, evidence, rule=""):
        """A finding; ``trick`` is the trick's place in the record, reported by the number the
        record writes on it (they differ where the record leaves a trick out)."""
        if trick is not None:
            trick = self.know.numbered(trick)
        self.findings.append(Finding(kind, self.n, trick, player, card, message, evidence, rule))

    def undecided(self, kind, trick, player, card, reason):
        """A check the record leaves open at a play (``trick``: its place, as ``add``)."""
        self.undecidable.append(Undecidable(kind, self.n, self.know.numbered(trick), player, card, reason))

    def _cinch(self, kind, know, p, t, c, won, prior):
        """The cinch judged before P's play of ``c``, which would break ``kind`` if P had
        one; a position the search cannot settle is noted as undecidable."""
        if self.trial:
            return UNJUDGED
        cinch = self.cinch(know, p, t, won.get(p, 0), prior)
        if isinstance(cinch, Unjudged):
            return cinch
        if isinstance(cinch, Contradicted):
            self.undecidable.append(Undecidable(
                kind, self.n, know.numbered(t), p, c, f"the record contradicts itself before {p} played {card_str(c)}: "
                "no deal of the unseen cards fits every play, so no cinch can be proven"))
        elif isinstance(cinch, Unsettled):
            self.undecidable.append(Undecidable(
                kind, self.n, know.numbered(t), p, c,
                f"whether {p} had a cinch before playing {card_str(c)} is not settled within the "
                f"search budget ({cinch.nodes:,} position{'s' if cinch.nodes != 1 else ''}; "
                "`--cinch-nodes 0` searches without one)"))
        return cinch

    # -- the deal and the draw ---------------------------------------------
    def run(self) -> Replay:
        ev = self.hand.events
        deals = {e.player: e for e in ev if isinstance(e, r.Deal)}
        short = deals.get(self.dealer)
        if short is not None and len(short.cards) == self.rules.cards - 1 and self.rules.trump_card == "dealer":
            ev = _up_apart(ev, short, deals)
            deals = {e.player: e for e in ev if isinstance(e, r.Deal)}
        decisions = [e for e in ev if isinstance(e, r.Decision)]
        tricks = [e for e in ev if isinstance(e, r.Trick)]
        trump = self._trump(ev, deals)
        seated = self.seats or _appearing(ev)
        strays = {} if self.seats else _strays(ev)
        if strays:
            seated = [p for p in seated if p not in strays]
        passed = [d.player for d in decisions if d.action == "pass"]
        active = list(dict.fromkeys(d.player for d in decisions if d.action != "pass"))
        if not decisions:
            # a name twice in trick 1 (two tricks written on one line) is one player
            active = list(dict.fromkeys(p for p, _ in tricks[0].plays)) if tricks else list(seated)
        for t in tricks:
            for p, _ in t.plays:
                if p not in active and p not in passed:
                    active.append(p)
        playing = {p for t in tricks for p, _ in t.plays} if passed else set()
        if playing & set(passed):
            # a pass the tricks contradict (see ``crossed``): the declarations may be what is
            # wrong (names swapped among them, say), so the tricks say who played, and the
            # order of play goes round them all
            active = [p for p in active if p in playing] + [p for p in dict.fromkeys(
                q for t in tricks for q, _ in t.plays) if p not in active]
        if self.seats:
            order = {p: i for i, p in enumerate(self.seats)}
            active.sort(key=lambda p: order.get(p, len(order)))
        know = self.know = Knowledge(self.rules, ev, trump, active, self.dealer, self.seats, self.left_out,
                                        self.unled)
        self._names(ev, strays)
        self._disputes(ev, seated)
        self._decisions(decisions, ev, know)
        discards = self._draws(decisions, deals, seated)
        for kind, player, message, evidence in know.errors:
            if player:
                self.skip.add(player)
            if player in self.unseated and kind in ("duplicate-card", "not-held"):
                continue  # a name not seated (reported, with the seated name meant): its cards are that slip
            self.add(kind, None, player, None, message, evidence)
        if len(know.recorded) > self.rules.cards:  # which tricks were played is not known: no play is judged
            self.skip_all = True
        if trump is not None and not self.trumps and not self.trump_confirmed and tricks:
            self._trump_in_doubt(know, trump, ev)
        result = Replay(self.n, self.dealer, trump, list(seated), active, passed, discards,
                        None, False, know=know)
        if not self.seats:
            result.misspelt, result.maybe_dealt = _misspelt(ev)
        elif self.unseated:  # a name not seated, close to one seated name: that player's, misspelt
            result.misspelt = [(name, close[0]) for name in sorted(self.unseated)
                               if len(close := r.closest(name, self.seats)) == 1]
        if len(active) == 1 and passed and not tricks:
            result.walkover = active[0]
        if not active and passed:
            result.all_passed = True
        fifth = self._tricks(tricks, know.tricks, trump, active, know, result)
        if self.won_at is not None:
            self._recalls(ev, know, trump)
        others = other_ways([result.tricks] if result.tricks is not None else result.ways, fifth) if fifth else []
        if fifth and others is not None:
            more = led_ways(know, trump, know.tricks, know.proven_first_leader())
            others = None if more is None else others + more
        if len(self.trumps) > 1 and len(tricks) == self.rules.cards:
            # the trump in doubt: the tricks won each way it may be, a next lead included (it
            # may be what is wrong); the table's count may pick one
            seen = [result.tricks, *(w for s in sorted(self.trumps) for w in tallies(know, s))]
            ways = [w for i, w in enumerate(seen) if w and w not in seen[:i]]
            if result.tricks is None or len(ways) > 1:
                result.tricks, result.ways, result.complete = None, ways, bool(ways)
        if (know.seats_doubted or know.doubtful) and trump is not None and len(tricks) == self.rules.cards:
            # what the record contradicts may be right and something else wrong instead: the
            # seats, and a lead (a trick written from another card than the lead); a play, and
            # the deal or the draw (a draw left out, say).  The tricks the cards give as
            # written (as the seats place them) are another way the hand may have gone; the
            # table's count may pick one
            ways = result.ways if result.tricks is None else [result.tricks]
            written = tally(know, trump, tricks=know.recorded)
            if ways and written and written not in ways:
                result.tricks, result.ways, result.complete = None, [*ways, written], True
            if written and others is not None:
                opened = [(nxt, players) for _, nxt, players in winners_by_trick(know, trump, know.recorded) if players]
                more = other_ways([written], opened)
                others = None if more is None else others + more
        if know.pinned and others is not None and result.tricks is not None and result.complete and (
                len(self.trumps) < 2):  # a suit-only card pinned down by a hand that may be typed wrong
            more = pinned_ways(know, trump, result.tricks)
            others = None if more is None else others + more
        # a pass the tricks or the table's count contradict: who played the hand, and so who
        # won what, is not known
        crossed = next(((p, f"plays to trick {know.numbered(t)}", f"{p} pass") for t, trick in enumerate(tricks, 1)
                        for p, _ in trick.plays if p in passed), None) or next(
            ((p, f"the table's Tricks gives {p} {n}", f"{p} pass; Tricks {p} {n}") for e in ev
             if type(e) is r.TricksClaim for p, n in e.counts if n > 0 and p in passed), None) if passed else None
        if crossed:
            p, what, evidence = crossed
            self.add("out-of-turn", None, p, None, f"{p} passed, yet {what}: who played this hand is not known",
                     evidence)
            result.tricks, result.ways, result.complete, result.walkover = None, [], False, None
        readings = [result.tricks] if result.tricks is not None else result.ways
        result.leads = None if others is None else [w for i, w in enumerate(others)
                                                     if w not in readings and w not in others[:i]]
        result.findings = self.findings
        result.undecidable = self.undecidable
        result.bad_disputes = self.bad_disputes
        return result
