"""BHH-JSON: the record as JSON Lines, for platforms to write (docs/bhh-json.md).

One JSON object a line: a session (``{"type": "session", "tags": [[name, value], ...]}``),
then its hands (``{"type": "hand", "number": N, "events": [...]}``), each event an object
naming its kind: ``"event"`` for the facts (deal, up, play, trick, ...), ``"claim"`` for
what the table said (pot, ante, tricks, net, dispute).  It mirrors the record exactly, so
``fmt`` turns either form into the other and back.  Fields whose name starts with ``_``
are the platform's own (ids, timestamps): accepted anywhere and ignored.

A line that is not valid JSON, or an event the record cannot hold, is a ``SyntaxProblem``
at its line that names the field; the rest of the file is still read, as for text.
"""

from __future__ import annotations

import json
import re
from typing import IO, Iterator

from .. import record as r
from ..cards import CardError, SUIT_LETTERS, card_str, parse_card, parse_suit
from ..rules.profiles import RulesError, check_tag

INT32 = 2**31 - 1
# what no line of a text record holds (the grammar refuses it in quoted text too)
_LINE_END = re.compile("[\r\n]")
MAX_LINE = 50_000_000  # as the text reader: a longer line is refused, not read


# -- writing ---------------------------------------------------------------------------------

def _cards(value: r.Cards):
    return value if isinstance(value, int) or value is None else [card_str(c) for c in value]


def event_object(e: r.Event) -> dict:
    """One event as its JSON object (the keys in a fixed order)."""
    t = type(e)
    if t is r.TagChange:
        out = {"event": "tag", "name": e.name, "value": e.value}
    elif t is r.Seats:
        out = {"event": "seats", "players": list(e.players)}
    elif t is r.Dealer:
        out = {"event": "dealer", "player": e.player}
    elif t is r.Ante:
        out = {"claim": "ante", "players": e.players if isinstance(e.players, str) else list(e.players)}
    elif t is r.PotClaim:
        out = {"claim": "pot", "amount": e.amount}
    elif t is r.Deal:
        out = {"event": "deal", "player": e.player, "cards": _cards(e.cards)}
    elif t is r.Up:
        out = {"event": "up", "card": card_str(e.card)}
    elif t is r.Trump:
        out = {"event": "trump", "suit": SUIT_LETTERS[e.suit]}
    elif t is r.Decision:
        out = {"event": e.action, "player": e.player}
        if e.discards is not None:
            out["discards"] = _cards(e.discards)
        if e.draws is not None:
            out["draws"] = _cards(e.draws)
    elif t is r.Trick:
        out = {"event": "trick", "number": e.number if e.written else None,
               "plays": [{"player": p, "card": card_str(c)} for p, c in e.plays]}
        if e.by_seat:  # written by seat: who played each card after the lead comes from the seats
            out["by_seat"] = True
        if e.loose:
            out["loose"] = True
    elif t is r.TricksClaim:
        out = {"claim": "tricks", "counts": [[p, n] for p, n in e.counts]}
    elif t is r.NetClaim:
        out = {"claim": "net", "amounts": [[p, n] for p, n in e.amounts]}
    elif t is r.Dispute:
        out = {"claim": "dispute", "player": e.player, "kind": e.kind}
        if e.trick is not None:
            out["trick"] = e.trick
    elif t is r.Recall:
        out = {"event": "recall", "player": e.player, "card": card_str(e.card)}
        if e.trick is not None:
            out["trick"] = e.trick
    elif t is r.Forfeit:
        out = {"event": "forfeit", "player": e.player}
    else:  # pragma: no cover - every event type is listed above
        raise TypeError(f"unknown event {e!r}")
    if e.note is not None:
        out["note"] = e.note
    return out


def session_lines(sessions) -> Iterator[str]:
    """The sessions as BHH-JSON lines (without line ends)."""
    for s in sessions:
        yield _dump({"type": "session", "tags": [[k, v] for k, v in s.tags]})
        for h in s.hands:
            hand = {"type": "hand", "number": h.number}
            if h.notes:
                hand["notes"] = list(h.notes)
            hand["events"] = [event_object(e) for e in h.events]
            yield _dump(hand)


def write(sessions) -> str:
    return "".join(line + "\n" for line in session_lines(sessions))


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


# -- reading ---------------------------------------------------------------------------------

class _Bad(ValueError):
    """An object the record cannot hold: ``field`` says where, the message what is wrong."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _text(obj: dict, key: str, where: str, optional: bool = False):
    v = obj.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v or _LINE_END.search(v):
        raise _Bad(f"{where}.{key}", "expected a text (a name: not empty, on one line)")
    return v


def _int(v, where: str, most: int = INT32, least: int = 0, what: str = "a whole number"):
    if isinstance(v, bool) or not isinstance(v, int) or not least <= v <= most:
        raise _Bad(where, f"expected {what} from {least:,} to {most:,}")
    return v


_CARDS: dict[str, int] = {tok: parse_card(tok) for tok in
                          [k + x for k in [*"23456789AKQJTakqjt?", "10"] for x in "shdcSHDC"] + ["??"]}
FACTS = {"tag", "seats", "dealer", "deal", "up", "trump", "pass", "play", "draw", "trick", "recall", "forfeit"}
CLAIMS = {"ante", "pot", "tricks", "net", "dispute"}


def _card(v, where: str) -> int:
    got = _CARDS.get(v) if type(v) is str else None
    if got is not None:
        return got
    if not isinstance(v, str):
        raise _Bad(where, "expected a card like \"Qs\" or \"10h\" (\"??\" unknown, \"?h\" a heart)")
    try:
        return parse_card(v.strip())
    except CardError:
        raise _Bad(where, f"expected a card like \"Qs\" or \"10h\", found {json.dumps(v)[:40]}") from None


def _card_list(v, where: str, empty: bool = False) -> tuple[int, ...]:
    if v.__class__ is list and v:
        try:
            return tuple(map(_CARDS.__getitem__, v))
        except (KeyError, TypeError):
            pass  # the slow road says which card is wrong
    if not isinstance(v, list) or (not v and not empty):
        raise _Bad(where, "expected a list of cards like [\"Qs\", \"10h\"]")
    return tuple(_card(c, f"{where}[{i}]") for i, c in enumerate(v))


def _cards_or_count(v, where: str):
    if isinstance(v, list):
        return _card_list(v, where, empty=True)
    return _int(v, where, what="a list of cards or a count")


def _names(v, where: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not v:
        raise _Bad(where, "expected a list of players' names")
    for i, p in enumerate(v):
        if not isinstance(p, str) or not p or _LINE_END.search(p):
            raise _Bad(f"{where}[{i}]", "expected a player's name")
    return tuple(v)


def _pairs(v, where: str, value) -> tuple:
    if not isinstance(v, list) or not v:
        raise _Bad(where, "expected a list of [name, number] pairs")
    out = []
    for i, pair in enumerate(v):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and pair[0]
                and not _LINE_END.search(pair[0])):
            raise _Bad(f"{where}[{i}]", "expected a [name, number] pair")
        out.append((pair[0], value(pair[1], f"{where}[{i}][1]")))
    return tuple(out)


def _chips(v, where: str) -> int:
    return _int(v, where, r.CHIPS, -r.CHIPS, "a chip amount")


def _event(obj, where: str, line: int) -> r.Event:
    if not isinstance(obj, dict):
        raise _Bad(where, "expected an object like {\"event\": \"deal\", ...}")
    kind = obj.get("event") if "event" in obj else obj.get("claim")
    note = obj.get("note")
    if note is not None and (not isinstance(note, str) or "}" in note or _LINE_END.search(note)):
        raise _Bad(f"{where}.note", "expected a text on one line without `}`")
    kw = {"line": line, "note": note}
    fact = "event" in obj
    if kind == "trick" and fact:
        return _trick(obj, where, kw)
    if kind == "deal" and fact:
        return r.Deal(_text(obj, "player", where), _card_list(obj.get("cards"), f"{where}.cards"), **kw)
    facts, claims = FACTS, CLAIMS
    if not isinstance(kind, str) or (fact and kind not in facts) or (not fact and kind not in claims):
        key = "event" if "event" in obj else "claim" if "claim" in obj else None
        if key is None:
            raise _Bad(where, "expected an \"event\" (a fact) or a \"claim\" (what the table said)")
        raise _Bad(f"{where}.{key}", f"expected one of {', '.join(sorted(facts if key == 'event' else claims))}")
    if kind == "tag":
        name, value = _text(obj, "name", where), obj.get("value")
        if not isinstance(value, str) or _LINE_END.search(value):
            raise _Bad(f"{where}.value", "expected a text on one line")
        return r.TagChange(name, value, **kw)
    if kind == "seats":
        return r.Seats(_names(obj.get("players"), f"{where}.players"), **kw)
    if kind in ("dealer", "forfeit"):
        player = _text(obj, "player", where)
        return r.Dealer(player, **kw) if kind == "dealer" else r.Forfeit(player, **kw)
    if kind == "ante":
        players = obj.get("players")
        if players in ("all", "none"):
            return r.Ante(players, **kw)
        return r.Ante(_names(players, f"{where}.players"), **kw)
    if kind == "pot":
        return r.PotClaim(_int(obj.get("amount"), f"{where}.amount", r.CHIPS, what="a number of chips"), **kw)
    if kind == "deal":
        return r.Deal(_text(obj, "player", where), _card_list(obj.get("cards"), f"{where}.cards"), **kw)
    if kind == "up":
        return r.Up(_card(obj.get("card"), f"{where}.card"), **kw)
    if kind == "trump":
        suit = obj.get("suit")
        try:
            return r.Trump(parse_suit(suit), **kw) if isinstance(suit, str) and len(suit) == 1 else _no_suit(where)
        except CardError:
            _no_suit(where)
    if kind in ("pass", "play", "draw"):
        player = _text(obj, "player", where)
        discards = _cards_or_count(obj["discards"], f"{where}.discards") if obj.get("discards") is not None else None
        draws = _cards_or_count(obj["draws"], f"{where}.draws") if obj.get("draws") is not None else None
        if kind == "pass" and (discards is not None or draws is not None):
            raise _Bad(where, "a pass has no discards or draws")
        if kind == "play" and discards is None:
            if draws is not None:
                raise _Bad(f"{where}.discards", "cards drawn need the discards (a list or a count)")
            discards = 0
        if kind == "draw" and discards is None:
            raise _Bad(f"{where}.discards", "a draw needs its discards (a list or a count)")
        return r.Decision(player, kind, discards, draws, **kw)
    if kind == "tricks":
        return r.TricksClaim(_pairs(obj.get("counts"), f"{where}.counts", _int), **kw)
    if kind == "net":
        return r.NetClaim(_pairs(obj.get("amounts"), f"{where}.amounts", _chips), **kw)
    if kind == "dispute":
        what = _text(obj, "kind", where).lower()
        trick = _int(obj["trick"], f"{where}.trick", least=1) if obj.get("trick") is not None else None
        return r.Dispute(_text(obj, "player", where), what, trick, **kw)
    # recall
    trick = _int(obj["trick"], f"{where}.trick", least=1) if obj.get("trick") is not None else None
    return r.Recall(_text(obj, "player", where), _card(obj.get("card"), f"{where}.card"), trick, **kw)


def _trick(obj, where: str, kw) -> r.Trick:
    number = obj.get("number")
    if number is not None:
        number = _int(number, f"{where}.number", least=1, what="a trick number")
    plays = obj.get("plays")
    if not isinstance(plays, list) or not plays:
        raise _Bad(f"{where}.plays", "expected the cards in the order played, leader first: "
                   "[{\"player\": \"Ann\", \"card\": \"As\"}, ...]")
    out = []
    for i, p in enumerate(plays):
        player = p.get("player") if type(p) is dict else None
        card = p.get("card") if player.__class__ is str and player and not _LINE_END.search(player) else None
        card = _CARDS.get(card) if card.__class__ is str else None
        if card is None:  # the slow road, which says what is wrong
            at = f"{where}.plays[{i}]"
            if not isinstance(p, dict):
                raise _Bad(at, "expected {\"player\": ..., \"card\": ...}")
            player, card = _text(p, "player", at), _card(p.get("card"), f"{at}.card")
        out.append((player, card))
    loose, by_seat = obj.get("loose", False), obj.get("by_seat", False)
    for key, flag in (("loose", loose), ("by_seat", by_seat)):
        if not isinstance(flag, bool):
            raise _Bad(f"{where}.{key}", "expected true or false")
    return r.Trick(number, tuple(out), loose=loose, by_seat=by_seat or loose, **kw)


def _no_suit(where: str):
    raise _Bad(f"{where}.suit", "expected a suit: \"s\", \"h\", \"d\" or \"c\"")


class JsonReader:
    """Streams one BHH-JSON file as ``notation.Reader`` streams text: ``Session`` heads,
    ``Hand`` records and ``SyntaxProblem`` values, in file order."""

    def __init__(self, path: str):
        self.path = path

    def read(self, stream: IO[bytes]) -> Iterator[r.Session | r.Hand | r.SyntaxProblem]:
        index, last, spoiled = -1, 0, False
        for n, raw in enumerate(stream, 1):
            if len(raw) > MAX_LINE:
                yield self._problem(n, 1, f"a line of {len(raw):,} bytes: more than a record holds", "", last)
                continue
            try:
                text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as e:
                yield self._problem(n, e.start + 1, "not UTF-8 text", "", last)
                continue
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                column = min(e.pos, len(text.rstrip("\r\n"))) + 1
                yield self._problem(n, column, f"not valid JSON: {e.msg}", text, last)
                continue
            except RecursionError:
                yield self._problem(n, 1, "not valid JSON: nested too deep", "", last)
                continue
            kind = obj.get("type") if isinstance(obj, dict) else None
            if kind == "session":
                index += 1
                last, spoiled = 0, False
                try:
                    tags = self._tags(obj.get("tags", []))
                except _Bad as bad:
                    spoiled = True
                    yield self._problem(n, 1, f"{bad.field}: {bad}; this session's hands are not checked", text, None)
                    continue
                yield r.Session(tags, index=index, line=n, path=self.path)
            elif kind == "hand":
                number = obj.get("number")
                if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= INT32:
                    yield self._problem(n, 1, f"number: expected a hand number from 1 to {INT32:,}", text, last)
                    continue
                if spoiled:
                    continue
                if index < 0:
                    index = 0
                    yield r.Session((), index=0, line=n, path=self.path)
                if number <= last:
                    yield self._problem(n, 1, f"hand numbers must increase: hand {number} comes after hand {last}",
                                        text, last)
                    continue
                last = number
                try:
                    hand, bad_tag = self._hand(obj, number, n)
                except _Bad as bad:
                    yield self._problem(n, 1, f"hand {number}, {bad.field}: {bad}", text, number)
                    continue
                if bad_tag:
                    spoiled = True
                    yield self._problem(n, 1, f"hand {number}: {bad_tag}; the hands from here on are not checked",
                                        text, number)
                    continue
                yield hand
            else:
                yield self._problem(n, 1, "type: expected an object with \"type\": \"session\" or \"hand\"", text, last)

    def _tags(self, tags) -> tuple[tuple[str, str], ...]:
        if not isinstance(tags, list):
            raise _Bad("tags", "expected a list of [name, value] pairs")
        out = []
        for i, pair in enumerate(tags):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
                    and pair[0] and not _LINE_END.search(pair[0] + pair[1])):
                raise _Bad(f"tags[{i}]", "expected a [name, value] pair of texts")
            try:
                check_tag(*pair)
            except RulesError as e:
                raise _Bad(f"tags[{i}]", str(e)) from None
            out.append((pair[0], pair[1]))
        return r.ordered_tags(out)

    def _hand(self, obj, number: int, line: int):
        notes = obj.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(x, str) and "}" not in x and not _LINE_END.search(x)
                                                  for x in notes):
            raise _Bad("notes", "expected a list of texts")
        events = obj.get("events")
        if not isinstance(events, list):
            raise _Bad("events", "expected a list of events")
        out = [_event(e, f"events[{i}]", line) for i, e in enumerate(events)]
        tricks = 0
        for i, e in enumerate(out):
            if type(e) is r.Trick:
                if e.number is None:  # as in text: the one before + 1, not written
                    e = out[i] = r.Trick(tricks + 1, e.plays, loose=e.loose, by_seat=e.by_seat, written=False,
                                         line=e.line, note=e.note)
                tricks = e.number
        out = tuple(out)
        bad_tag = None
        for e in out:
            if type(e) is r.TagChange:
                try:
                    check_tag(e.name, e.value)
                except RulesError as err:
                    bad_tag = str(err)
        return r.Hand(number, out, tuple(notes), line=line), bad_tag

    def _problem(self, line: int, column: int, message: str, text: str, hand: int | None) -> r.SyntaxProblem:
        if len(message) > 300:
            message = message[:299] + "…"
        return r.SyntaxProblem(self.path, line, column, message, "", hand=hand or None)
