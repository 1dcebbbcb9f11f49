"""An audit stream's rows, staged on disk in batches of whole sessions, and the chains
that name its hands (see load.py for what the chains decide).

A file's rows are written to CSV files while it streams through the audit, a ``Stage``
per batch: a batch closes at the start of the first session past ``BATCH_HANDS`` hands
or ``BATCH_SESSIONS`` sessions (the environment's ``BOORAY_AUDIT_BATCH`` sets the
hands).  load.py commits each batch in a transaction of its own, so neither the
staging nor the store's memory grows with the file; a session is never split, so a
session longer than a batch is a batch of its own.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime
from typing import Callable, Iterable, Iterator

from .. import record as r
from ..cards import SUIT_LETTERS, card_str
from ..judge.audit import HandReport, Resume, Resumed, SessionStart
from ..notation.writer import hand_lines, tag_line
from .schema import Stage

ASKED = 2048  # hands asked about in one query (one connection), while a session's hands are known
BATCH_HANDS = 20_000
BATCH_SESSIONS = 2_000


def digest(*parts: str) -> str:
    """A short hash of the parts (chains, session ids)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:20]


class Staged:
    """One file's staged rows: a ``Stage`` per batch of whole sessions."""

    def __init__(self):
        hands = os.environ.get("BOORAY_AUDIT_BATCH", "")
        self.most = (int(hands), max(1, int(hands) // 10)) if hands.isdigit() and int(hands) > 0 \
            else (BATCH_HANDS, BATCH_SESSIONS)
        self.stages: list[Stage] = []
        self.hands = self.sessions = 0

    def session(self) -> None:
        """A session's rows come next: in the batch open, or in a new one."""
        if not self.stages or self.hands >= self.most[0] or self.sessions >= self.most[1]:
            if self.stages:
                self.stages[-1].close()
            self.stages.append(Stage())
            self.hands = self.sessions = 0
        self.sessions += 1

    def row(self, table: str, seq: int, values) -> None:
        self.stages[-1].row(table, seq, values)
        self.hands += table == "hands"

    def batches(self) -> list[list[Stage]]:
        """The batches, each a list of stages (one: a file of no hands has one, empty)."""
        if not self.stages:
            self.stages.append(Stage())
            self.stages[-1].close()
        return [[s] for s in self.stages]

    def close(self) -> None:
        for s in self.stages:
            s.close()

    def cleanup(self) -> None:
        for s in self.stages:
            s.cleanup()


class Chains:
    """The chain of each hand, in stream order (a session's tags start it)."""

    def __init__(self):
        self.tags_text = ""
        self.last = ""
        self.done: dict[int, tuple] = {}  # id(hand) -> (hand, chain, text), worked out ahead

    def session(self, session: r.Session) -> None:
        self.tags_text = "\n".join(tag_line(k, v) for k, v in session.tags)
        self.last = digest("tags", self.tags_text)

    def hand(self, hand: r.Hand) -> tuple[str, str]:
        ahead = self.done.pop(id(hand), None)
        if ahead is not None and ahead[0] is hand:
            got = ahead[1:]
        else:
            text = "\n".join(hand_lines(hand))
            got = (digest(self.last, text), text)
        self.last = got[0]
        return got


class Known:
    """A filter of the reader's stream: a hand whose chain the store holds (audited under
    the same settings) comes out as a ``Resume`` instead.  Only sessions whose first hand
    the store holds are looked up, in batches, each on a connection opened and closed."""

    def __init__(self, opener: Callable, settings: str, chains: Chains):
        self.opener, self.settings, self.chains = opener, settings, chains
        con = opener()
        try:
            self.roots = {x for (x,) in con.execute(
                "SELECT root FROM sessions WHERE settings = ?", [settings]).fetchall()}
        finally:
            con.close()

    def __call__(self, items: Iterable) -> Iterator:
        ahead = Chains()
        pending: list = []
        hunting = False
        for it in items:
            if isinstance(it, r.Session):
                ahead.session(it)
                hunting = None  # decided at the session's first hand
                if pending:
                    pending.append((it, None))
                else:
                    yield it
            elif isinstance(it, r.Hand):
                # a session's first hand decides: the chains of a session not stored are
                # not needed here (staging works them out)
                chain, text = ahead.hand(it) if hunting is not False else (None, None)
                if hunting is None:
                    hunting = bool(self.roots) and chain in self.roots
                if not hunting:
                    if pending:  # behind the hands still waiting for their answer
                        pending.append((it, None))
                    else:
                        yield it
                    continue
                self.chains.done[id(it)] = (it, chain, text)
                pending.append((it, chain))
                if len(pending) >= ASKED:
                    yield from self._flush(pending)
            else:
                if pending:
                    pending.append((it, None))
                else:
                    yield it
        yield from self._flush(pending)

    def _flush(self, pending: list) -> Iterator:
        if not pending:
            return
        chains = [c for _, c in pending if c is not None]
        con = self.opener()
        try:
            found = {c: (h, s) for c, h, s in con.execute(
                """SELECT h.chain, any_value(h.hand_id), any_value(h.state) FROM hands h JOIN sessions s USING (session_id)
                   WHERE s.settings = ? AND h.chain IN (SELECT unnest(?::VARCHAR[])) GROUP BY h.chain""",
                [self.settings, chains]).fetchall()}
        finally:
            con.close()
        for it, chain in pending:
            if chain is not None and chain in found:
                source, state = found[chain]
                yield Resume(it, json.loads(state), source)
            else:
                yield it
        pending.clear()


def stage_file(items: Iterable, stage: Staged, origin: str, settings: str, chains: Chains | None = None) -> dict:
    """Write the rows of one file's audit stream; return counts.  Staged hands carry their
    session's place in the file instead of a session id, and no hand id: ``load`` gives them."""
    chains = chains or Chains()
    counts = {"hands": 0, "findings": 0, "problems": 0}
    start, ordinal, staged = None, 0, False
    for item in items:
        if isinstance(item, SessionStart):
            chains.session(item.session)
            start, staged = item, False
            ordinal += 1
        elif isinstance(item, (HandReport, Resumed)):
            chain, text = chains.hand(item.hand)
            if not staged:
                stage.session()
                stage.row("sessions", ordinal, _session_row(start, origin, ordinal, settings, chain,
                                                            chains.tags_text))
                staged = True
            seq = counts["hands"]
            if isinstance(item, Resumed):
                stage.row("hands", seq, [None, str(ordinal), item.hand.number] + [None] * 6
                          + [chain, text, None, item.source])
            else:
                state = json.dumps(item.state) if item.state is not None else None
                _stage_hand(stage, seq, item, str(ordinal), chain, text, state)
                counts["findings"] += len(item.findings)
            counts["hands"] += 1
        elif isinstance(item, r.SyntaxProblem):
            counts["problems"] += 1
    return counts


def _session_row(start: SessionStart, origin: str, ordinal: int, settings: str, root: str,
                 tags_text: str) -> list:
    s, rules = start.session, start.rules
    date = (s.tag("Date") or "").replace(".", "-")
    try:
        datetime.strptime(date, "%Y-%m-%d")
    except ValueError:
        date = None
    return [None, s.tag("Event"), s.tag("Site"), date, rules.profile, rules.ante, rules.limit,
            json.dumps(dict(rules.overrides)), json.dumps(dict(s.tags)), r.printable(s.path),
            origin, ordinal, settings, root, None, tags_text]


def _stage_hand(stage: Staged, seq: int, h: HandReport, skey: str, chain: str, text: str, state) -> None:
    rep, s = h.replay, h.settlement
    trump = SUIT_LETTERS[rep.trump] if rep.trump is not None else None
    stage.row("hands", seq, [None, skey, rep.number, rep.dealer, trump, s.pot, s.winner, s.carry,
                             rep.complete, chain, text, state, None])
    tricks = rep.tricks if rep.complete else None
    for seat, p in enumerate(rep.seated):
        status = "play" if p in rep.active else "pass" if p in rep.passed else None
        won = s.won if s.winner == p else (0 if s.net is not None else None)
        net = s.net.get(p) if s.net is not None else None
        stage.row("hand_players", seq, [None, p, seat, status, rep.discards.get(p),
                                        tricks.get(p) if tricks and p in rep.active else None, won,
                                        p in s.bourre, s.antes.get(p, 0) if s.pot is not None else None,
                                        s.penalties.get(p, 0) if s.net is not None else None, net])
    for t, order, p, c, won in rep.plays:
        stage.row("plays", seq, [None, t, order, p, card_str(c), SUIT_LETTERS[c >> 4] if c >> 4 < 4 else None,
                                 (c & 15) or None, won])
    for f in h.findings:
        stage.row("findings", seq, [None, f.trick, f.player, f.kind, f.cls,
                                    card_str(f.card) if f.card is not None else None, f.message, f.evidence,
                                    f.rule])
    for x in h.rulings:
        stage.row("rulings", seq, [None, x.player, x.kind, x.trick, x.ruling, x.evidence])
    for u in rep.undecidable:
        stage.row("undecidable", seq, [None, u.trick, u.player, u.kind, card_str(u.card), u.reason])
    for e in h.hand.events:
        if type(e) is r.Forfeit:
            stage.row("forfeits", seq, [None, e.player, "declared early"])
        elif type(e) is r.Recall and h.rules.recall == "forfeit":
            stage.row("forfeits", seq, [None, e.player, "recall"])
