"""Output for scripts: the JSON document (docs/check.schema.json), streamed a hand at a time;
the text for people is text.py."""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass

from ..judge.audit import HandReport, SessionEnd, SessionStart
from ..cards import SUIT_LETTERS, card_str
from ..record import SyntaxProblem


def finding_json(f) -> dict:
    return {"kind": f.kind, "class": f.cls, "hand": f.hand, "trick": f.trick, "player": f.player,
            "card": card_str(f.card) if f.card is not None else None, "message": f.message,
            "evidence": f.evidence, "rule": f.rule}


def undecidable_json(u) -> dict:
    return {"kind": u.kind, "trick": u.trick, "player": u.player, "card": card_str(u.card),
            "reason": u.reason}


def annotations(hand) -> list[tuple[str, str]]:
    """The hand's `{ ... }` annotations: (what each is written on, its text), in order."""
    out = [("hand", n) for n in hand.notes]
    for e in hand.events:
        if e.note is not None:
            kind = type(e).__name__
            player = getattr(e, "player", None)
            what = (f"trick {e.number}" if kind == "Trick" else f"{player} {e.action}" if kind == "Decision"
                    else f"{kind.lower()} {player}" if player else kind.lower())
            out.append((what, e.note))
    return out


def hand_json(h: HandReport) -> dict:
    rep, s = h.replay, h.settlement
    notes = annotations(h.hand)
    return {
        "hand": rep.number, "dealer": rep.dealer,
        "trump": SUIT_LETTERS[rep.trump] if rep.trump is not None else None,
        "active": rep.active, "passed": rep.passed,
        "tricks": rep.tricks if rep.complete else None,
        "pot": s.pot, "winner": s.winner, "bourre": s.bourre,
        "penalties": s.penalties, "net": s.net, "carry": s.carry,
        "findings": [finding_json(f) for f in h.findings],
        "rulings": [{"player": r.player, "kind": r.kind, "trick": r.trick, "ruling": r.ruling,
                     "evidence": r.evidence} for r in h.rulings],
        # beyond docs/output.md, for scripts: duties the audit could not judge (no finding, not cleared)
        "undecidable": [undecidable_json(u) for u in h.replay.undecidable],
        # the record's own `{ ... }` annotations, where it has any
        **({"notes": [{"on": what, "note": note} for what, note in notes]} if notes else {}),
    }


def tags_json(tags) -> dict:
    """A session's tags; a tag written more than once (`Rule`) keeps every value, as a list."""
    out: dict = {}
    for k, v in tags:
        if k in out:
            out[k] = (out[k] if isinstance(out[k], list) else [out[k]]) + [v]
        else:
            out[k] = v
    return out


@dataclass(frozen=True, slots=True)
class Rendered:
    """A run of hands' reports, one after another in a session, as the document writes them,
    made where the hands were audited (a worker process: ``judge.parallel.audit_parts``);
    ``findings``: how many they have; ``hands``: how many hands."""
    text: str
    findings: int
    hands: int


def _plain_json():
    """``_document.plain`` (report/_document.c): a plain hand's report as ``hand_text`` writes it,
    or None where it leaves the report to the Python code (the reference); None where it
    was not built, or BOORAY_AUDIT_PURE asks for the Python code."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        return None
    try:
        from . import _document
    except ImportError:
        return None
    return _document.plain


PLAIN_JSON = _plain_json()


def hand_text(h: HandReport) -> str:
    """A hand's report as the document writes it."""
    if PLAIN_JSON is not None:
        text = PLAIN_JSON(h)
        if text is not None:
            return text
    return _dumps(hand_json(h))


def rendered(items) -> list:
    """The items with each run of hands' reports made one ``Rendered`` (the parent process
    then passes on one value per run, not one per hand); any other item as it is."""
    out: list = []
    run: list[str] = []
    findings = 0
    for item in items:
        if isinstance(item, HandReport):
            run.append(hand_text(item))
            findings += len(item.findings)
            continue
        if run:
            out.append(Rendered(",\n".join(run), findings, len(run)))
            run, findings = [], 0
        out.append(item)
    if run:
        out.append(Rendered(",\n".join(run), findings, len(run)))
    return out


class JsonStream:
    """Writes the document (docs/check.schema.json) as the run goes, so that memory stays
    flat however long the log: a line per session's heading and per hand, and ``files``
    (whose ``errors`` are known only when every line is read) after ``sessions``."""

    def __init__(self, out):
        self.out = out
        self.files: list[dict] = []
        self._file: dict | None = None
        self._sessions = self._hands = 0
        self._open = False
        out.write('{"version": 1, "sessions": [')

    def start_file(self, path: str):
        self._close_session({}, None)  # a file that stopped being readable mid-session
        self._file = {"path": path, "errors": []}
        self.files.append(self._file)

    def add(self, item):
        if isinstance(item, (HandReport, Rendered)):
            self.out.write(",\n" if self._hands else "\n")
            if type(item) is Rendered:
                self.out.write(item.text)
                self._hands += item.hands
            else:
                self.out.write(hand_text(item))
                self._hands += 1
        elif isinstance(item, SyntaxProblem):
            self._file["errors"].append({"line": item.line, "column": item.column, "message": item.message})
        elif isinstance(item, SessionStart):
            self._close_session({}, None)
            for p in item.problems:
                self._file["errors"].append({"line": item.session.line, "column": 1, "message": p})
            head = {"file": self._file["path"], "index": item.session.index, "session": item.session.index + 1,
                    "tags": tags_json(item.session.tags), "rules": item.rules.describe()}
            self.out.write(",\n" if self._sessions else "\n")
            self.out.write(_dumps(head)[:-1] + ', "hands": [')
            self._sessions += 1
            self._open, self._hands = True, 0
        elif isinstance(item, SessionEnd):
            self._close_session(item.ledger, item.pot)

    def _close_session(self, ledger: dict, pot):
        if self._open:
            self.out.write(f'\n], "ledger": {_dumps(ledger)}, "pot": {_dumps(pot)}}}')
            self._open = False

    def close(self):
        """Ends the document: the sessions' list, then the files read and their errors."""
        self._close_session({}, None)
        self.out.write('\n], "files": ' + _dumps(self.files) + "}\n")


# json.dumps(value, ensure_ascii=False), made once; the document's values hold no cycle to look for
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _dumps(value) -> str:
    return _ENCODER.encode(value)


class JsonDocument(JsonStream):
    """The whole document as one value (for tests and callers that want it in memory)."""

    def __init__(self):
        super().__init__(io.StringIO())
        self._value: dict | None = None

    def value(self) -> dict:
        if self._value is None:
            self.close()
            self._value = json.loads(self.out.getvalue())
        return self._value
