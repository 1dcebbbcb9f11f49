"""Replay one hand through the engine: tricks won, record errors and play findings.

Everything here follows RULES.md §5: a finding needs a card the record proves
the player held, and names it; what the record cannot show is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import record as r
from .cards import UNKNOWN, card_str
from .cinch import Contradicted, Unjudged, Unsettled
from .engine import SUIT_NAMES
from .knowledge import Knowledge
from .plays import PlayChecks, _the
from .readings import (MOST_IN_DOUBT, borne_out, each_way, led_next, led_ways, may_have_won, may_win,
                       other_ways, pinned_ways, sure_winner, tallies, tally, winners_by_trick)
from .rules import Rules

PLAY_KINDS = ("renege", "failed-trump", "failed-beat", "cinch-lead", "cinch-follow",
              "cinch-last", "lead-trump")
RECORD_KINDS = ("dealer-passed", "out-of-turn", "duplicate-card", "not-held", "hand-size",
                "draw-limit", "bad-trump", "missing-play", "unknown-player", "bad-dispute")
CLAIM_KINDS = ("wrong-trick-count", "wrong-pot", "wrong-ante", "wrong-settlement")
CINCH_KINDS = ("cinch-lead", "cinch-follow", "cinch-last")
FINDING_KINDS = PLAY_KINDS + RECORD_KINDS + CLAIM_KINDS
DISPUTE_KINDS = FINDING_KINDS + ("cinch",)  # `cinch`: any cinch duty


def kind_class(kind: str) -> str:
    return "play" if kind in PLAY_KINDS else "record" if kind in RECORD_KINDS else "claim"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    hand: int
    trick: int | None
    player: str | None
    card: int | None
    message: str
    evidence: str
    rule: str

    @property
    def cls(self) -> str:
        return kind_class(self.kind)


@dataclass(frozen=True, slots=True)
class Undecidable:
    """A duty the audit could not judge at a play, and why: not a finding (nobody is
    accused), but not cleared either (a dispute of that kind there is undecidable)."""
    kind: str
    hand: int
    trick: int
    player: str
    card: int
    reason: str


@dataclass(slots=True)
class Replay:
    """What the replay of one hand established."""
    number: int
    dealer: str | None
    trump: int | None
    seated: list[str]
    active: list[str]
    passed: list[str]
    discards: dict[str, int | None]
    tricks: dict[str, int] | None  # None when a trick's winner is unknown
    complete: bool                 # every trick recorded and every winner known
    plays: list[tuple[int, int, str, int, bool]] = field(default_factory=list)  # trick, seq, player, card, won
    findings: list[Finding] = field(default_factory=list)
    undecidable: list[Undecidable] = field(default_factory=list)
    walkover: str | None = None
    all_passed: bool = False
    # (player, trick) -> {play kind: how the record shows the play kept that rule}
    kept: dict[tuple[str, int], dict[str, str]] = field(default_factory=dict)
    know: object = None  # the hand's Knowledge, for `replay`
    bad_disputes: list = field(default_factory=list)  # `Dispute` events that are record errors
    # where a lead out of turn leaves a trick's winner in doubt (``tricks`` None): the
    # tricks won in each reading of the record; the table's `Tricks` may pick one
    ways: list[dict[str, int]] = field(default_factory=list)
    # other readings, where tricks only the next leads give winners went to another who
    # may have won them (see ``other_ways``): the table's claims may pick one; None, too many
    leads: list[dict[str, int]] | None = field(default_factory=list)
    misspelt: list[tuple[str, str]] = field(default_factory=list)  # see ``_misspelt``
    maybe_dealt: list[str] = field(default_factory=list)  # see ``_misspelt``


UNJUDGED = Unjudged()


class HandReplay(PlayChecks):
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
        if short is not None and len(short.cards) == self.rules.cards - 1:
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
            self.add(kind, None, player, None, message, evidence)
            if player:
                self.skip.add(player)
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

    def _names(self, ev, strays: dict[str, tuple[str, int]]) -> None:
        """NOTATION.md §3.2: with `Seats` given, a name that is not seated is a record error
        (a typo, usually) that suggests the closest seated names; its plays are not judged.
        Without `Seats`, so is a name ``_strays`` finds misspelt."""
        for name, (meant, line) in strays.items():
            self.unseated.add(name)
            self.skip.add(name)
            self.add("unknown-player", None, name, None,
                     f"{name} plays no other card in this hand; did you mean {meant}?",
                     f"line {line} names {name} where {meant}, who plays every other trick, is missing")
        if not self.seats:
            return
        seated = set(self.seats)
        if all(p in seated for e in ev if type(e) is r.Trick for p, _ in e.plays) and all(
                name in seated for name, _ in r.naming(e for e in ev if type(e) is not r.Trick)):
            return  # every name seated (the tricks, most of the names, checked first)
        for name, line in r.naming(ev):
            if name in seated or name in self.unseated:
                continue
            self.unseated.add(name)
            self.skip.add(name)
            close = r.closest(name, self.seats)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            self.add("unknown-player", None, name, None,
                     f"{name} is not seated at this table{hint}",
                     f"line {line} names {name}; Seats {' '.join(self.seats)}")

    def _disputes(self, ev, seated) -> None:
        """NOTATION.md §3.2: a dispute of a kind that does not exist, or against a player
        not in the hand, is a record error (the rest of the hand is still audited)."""
        disputes = [d for d in ev if isinstance(d, r.Dispute)]
        if not disputes:
            return
        named = set(seated) | {n for n, _ in r.naming(ev) if n not in self.unseated}
        for d in disputes:
            if d.kind not in DISPUTE_KINDS or d.player not in named:
                self.bad_disputes.append(d)
            if d.kind not in DISPUTE_KINDS:
                close = r.closest(d.kind, DISPUTE_KINDS)
                self.add("bad-dispute", None, d.player, None,
                         f"`{d.kind}` is not a kind of dispute" + (f"; did you mean {' or '.join(close)}?" if close else ""),
                         "the kinds: " + ", ".join(DISPUTE_KINDS))
            elif d.player not in named:
                close = r.closest(d.player, sorted(named))
                self.add("bad-dispute", None, d.player, None,
                         f"the dispute names {d.player}, who is not in this hand"
                         + (f"; did you mean {' or '.join(close)}?" if close else ""),
                         f"line {d.line}: Dispute {d.player} {d.kind}")

    def _trump(self, ev, deals) -> int | None:
        up = next((e for e in ev if isinstance(e, r.Up)), None)
        named = next((e for e in ev if isinstance(e, r.Trump)), None)
        trump = None
        if up is not None and up.card != UNKNOWN:
            trump = up.card >> 4
        if named is not None:
            if trump is not None and named.suit != trump:
                self.add("bad-trump", None, None, None,
                         f"the up-card {card_str(up.card)} makes {SUIT_NAMES[trump]} trump, "
                         f"but the record says {SUIT_NAMES[named.suit]}",
                         f"Up {card_str(up.card)}; Trump {'shdc'[named.suit]}")
                self.skip_all = True
                self.trumps |= {trump, named.suit}
            trump = named.suit
        if up is not None and self.dealer in deals:
            dealt = deals[self.dealer].cards
            # the up-card listed elsewhere in the dealer's deal is the cards written in another order
            if up.card != UNKNOWN and dealt and dealt[-1] != UNKNOWN and up.card not in dealt:
                self.add("bad-trump", None, self.dealer, up.card,
                         f"the up-card {card_str(up.card)} is not the dealer's last card "
                         f"({card_str(dealt[-1])})", f"Deal {self.dealer} ends with {card_str(dealt[-1])}")
                self.skip_all = True
                self.trumps |= {up.card >> 4, dealt[-1] >> 4}
        # two lines that agree on the trump (the dealer's deal ending with a card of it, as
        # the up-card is listed, counts): the leads are not taken to doubt it
        dealt = deals[self.dealer].cards if self.dealer in deals else ()
        last = up.card if up is not None and up.card in dealt else dealt[-1] if dealt else UNKNOWN
        sources = [up.card >> 4 if up is not None and up.card != UNKNOWN else None,
                   named.suit if named is not None else None,
                   last >> 4 if last != UNKNOWN else None]
        self.trump_confirmed = trump is not None and sum(x == trump for x in sources) >= 2
        return trump

    def _trump_in_doubt(self, know, trump, ev) -> None:
        """A trump only one line names (`Up` or `Trump`, no deal of the dealer's to bear it
        out) is in doubt where another suit as trump gives more of the tricks to the player
        who led the next, or where it gives the tricks as the table's `Tricks` line counts
        them and the named suit does not: a trump typed wrong shows so.  Nothing is judged
        by it then, and a trick's winner is taken from its cards only where each such suit
        agrees."""
        wrong = know.suspect
        better = [s for s in range(4) if s != trump and len(know.contradicted(s)) < len(wrong)]
        if better:
            why = (f"with {SUIT_NAMES[trump]} as trump, {len(wrong)} trick{'s' if len(wrong) > 1 else ''} went "
                   f"to a player who did not lead the next; with {' or '.join(SUIT_NAMES[s] for s in better)} "
                   "fewer do", "tricks " + ", ".join(str(know.numbered(t)) for t in sorted(wrong)))
        else:
            claim = next((e for e in ev if isinstance(e, r.TricksClaim)), None)
            said = dict(claim.counts) if claim is not None else None
            if said is None or tally(know, trump) in (None, said):
                return
            better = [s for s in range(4) if s != trump and tally(know, s) == said]
            if not better:
                return
            why = (f"the table's trick count fits {' or '.join(SUIT_NAMES[s] for s in better)} as trump, "
                   f"not {SUIT_NAMES[trump]}", "Tricks " + " ".join(f"{p} {n}" for p, n in claim.counts))
        self.add("bad-trump", None, None, None, why[0] + ": the trump may be written wrong", why[1])
        self.skip_all = True
        self.trumps |= {trump, *better}

    def _decisions(self, decisions, ev, know):
        up = next((e for e in ev if isinstance(e, r.Up)), None)
        # a dealer the record contradicts (know.up_player) may not be who dealt the Ace
        if (up is not None and up.card != UNKNOWN and (up.card & 15) == 14
                and self.rules.ace_up_dealer_plays and know.up_player is not None):
            for d in decisions:
                if d.player == self.dealer and d.action == "pass":
                    self.add("dealer-passed", None, d.player, up.card,
                             f"{d.player} dealt the {card_str(up.card)} up and passed; "
                             "with an Ace up the dealer must play", f"Up {card_str(up.card)}; "
                             f"{d.player} pass", "ace-up-dealer-plays")
        if know.late:
            i = self.seats.index(self.dealer)
            order = " ".join(self.seats[i + 1:] + self.seats[:i + 1])
            for p in know.late:
                self.add("out-of-turn", None, p, None,
                         f"{p} declared out of turn (declarations go from the dealer's left)",
                         f"dealer {self.dealer}; order {order}")
        elif know.out_of_turn:  # without `Seats`: the dealer declared before another player
            first = [d.player for d in decisions if d.action != "draw"]
            after = next(p for p in first[first.index(self.dealer) + 1:] if p != self.dealer)
            self.add("out-of-turn", None, self.dealer, None,
                     f"{self.dealer} dealt, yet declared before {after} (declarations go round from "
                     "the dealer's left, the dealer's last)", "declarations " + " ".join(first))

    def _draws(self, decisions, deals, seated) -> dict[str, int | None]:
        out: dict[str, int | None] = {}
        most = self.rules.discard_limit(len(seated))
        for p, d in deals.items():
            if len(d.cards) != self.rules.cards:
                self.add("hand-size", None, p, None,
                         f"{p} was dealt {len(d.cards)} cards; this game deals {self.rules.cards}",
                         f"Deal {p} {' '.join(map(card_str, d.cards))}", "cards")
                self.skip.add(p)
        for d in decisions:
            if d.action == "pass":
                continue
            n = d.discards if isinstance(d.discards, int) else len(d.discards or ())
            got = d.draws if isinstance(d.draws, int) else (len(d.draws) if d.draws is not None else None)
            if d.discards is not None:
                out[d.player] = n
            if got is not None and got != n:
                self.add("hand-size", None, d.player, None,
                         f"{d.player} discarded {n} cards and drew {got}",
                         f"{d.player} {d.action}", "cards")
                self.skip.add(d.player)
            if n > most:
                self.add("draw-limit", None, d.player, None,
                         f"{d.player} discarded {n} cards; at most {most} are allowed "
                         f"with {len(seated)} players", f"{d.player} {d.action} {n}", "max-discard")
        return out

    # -- trick play ---------------------------------------------------------
    def _tricks(self, recorded, tricks, trump, active, know, result):
        """Walk the tricks: ``recorded`` as written (for the output), ``tricks`` with the
        suit-only cards the record pins down resolved (for the checks)."""
        won = {p: 0 for p in active}
        unsure: list[tuple[str, str | None]] = []  # per trick in doubt: who its cards give it, who led next
        credited = None  # who the cards of the trick just walked gave it to
        known_winners = True
        leader_expected = know.proven_first_leader()
        pending = None  # a trick's checks wait for the next lead: led out of turn, it puts their order in doubt
        shift = 0  # the number written minus the place: a note where it changes, not at every trick after
        # A card out of turn (a lead, or a card out of clockwise order) puts the order the
        # plays are written in in doubt: the trick may be written from the wrong card (round
        # the table, say), so its led suit, its winner and the next lead are not known.  The
        # doubt holds until a trick whose winner no order changes (the top trump, or the top
        # card of a trick all of one suit) is seen to lead the next; meanwhile no play is
        # judged, and no winner is taken from the order.
        doubt = False
        inherited = False  # the trick before won by a card only its unproven lead makes the winner
        playing = len(active) - len(self.unseated & set(active))  # cards a full trick holds
        fifth: list[tuple[str, tuple[str, ...]]] = []  # tricks only the next lead gives: see other_ways
        suits = self.trumps if len(self.trumps) > 1 else (trump,)  # what may be trump
        for t, trick in enumerate(tricks, 1):
            if trick.number is not None and trick.number - t != shift:
                if trick.number != t:
                    self.add("out-of-turn", t, None, None,
                             f"the trick numbered {trick.number} is trick {t} of the hand",
                             f"Trick {trick.number}")
                # a trick left out (or out of place): who led is not known; past it, while
                # the numbers run on, the trick before leads as usual
                leader_expected = None
            if trick.number is not None:
                shift = trick.number - t
            # no dealer, or no winner before it, names the leader
            unproven = leader_expected is None or inherited
            if unproven:
                know.doubted.add(t)  # what its plays show of their hands hangs on the lead too
            leader = trick.plays[0][0]
            players = [p for p, _ in trick.plays]
            missing = self._missing(t, players, active, know, len(tricks))
            in_order = not missing and not self.unseated & set(players)  # else reported already
            trick_ok = in_order and not self.skip_all
            if in_order and len(players) < len(active) and leader_expected not in players and (
                    leader_expected is not None or t == len(tricks)):
                # a short trick lacking the card of the player on lead, or the last one with
                # its leader unproven: the lead may be the card left out
                trick_ok = False
            elif leader_expected is not None and leader != leader_expected and (
                    in_order or missing and leader_expected in players):  # short, but not of the lead
                self.add("out-of-turn", t, leader, None,
                         f"{leader} led trick {know.numbered(t)}, but {leader_expected} was on lead",
                         know.lead_reason(t, leader_expected))
                trick_ok = False
                pending = None  # the trick before may be out of place (two tricks swapped) or miswritten
                doubt = True
                if credited is not None:  # a card of the trick before may be written wrong
                    won[credited] -= 1
                    unsure.append((credited, leader if leader in won else None))
                    last = len(recorded[t - 2].plays)
                    result.plays[-last:] = [(*play[:4], False) for play in result.plays[-last:]]
            elif in_order and leader_expected is not None:
                doubt = False  # led by the winner of a trick whatever its order: the order holds again
            if in_order and t == len(tricks) and len(players) < len(active) and (
                    _left_out_within(know, players, active)):
                trick_ok = False  # the last trick lacks a card before a written one: it may have won
            if pending:
                self._judge(*pending, know, result)
            pending = None
            twice = len(set(players)) < len(players)  # a name written twice
            out_of_turn = _out_of_turn(know, t, leader, players, len(active), twice) if in_order else None
            if out_of_turn:
                bad, why = out_of_turn
                self.add("out-of-turn", t, bad, None, why, "Trick " + ", ".join(players))
                trick_ok = False
                doubt = True
            cards = [c for _, c in trick.plays]
            doubt = doubt or know.against_seats  # which way play went round is not known
            if doubt:
                know.doubted.add(t)
            if twice:
                w = None  # a name written twice: its player may have played the card that won
            elif missing or len(cards) < playing:
                # a card left out may be the one that won, unless a card written beats any
                # card it may be, whichever was led (the top trump, say)
                w = sure_winner(know, t, cards + [UNKNOWN] * max(len(missing), playing - len(cards)), trump) if (
                    len(self.trumps) < 2) else None
            elif len(self.trumps) > 1:  # the record names two trumps: a winner only where both agree
                ws = {sure_winner(know, t, cards, s) if doubt else know.winner(t, cards, s) for s in self.trumps}
                w = ws.pop() if len(ws) == 1 else None
            else:
                w = sure_winner(know, t, cards, trump) if doubt else know.winner(t, cards, trump)
            after = tricks[t] if t < len(tricks) else None
            # who led next settles the winner only of the trick right before (not across a gap)
            nxt = led_next(know, t) if after is not None and (
                after.number is None or trick.number is None or after.number == trick.number + 1) else None
            w = borne_out(know, t, trick, w, nxt)
            if trick_ok and not doubt:
                # trick 1 led by the card that wins it, that lead resting on the dealer named
                # alone: it may be written from its winner, the dealer a seat off
                alone = not unproven and t == 1 and w == 0 and know.dealer_alone()
                pending = (t, trick.plays, trump, dict(won), len(trick.plays) == len(active),
                           trick.plays[0][0] if alone else unproven, nxt)
            # a winner under a name not seated (a typo, usually) says nothing of who leads next
            leader_expected = trick.plays[w][0] if w is not None else None
            # a winner only the lead makes, where only the trick's own line says who led, does
            # not prove who led the next either (a lead out of turn against it is still one)
            inherited = unproven and w is not None and not doubt and (
                len(self.trumps) > 1 or sure_winner(know, t, cards, trump) is None)
            if leader_expected in self.unseated:
                leader_expected = None
            if w is None and nxt is not None and nxt in won and not doubt and (
                    len(cards) < playing  # short: the lead may be the card left out
                    or any(may_win(trick.plays, nxt, s) for s in suits)):
                winner = nxt  # RULES.md §5: the next leader settles an unknown winner
                fifth.append((nxt, may_have_won(trick.plays, won, suits, len(cards) < playing)))
            elif w is not None:
                winner = trick.plays[w][0]
            else:
                winner = None
                known_winners = False
            if len(trick.plays) < len(active) and after is None:
                known_winners = False  # an abandoned last trick has no winner
            credited = None
            if winner is not None and winner in won:
                won[winner] += 1
                credited = winner if w is not None else None
            number = know.numbered(t)
            for seq, (p, c) in enumerate(recorded[t - 1].plays):
                result.plays.append((number, seq, p, c, p == winner))
        if pending:
            self._judge(*pending, know, result)
        result.complete = known_winners and len(tricks) == self.rules.cards and all(
            len(t.plays) == len(active) for t in tricks)
        if tricks and known_winners and not unsure:
            result.tricks = won  # for an unfinished hand, the counts so far
        elif tricks and known_winners and len(unsure) <= MOST_IN_DOUBT:
            result.ways = each_way(won, unsure)
        return fifth

    def _judge(self, t, plays, trump, won, full_trick, unproven, nxt, know, result) -> None:
        """Check each play of trick t (``won``: the tricks won before it).  Where nothing but
        the trick's own line says who led it (``unproven``), a breach it shows stands only
        if no other of its cards, read as the lead with the same order round the table,
        makes every play legal and the trick go to ``nxt``, who led the next: a trick
        written from the card that won it reads so.  Otherwise who led is what the record
        does not prove, and the breaches are undecidable.  ``unproven`` a name: trick 1,
        led as the dealer named alone says (``Knowledge.dealer_alone``) by that player,
        whose card wins it.  Where two or more players break a rule there, the breaches
        stand unless another lead makes every play legal and gives that player the trick
        all the same: a dealer a seat off with the trick written from its winner reads
        so, every player who followed the suit really led then breaking a rule."""
        before = len(self.findings)
        self._plays(t, plays, trump, won, full_trick, know, result.kept)
        same = unproven if isinstance(unproven, str) else None
        if same and len({f.player for f in self.findings[before:]}) < 2:
            return  # one breach: the dealer named is believed (several at once are the slip's mark)
        if unproven and len(self.findings) > before:
            other = self._other_lead(t, plays, trump, won, full_trick, nxt, know, same)
            if other is not None:
                number = know.numbered(t)
                lead = "a card not shown" if other[1] == UNKNOWN else _the(other[1])
                also = (f"; read so, trick {know.numbered(t + 1)} too is written from another card than its lead"
                        if other[2] else "")
                why = (f"who led trick {number} rests on the dealer named alone, and with several players "
                       "breaking a rule in it as written, it may be written from the card that won it" if same
                       else f"the record does not show who led trick {number}")
                still = f" and {same} still wins it" if same else ""
                for f in self.findings[before:]:
                    self.undecidable.append(Undecidable(
                        f.kind, self.n, number, f.player, f.card,
                        f"{why}: read as led by {other[0]} with {lead}, no card of it breaks a rule{still} "
                        f"(as written, {f.message}){also}"))
                del self.findings[before:]
                know.doubted.add(t)  # its cards show no void either
                for p, _ in plays:  # nor does any play there show a rule kept: a dispute is undecidable
                    result.kept.pop((p, number), None)

    def _other_lead(self, t, plays, trump, won, full_trick, nxt, know, same=None) -> tuple[str, int, bool] | None:
        """The first play of trick t that, read as its lead (the others following round the
        table as written), makes every play legal and gives the trick to ``nxt`` when that
        is known, or to a player the next trick reads legally from (see ``_may_lead``); and
        whether it is the latter.  With ``same``, only a reading that gives that player the
        trick.  The cinch is not judged in these readings (its position is the record's)."""
        self.trial = True
        try:
            for k in range(1, len(plays)):
                other = plays[k:] + plays[:k]
                w = know.winner(t, [c for _, c in other], trump)
                if same is not None:
                    if w is None or other[w][0] != same:
                        continue
                elif w is not None and not self._may_lead(other[w][0], t, nxt, won, know, trump):
                    continue
                before, open_ = len(self.findings), len(self.undecidable)
                self._plays(t, other, trump, won, full_trick, know, {})
                clean = len(self.findings) == before
                del self.findings[before:], self.undecidable[open_:]
                if clean:  # and whether the next trick then is written from another card too
                    return (*other[0], same is None and w is not None
                            and not self._may_lead(other[w][0], t, nxt, won, know))
        finally:
            self.trial = False
        return None

    def _may_lead(self, winner, t, nxt, won, know, trump=None, depth=0) -> bool:
        """The record does not contradict that ``winner`` of the trick at place t led the
        next: its written leader (``nxt``) is unknown, or theirs under a name not seated or
        spelt close to theirs, or the next trick lacks their card (the lead left out), or
        (given ``trump``) that trick too reads legally from their card, round the table as
        written, and its winner so may have led the one after (it too written from another
        card than its lead: from the card that won it, or backwards)."""
        if nxt is None or nxt not in won or nxt in self.unseated or winner == nxt or r.closest(nxt, [winner]):
            return True
        plays = know.tricks[t].plays
        k = next((i for i, (p, _) in enumerate(plays) if p == winner), None)
        if k is None:
            return True
        if trump is None or depth >= 3:
            return False
        other = plays[k:] + plays[:k]
        before, open_ = len(self.findings), len(self.undecidable)
        self._plays(t + 1, other, trump, won, len(other) == len(won), know, {})
        clean = len(self.findings) == before
        del self.findings[before:], self.undecidable[open_:]
        if not clean:
            return False
        w = know.winner(t + 1, [c for _, c in other], trump)
        return w is None or self._may_lead(other[w][0], t + 1, led_next(know, t + 1), won, know, trump, depth + 1)

    def _plays(self, t, plays, trump, won, full_trick, know, kept) -> None:
        """Check each play of trick t; into ``kept``, by (player, number), the rules each play
        the record shows legal kept."""
        cards = [c for _, c in plays]
        number = know.numbered(t)
        self.on_table = plays
        for seq, (p, c) in enumerate(plays):
            if p not in self.skip:
                before = len(self.findings)
                shown = self._check(t, p, c, cards[:seq], trump, know, won, full_trick)
                if len(self.findings) == before:
                    kept[(p, number)] = shown

    def _missing(self, t, players, active, know, count) -> list[str]:
        """RULES.md §7 `missing-play`: the active players a trick lacks while later tricks
        are recorded (the last trick may have been abandoned)."""
        if t == count or len(players) >= len(active) or self.unseated & set(players):
            return []
        # a name that is not seated is reported as unknown-player (a typo, usually), not as
        # a player whose card every other trick lacks
        missing = [p for p in active if p not in players and p not in self.unseated]
        if not missing:
            return []
        order = _play_order(know, players[0])
        if order is not None and not _in_order(players, order):
            return []  # out of order, not only short: reported as out of turn
        for p in missing:
            self.add("missing-play", t, p, None,
                     f"trick {know.numbered(t)} has no card from {p}, who was playing this hand",
                     "Trick " + ", ".join(players))
        return missing


def _out_of_turn(know, t: int, leader: str, players: list[str], in_hand: int,
                 twice: bool) -> tuple[str, str] | None:
    """The player whose name is out of turn in trick t, and why, where the trick is written
    out of the order of play: against the clockwise order of `Seats`; a name written
    twice (two tricks written as one, say); out of the order most tricks show, without
    `Seats` or where most go against them (a trick written backwards, say).  None where
    it is in order."""
    number = know.numbered(t)
    order = know.order_from(leader)
    # a last trick short of cards may lack any of them: its players in order with gaps
    if order and players != order[:len(players)] and not (len(players) < in_hand and _in_order(players, order)):
        bad = next((p for p, q in zip(players, order) if p != q),
                   players[min(len(order), len(players) - 1)])  # more plays than players
        return bad, f"{bad} played out of turn at trick {number} (play goes clockwise: {', '.join(order)})"
    if twice:
        bad = next(p for i, p in enumerate(players) if p in players[:i])
        return bad, f"{bad} plays twice at trick {number}"
    usual = know.outvoting  # most tricks go round against `Seats`: a trick that follows them is the odd one
    if usual and leader in usual:
        round_ = _rotated(usual, leader)
        expected = [q for q in round_ if q in players]
        kept = [p for p in players if p in round_]  # a name not seated is an unknown-player error
        if kept != expected:
            bad = next(p for p, q in zip(kept, expected) if p != q)
            return bad, (f"{bad} played out of turn at trick {number} (most tricks go round: "
                         f"{', '.join(round_)}, against the order of Seats)")
    if not know.seats and t in know.scrambled:  # its lead may be any of its cards
        usual = _rotated(know.usual, leader) if know.usual and leader in know.usual else None
        if not usual:
            return leader, f"{leader} played out of turn at trick {number} (the tricks disagree on the order of play)"
        bad = next((p for p, q in zip(players, [q for q in usual if q in players]) if p != q), leader)
        return bad, f"{bad} played out of turn at trick {number} (most tricks go round: {', '.join(usual)})"
    return None


def _up_apart(ev, short, deals):
    """The events, with the dealer's deal written a card short (``short``) and without the
    up-card, which no deal names (people write the face-up card on its own line), read
    as that deal with the up-card last."""
    up = next((e.card for e in ev if isinstance(e, r.Up)), UNKNOWN)
    if not up & 15 or any(up in d.cards for d in deals.values()):
        return ev
    return [replace(e, cards=e.cards + (up,)) if e is short else e for e in ev]


def _misspelt(ev) -> tuple[list[tuple[str, str]], list[str]]:
    """Without `Seats`, who was dealt in is known only from the names the hand uses.
    Names that may be one player's, one of them misspelt: close spellings (another case,
    a letter off) that never meet where two players would (both dealt, both declaring,
    or in one trick), or a name only the table's claims use and the one name of the hand
    close to it; each pair the spelling the hand uses less first (the claims' spelling
    counts most: the hands before may know the player by it, for the ante).  And the
    names only the table's claims use, not close to another: a player who passed, whose
    line is missing.  The settlement tries each both ways."""
    roles: dict[str, set] = {}
    uses: dict[str, int] = {}
    for e in ev:
        if isinstance(e, (r.Deal, r.Decision)):
            roles.setdefault(e.player, set()).add(type(e).__name__)
            uses[e.player] = uses.get(e.player, 0) + 1
        elif isinstance(e, r.Trick):
            for p, _ in e.plays:
                roles.setdefault(p, set()).add(e.line)
                uses[p] = uses.get(p, 0) + 1
        elif isinstance(e, (r.TricksClaim, r.NetClaim)):  # the spelling the table's claims use
            for p, _ in (e.counts if isinstance(e, r.TricksClaim) else e.amounts):
                uses[p] = uses.get(p, 0) + 100
        elif isinstance(e, r.Ante) and isinstance(e.players, tuple):
            for p in e.players:
                uses[p] = uses.get(p, 0) + 100
    pairs: list[tuple[str, str]] = []
    names = list(roles)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not roles[a] & roles[b] and r.closest(a, [b]):  # most never meet the first test
                pairs.append(tuple(sorted((a, b), key=lambda n: (uses[n], n))))
    claimed = []
    for p in uses:
        if p not in roles:
            close = r.closest(p, roles)
            if not close:
                claimed.append(p)
            elif len(close) == 1:  # a typo, in the claims or in the hand: one player either way
                pairs.append(tuple(sorted((close[0], p), key=lambda n: (uses[n], n))))
    return pairs, claimed


def _strays(ev) -> dict[str, tuple[str, int]]:
    """Without `Seats`: names misspelt in one trick, each with the name meant and the line.
    A name on no line but one trick's, where the one close name (``record.closest``) is
    missing, though it plays every other trick the record shows in full."""
    tricks = [e for e in ev if type(e) is r.Trick]
    lines: dict[str, set[int]] = {}
    for name, line in r.naming(e for e in ev if not isinstance(e, (r.TricksClaim, r.NetClaim, r.Ante))):
        lines.setdefault(name, set()).add(line)
    out: dict[str, tuple[str, int]] = {}
    for trick in tricks:
        names = {p for p, _ in trick.plays}
        for name in names:
            if lines[name] != {trick.line}:
                continue
            close = r.closest(name, [q for q in lines if q != name])
            if len(close) != 1 or close[0] in names:
                continue
            meant = close[0]
            full = [t for t in tricks if t is not trick and len(t.plays) >= len(trick.plays)]
            if len(lines[meant]) >= 2 and full and all(any(p == meant for p, _ in t.plays) for t in full):
                out[name] = (meant, trick.line)
    return out


def _appearing(ev) -> list[str]:
    seen: dict[str, None] = {}
    for e in ev:
        if isinstance(e, (r.Deal, r.Decision)):
            seen[e.player] = None
        elif isinstance(e, r.Trick):
            for p, _ in e.plays:
                seen[p] = None
    return list(seen)


def _rotated(order, first):
    i = order.index(first)
    return order[i:] + order[:i]


def _play_order(know, leader: str) -> list[str] | None:
    """The order of play from ``leader``: by `Seats`, else the round the declarations go."""
    return know.order_from(leader) or (_rotated(know.cycle, leader) if know.cycle and leader in know.cycle else None)


def _left_out_within(know, players: list[str], active: list[str]) -> bool:
    """A short trick lacks the card of a player whose turn, in the order of play, came
    before a card it shows (or the order is not known): the card left out was played, and
    may have been winning the trick when the later cards were."""
    order = _play_order(know, players[0])
    if order is None:
        return True
    last = max((order.index(p) for p in players if p in order), default=0)
    return any(p in order and order.index(p) < last for p in active if p not in players)


def _in_order(part, whole) -> bool:
    it = iter(whole)
    return all(p in it for p in part)
