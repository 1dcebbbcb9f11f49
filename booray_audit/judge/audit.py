"""Audit sessions: replay each hand, settle the chain, rule on disputes.

``audit(items)`` takes the reader's stream (sessions, hands, syntax problems)
and yields ``SessionStart``, ``HandReport`` and ``SessionEnd`` values in
order, one hand at a time, so a log of any size streams through.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .. import record as r
from ..cinch.compiled import NODES
from ..cinch.judge import cinch_judge
from .order import agree, by_number, noted, out_of_place
from .plain import plain_replay
from .plays import OPEN
from .findings import CINCH_KINDS, FINDING_KINDS, Finding, Replay, kind_class
from .replay import HandReplay
from ..rules.profiles import Rules, RulesError, profile, with_toggle
from ..rules.settle import Chain, Claims, Outcome, Settlement


@dataclass(frozen=True, slots=True)
class Ruling:
    player: str
    kind: str
    trick: int | None
    ruling: str  # upheld | rejected | undecidable
    evidence: str


@dataclass(slots=True)
class HandReport:
    session: int
    replay: Replay
    settlement: Settlement
    findings: list[Finding]
    rulings: list[Ruling]
    rules: Rules
    hand: r.Hand
    state: dict | None = None  # the pot chain after the hand (Chain.state): where a later audit resumes


@dataclass(slots=True)
class SessionStart:
    session: r.Session
    rules: Rules
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Resume:
    """In the stream instead of a hand already audited (by an earlier import of the same
    session's hands up to this one): it is not replayed again, and the session's pot chain
    continues from ``state`` (``Chain.state()`` after it).  ``source`` names the earlier
    audit for whoever asked."""
    hand: r.Hand
    state: dict
    source: str


@dataclass(slots=True)
class Resumed:
    """What the audit yields for a ``Resume``: the hand and the earlier audit it stands on."""
    session: int
    hand: r.Hand
    source: str


@dataclass(slots=True)
class SessionEnd:
    index: int
    ledger: dict[str, int]
    pot: int | None


_RULE_TAGS = frozenset(("rules", "rule", "ante", "limit", "cards"))
_SESSION_RULES: dict = {}  # the rules tags of a session (no override) -> (rules, problems)


def session_rules(tags, override: Rules | None) -> tuple[Rules, list[str]]:
    """The session's rules: profile (or the override), `Rule` tags, Ante/Limit/Cards tags.
    Without an override they follow from those tags alone, so sessions that have the same
    share one answer (a log's sessions nearly always do)."""
    if override is not None:
        return _session_rules(tags, override)
    key = tuple((k, v) for k, v in tags if k.lower() in _RULE_TAGS)
    got = _SESSION_RULES.get(key)
    if got is None:
        if len(_SESSION_RULES) >= 256:
            _SESSION_RULES.clear()
        rules, problems = _session_rules(key, None)
        got = _SESSION_RULES[key] = (rules, tuple(problems))
    return got[0], list(got[1])


def _session_rules(tags, override: Rules | None) -> tuple[Rules, list[str]]:
    problems: list[str] = []
    rules = override
    if rules is None:
        name = next((v for k, v in tags if k.lower() == "rules"), "standard")
        try:
            rules = profile(name)
        except RulesError as e:
            problems.append(str(e))
            rules = profile("standard")
    return apply_tags(rules, tags, problems), problems


def apply_tags(rules: Rules, tags, problems: list[str]) -> Rules:
    for k, v in tags:
        key = k.lower()
        try:
            if key == "rule":
                name, _, value = v.partition("=")
                rules = with_toggle(rules, name, value)
            elif key in ("ante", "limit", "cards"):
                rules = with_toggle(rules, key, v)
        except RulesError as e:
            problems.append(f"[{k} \"{v}\"]: {e}")
    return rules


@dataclass(frozen=True, slots=True)
class Table:
    """What a hand is replayed under."""
    rules: Rules
    seats: tuple[str, ...]
    dealer: str | None
    # record errors the deal's rotation shows (kind, player, message, evidence): a `Dealer`
    # line naming a player whose turn to deal was forfeited
    errors: tuple[tuple[str, str, str, str], ...] = ()


def replay_hand(hand: r.Hand, table: Table, cinch_nodes: int = NODES, explain: bool = False) -> Replay:
    """The hand's replay; a hand whose tricks are written out of the order of their
    numbers is replayed in both orders and keeps what both prove; one whose unnumbered
    tricks may be swapped (several players breaking a rule in one, or one player in
    several) keeps the written order, with a note on what a swap would clear (see
    ``order``).  A plain, clean hand takes the shorter road (``plain.py``), which keeps no
    evidence of the rules each play kept: ``explain`` (for `replay`) asks for it."""
    judge = cinch_judge(table.rules, cinch_nodes)
    if not explain:
        rep = plain_replay(hand, table.rules, list(table.seats), table.dealer, judge)
        if rep is not None:
            return rep
    rep = HandReplay(hand, table.rules, list(table.seats), table.dealer, judge).run()
    other = by_number(hand)
    if other is not None:
        agree(rep, HandReplay(other, table.rules, list(table.seats), table.dealer, judge).run())
    elif rep.findings:
        swapped = out_of_place(hand, rep, lambda h, left_out: HandReplay(
            h, table.rules, list(table.seats), table.dealer, judge, left_out).run())
        if swapped is not None:
            other, why, swap = swapped
            (noted if swap else agree)(rep, other, why)
    if rep.know is not None and any(f.cls == "play" for f in rep.findings) and (
            places := rep.know.unled_places()):
        # a seat-order trick gives each card to a player by the leader written: where nothing
        # before it bears out who led, a breach must hold with its cards nobody's
        unled = HandReplay(hand, table.rules, list(table.seats), table.dealer, judge, unled=places).run()
        n = [str(rep.know.numbered(i + 1)) for i in sorted(places)]
        why = (f"nothing before trick {n[0]} bears out who led it" if len(n) == 1 else
               f"nothing before tricks {', '.join(n[:-1])} and {n[-1]} bears out who led them")
        agree(rep, unled, f"{why}, and a seat-order trick gives each of its cards to a player by the leader "
              "written", "who led it" if len(n) == 1 else "who led them", tallies=False)
    return rep


class HandFailed(Exception):
    """The audit failed on a hand in another process; the message says how (``failure``)."""


def failure(e: Exception) -> str:
    """How the audit failed, in one line."""
    if isinstance(e, HandFailed):
        return str(e)
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


# the events ``SessionAudit.table`` reads: tags, `Seats`, `Dealer`, forfeits and recalls
_TABLE_EVENTS = {r.TagChange: 0, r.Seats: 1, r.Dealer: 2, r.Forfeit: 3, r.Recall: 3}


class SessionAudit:
    def __init__(self, session: r.Session, override: Rules | None, cinch_nodes: int = NODES,
                 explain: bool = False):
        self.index = session.index
        self.cinch_nodes = cinch_nodes
        self.explain = explain  # every hand replayed in full, with its evidence (replay_hand)
        self.override = override
        self.rules, self.problems = session_rules(session.tags, override)
        self.seats = list(_names(session.tag("Seats", "")))
        try:
            start = int(session.tag("Pot", "0") or 0)
        except ValueError:
            self.problems.append(f"[Pot \"{session.tag('Pot')}\"]: not a number of chips")
            start = 0
        self.chain = Chain(start)
        self.dealer: str | None = None
        self.number: int | None = None  # the last hand's number, for the next dealer
        # turns to deal forfeited and not yet skipped, by player, with the hand and cause of each
        self.forfeits: dict[str, list[str]] = {}
        self.path = session.path
        self.overflowed = False  # an amount past CHIPS: the rest of the session is not checked

    def hand(self, hand: r.Hand) -> HandReport | r.SyntaxProblem | None:
        table = self.table(hand)
        return self.checked(hand, table, lambda: replay_hand(hand, table, self.cinch_nodes, self.explain))

    def checked(self, hand: r.Hand, table: Table, replay) -> HandReport | r.SyntaxProblem | None:
        """The hand settled on its replay (``replay()``, which may raise ``HandFailed``, the
        failure of a replay in another process).  Should the audit itself fail on a hand (a
        bug of ours, not the record's), that hand is reported at its line as not checked,
        its pot taken as not known, and the hands after it are checked as usual."""
        before = self.chain.state()
        try:
            return self.settle(hand, table, replay(), before)
        except MemoryError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure of ours, kept to this hand
            self.chain.restore(before)  # nothing half-settled
            self.chain.lost(hand.number)
            return r.SyntaxProblem(self.path, hand.line, 1,
                                   f"hand {hand.number} could not be checked: booray-audit failed on it "
                                   f"({failure(e)}); please report it with this hand. Its pot is taken as "
                                   "not known; the hands after it are checked", hand=hand.number)

    def table(self, hand: r.Hand) -> Table:
        """The rules, seats and dealer the hand is replayed under (from its events and the
        hands before it; never from their replays, so hands can be replayed apart)."""
        changes: list[tuple[str, str]] = []
        seats = dealer = None
        turns: list[r.Event] = []  # forfeits and recalls
        for e in hand.events:  # one pass (every event class is Event's own subclass)
            kind = _TABLE_EVENTS.get(type(e))
            if kind is None:  # a deal, play line, trick, claim...: most of them
                continue
            if kind == 0:
                changes.append((e.name, e.value))
            elif kind == 1:
                seats = e  # the last `Seats` line, after any tag
            elif kind == 2:
                if dealer is None:
                    dealer = e.player
            else:
                turns.append(e)
        if changes:
            self.rules = apply_tags(self.rules, changes, self.problems)
            for k, v in changes:
                if k.lower() == "seats":
                    self.seats = list(_names(v))
        if seats is not None:
            self.seats = list(seats.players)
        errors = ()
        # the deal passes to the left, skipping a turn forfeited (docs/rules.md, forfeits):
        # known after the hand before, not across a hand the record leaves out or could not read
        if self.dealer in self.seats and hand.number == (self.number or 0) + 1:
            dealer, errors = self._rotation(dealer)
        else:
            self.forfeits = {}  # after a gap, which forfeits were used is not known
        self.dealer, self.number = dealer, hand.number
        for e in turns:  # forfeited from the next hand on
            if type(e) is r.Forfeit or type(e) is r.Recall and self.rules.recall == "forfeit":
                cause = "declared early" if type(e) is r.Forfeit else "took back a card"
                self.forfeits.setdefault(e.player, []).append(f"hand {hand.number}: {e.player} {cause}")
        return Table(self.rules, tuple(self.seats), dealer, errors)

    def _rotation(self, named: str | None) -> tuple[str | None, tuple]:
        """The dealer after ``self.dealer``: the next seat to the left whose turn is not
        forfeited (each forfeit skips one turn, then is used up), or the dealer ``named``
        by the hand's `Dealer` line, which uses up the forfeits of the seats it passes; a
        `Dealer` line naming a player whose turn is forfeited is an out-of-turn error."""
        i, n = self.seats.index(self.dealer), len(self.seats)
        if not self.forfeits:  # no turn forfeited (nearly every hand): the next seat deals
            return (self.seats[(i + 1) % n] if named is None else named), ()
        owed = {p: list(v) for p, v in self.forfeits.items() if v}
        expected = None
        for k in range(1, n * (1 + sum(map(len, owed.values()))) + 1):
            seat = self.seats[(i + k) % n]
            if not owed.get(seat):
                expected = seat
                break
            owed[seat].pop(0)  # this turn is skipped
        if named is None or named == expected:
            self.forfeits = owed
            return expected, ()
        if named not in self.seats:
            return named, ()
        for k in range(1, n):  # the seats the deal passed to reach the one named
            seat = self.seats[(i + k) % n]
            if seat == named:
                break
            if self.forfeits.get(seat):
                self.forfeits[seat].pop(0)
        if self.forfeits.get(named):
            return named, (("out-of-turn", named, f"{named} dealt, but had forfeited the next turn to deal",
                            self.forfeits[named].pop(0)),)
        return named, ()

    def settle(self, hand: r.Hand, table: Table, rep: Replay,
               before: dict | None = None) -> HandReport | r.SyntaxProblem | None:
        """The replayed hand settled on the session's chain, in hand order, with rulings.
        A settlement past CHIPS (a long session without a pot limit) is an error at the
        hand's line, and the session's later hands are not checked (None): `check` and
        `import` refuse it alike, and nothing is stored rounded.  ``before``: the chain's
        state before the hand (``Chain.state()``), where the caller took it."""
        if self.overflowed:
            return None
        if PLAIN_SETTLE and not (rep.findings or rep.undecidable or rep.misspelt or rep.maybe_dealt or table.errors):
            s = PLAIN_SETTLE(hand.events, hand.number, rep, table.rules, table.seats, self.chain)
            if s is not None:  # settled as below would settle it (judge/_settle.c)
                return HandReport(self.index, rep, s, [], [], table.rules, hand, self.chain.state())
        violators = frozenset(f.player for f in rep.findings if f.cls == "play" and f.player
                              and f.kind != "recall") if rep.findings else _NOBODY
        claims, recalls, disputes = _said(hand)
        recalled = frozenset(e.player for e in recalls if e.player in rep.active) if recalls else _NOBODY
        if table.rules.recall == "penalty":  # a recall counts as the violation itself
            violators |= recalled
        if table.rules.recall != "forfeit":
            recalled = _NOBODY
        doubtful = frozenset(u.player for u in rep.undecidable) if rep.undecidable else _NOBODY  # may owe a penalty
        tricks = _tricks(rep, claims)
        leads = () if tricks is None or tricks is not rep.tricks else None if rep.leads is None else tuple(rep.leads)
        outcome = Outcome(hand.number, tuple(rep.seated), tuple(rep.active),
                          tricks, violators, rep.walkover, rep.all_passed, doubtful,
                          tuple(rep.misspelt) + self._exempt_misspelt(table, rep), tuple(rep.maybe_dealt),
                          leads=leads, maybe_gone=_gone(hand, table, claims), recalled=recalled)
        ledger = before["ledger"] if before is not None else dict(self.chain.ledger)
        s = self.chain.settle(outcome, table.rules, claims)
        most = _largest(s, self.chain.ledger)
        if most > r.CHIPS:
            self.overflowed = True
            self.chain.ledger, self.chain.carry = ledger, None  # the ledger of the hands checked
            return r.SyntaxProblem(self.path, hand.line, 1,
                                   f"settling hand {hand.number} takes an amount to {most:,} chips, past the "
                                   f"{r.CHIPS:,} a record can hold; this session's hands from here on are not "
                                   "checked (set a pot limit)")
        findings = list(rep.findings)
        for kind, player, message, evidence in table.errors:
            findings.append(Finding(kind, hand.number, None, player, None, message, evidence, ""))
        for kind, player, message, evidence in s.findings:
            findings.append(Finding(kind, hand.number, None, player, None, message, evidence, "settlement"))
        if len(findings) > 1:
            findings.sort(key=lambda f: (f.trick or 0, _KIND_ORDER.get(f.kind, 99)))
        rulings = [x for x in (rule_on(d, findings, rep, s) for d in disputes) if x is not None]
        return HandReport(self.index, rep, s, findings, rulings, table.rules, hand, self.chain.state())

    def _exempt_misspelt(self, table: Table, rep: Replay) -> tuple[tuple[str, str], ...]:
        """Without `Seats`: a name of the hand spelt close to one the hand before left exempt
        from the ante, who is not in this hand under that name (`alice pass` after Alice
        went bourré) may be that player: a pair for the settlement to try both ways, as
        for close names within the hand (``replay._misspelt``)."""
        exempt = self.chain.exempt
        if table.seats or not exempt:
            return ()
        here = set(rep.seated) | {p for pair in rep.misspelt for p in pair}
        out = []
        for p in rep.seated:
            close = [q for q in r.closest(p, exempt) if q not in here] if p not in exempt else []
            if len(close) == 1:
                out.append((p, close[0]))
        return tuple(out)

    def resume(self, item: Resume, table: Table | None = None) -> Resumed | None:
        """A hand audited before: its table is worked out as for any hand (the hands after
        it depend on it), its replay and settlement are not; the chain takes its state."""
        if table is None:
            self.table(item.hand)
        if self.overflowed:
            return None
        self.chain.restore(item.state)
        return Resumed(self.index, item.hand, item.source)

    def lost(self, number: int) -> None:
        """Hand ``number`` could not be read: the pot it carried on is not known."""
        self.chain.lost(number)

    def end(self) -> SessionEnd:
        return SessionEnd(self.index, dict(self.chain.ledger), self.chain.carry)


def _plain_settle():
    """``_settle.plain`` (judge/_settle.c), its classes set: a plain hand settled on its
    chain as ``SessionAudit.settle`` settles it, or None where it leaves the hand to the
    Python code (the reference); None where it was not built, or BOORAY_AUDIT_PURE asks
    for the Python code."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        return None
    try:
        from . import _settle
    except ImportError:
        return None
    _settle.setup(r.PotClaim, r.Ante, r.TricksClaim, r.NetClaim, r.Recall, r.Dispute, Settlement)
    return _settle.plain


PLAIN_SETTLE = _plain_settle()
_KIND_ORDER = {k: i for i, k in enumerate(FINDING_KINDS)}
_NOBODY: frozenset[str] = frozenset()


def rule_on(d: r.Dispute, findings: list[Finding], rep: Replay, s: Settlement) -> Ruling | None:
    """Upheld, rejected or undecidable (docs/rules.md, the findings), with the evidence either way; None for
    a dispute that is itself a `bad-dispute` record error.  A dispute names a trick by the
    number written, as the findings do; a number the record leaves out cannot be judged."""
    if d in rep.bad_disputes:
        return None
    if _left_out(d.trick, rep):
        return Ruling(d.player, d.kind, d.trick, "undecidable", f"the record leaves out trick {d.trick}")
    return _rule_on(d, findings, rep, s)


def _left_out(trick: int | None, rep: Replay) -> bool:
    """The record numbers its tricks with a gap (or out of order), and none is ``trick``."""
    numbers = [t.number for t in rep.know.recorded] if trick is not None and rep.know is not None else []
    if all(n is None or n == i for i, n in enumerate(numbers, 1)):
        return False
    return trick not in numbers


def _rule_on(d: r.Dispute, findings: list[Finding], rep: Replay, s: Settlement) -> Ruling:
    kinds = CINCH_KINDS if d.kind == "cinch" else (d.kind,)
    hits = [f for f in findings if f.kind in kinds and f.player == d.player
            and (d.trick is None or f.trick == d.trick)]
    if hits:
        f = hits[0]
        return Ruling(d.player, d.kind, d.trick, "upheld", f"{f.message}; {f.evidence}")
    cls = kind_class(kinds[0])
    if d.kind == "recall":  # a card taken back leaves no trace in the trick line
        where = f" at trick {d.trick}" if d.trick is not None else ""
        return Ruling(d.player, d.kind, d.trick, "undecidable",
                      f"the record writes no card taken back by {d.player}{where} (a `Recall` line), "
                      "and the trick lines show only the cards that stood")
    if cls == "play":
        verdict, evidence = play_ruling(d, kinds, findings, rep)
        return Ruling(d.player, d.kind, d.trick, verdict, evidence)
    if cls == "claim":
        if s.net is not None or d.kind in ("wrong-trick-count",) and rep.tricks is not None:
            return Ruling(d.player, d.kind, d.trick, "rejected", "the replay agrees with the claim")
        return Ruling(d.player, d.kind, d.trick, "undecidable", "the hand's settlement is not known")
    if rep.dealer is None or rep.trump is None or not rep.seated:
        return Ruling(d.player, d.kind, d.trick, "undecidable",
                      "the record lacks the seats, the dealer or the trump needed to check it")
    return Ruling(d.player, d.kind, d.trick, "rejected", "the record shows no such error")


def _gone(hand: r.Hand, table: Table, claims: Claims) -> tuple[str, ...]:
    """The seated players a hand names nowhere, its `Net` line included, where it has one:
    a player who left the table (`Seats` not brought up to date) or a passer whose line
    is missing; the settlement tries them dealt in and not (``Outcome.maybe_gone``)."""
    if not table.seats or not claims.net:
        return ()
    if {p for p, _ in claims.net}.issuperset(table.seats):
        return ()  # the usual `Net` line, naming everyone seated
    named = {p for p, _ in r.naming(e for e in hand.events if not isinstance(e, r.Dealer))} | {
        e.player for e in hand.events if isinstance(e, r.Dispute)}
    return tuple(p for p in table.seats if p not in named)


def play_ruling(d: r.Dispute, kinds, findings: list[Finding], rep: Replay) -> tuple[str, str]:
    """The ruling on a play dispute that no finding upholds: rejected only when the record
    shows every named play kept the rule (or got another finding instead)."""
    plays = sorted({(p, t) for t, _, p, _, _ in rep.plays if p == d.player and (d.trick is None or t == d.trick)},
                   key=lambda k: k[1])
    if not plays:
        where = f" at trick {d.trick}" if d.trick else ""
        return "undecidable", f"the record shows no play of {d.player}{where}"
    reasons = []
    for p, t in plays:
        other = next((f for f in findings if f.player == p and f.trick == t and f.cls == "play"), None)
        if other is not None:
            reasons.append(f"trick {t}: the play is a {other.kind} instead ({other.message})")
            continue
        open_ = next((u for u in rep.undecidable if u.kind in kinds and u.player == p and u.trick == t), None)
        if open_ is not None:
            return "undecidable", f"trick {t}: {open_.reason}"
        kept = rep.kept.get((p, t), {})
        if not all(k in kept for k in kinds):
            why = next((f"trick {t}: {kept[OPEN + k]}" for k in kinds if k not in kept and OPEN + k in kept),
                       f"trick {t}: the record does not show enough to judge {d.kind}")
            if rep.know is not None and rep.know.left_out:
                why += (" (a trick is left out, and the tricks are not numbered: it may have come "
                        "before this one, so what the deal showed proves nothing here)")
            return "undecidable", why
        reasons.append(f"trick {t}: " + "; ".join(dict.fromkeys(kept[k] for k in kinds)))
    return "rejected", "; ".join(reasons)


def audit(items: Iterable, override: Rules | None = None, cinch_nodes: int = NODES,
          explain: bool = False) -> Iterator:
    """Reader items → SessionStart / HandReport / SessionEnd / SyntaxProblem, in order.
    ``cinch_nodes``: the cinch search's budget per decision (0: none, exact however long);
    ``explain``: every hand's replay keeps its knowledge and each play's evidence."""
    current: SessionAudit | None = None
    for it in items:
        if isinstance(it, r.Session):
            if current is not None:
                yield current.end()
            current = SessionAudit(it, override, cinch_nodes, explain)
            yield SessionStart(it, current.rules, current.problems)
        elif isinstance(it, r.Hand):
            out = current.hand(it)
            if out is not None:
                yield out
        elif isinstance(it, Resume):
            out = current.resume(it)
            if out is not None:
                yield out
        else:
            if isinstance(it, r.SyntaxProblem) and it.hand is not None and current is not None:
                current.lost(it.hand)
            yield it
    if current is not None:
        yield current.end()


def _largest(s: Settlement, ledger: dict[str, int]) -> int:
    """The largest amount, up or down, in a settlement and the session's ledger."""
    amounts = [s.pot or 0, s.carry or 0, s.won, *s.antes.values(), *ledger.values(),
               *(v for v in s.penalties.values() if v is not None), *(s.net or {}).values()]
    return max(max(amounts), -min(amounts))


def _tricks(rep: Replay, claims: Claims) -> dict[str, int] | None:
    """The tricks each player won, for the settlement: None when a winner is unknown.  Where
    a lead out of turn leaves a winner in doubt, the reading the table's `Tricks` fits, if
    it fits exactly one (of the readings, else of the other ways the tricks only next
    leads give winners may have gone)."""
    if not rep.complete:
        return None
    if rep.tricks is not None or not claims.tricks:
        return rep.tricks
    said = dict(claims.tricks)
    fits = [w for w in rep.ways if all(w.get(p) == n for p, n in said.items())] or [
        w for w in rep.leads or () if all(w.get(p) == n for p, n in said.items())]
    return fits[0] if len(fits) == 1 else None


def _said(hand: r.Hand) -> tuple[Claims, list[r.Recall], list[r.Dispute]]:
    """What the table said, in one pass over the hand: its claims (the last `Pot` and
    `Ante` lines, every `Tricks` and `Net` line), its `Recall` lines and its disputes."""
    pot = ante = None
    tricks: tuple = ()
    net: tuple = ()
    recalls: list[r.Recall] = []
    disputes: list[r.Dispute] = []
    for e in hand.events:
        kind = type(e)
        if kind is r.PotClaim:
            pot = e.amount
        elif kind is r.Ante:
            ante = e.players
        elif kind is r.TricksClaim:
            tricks += e.counts
        elif kind is r.NetClaim:
            net += e.amounts
        elif kind is r.Recall:
            recalls.append(e)
        elif kind is r.Dispute:
            disputes.append(e)
    return Claims(pot, ante, tricks, net), recalls, disputes


def _names(text: str):
    return r.split_names(text or "")
