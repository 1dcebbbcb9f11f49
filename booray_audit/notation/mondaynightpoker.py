"""The mondaynightpoker server's Bourré game logs (docs/platforms.md), read as sessions.

The server stores each game — a chain of hands, each continuing the last while the pot
stays on the table — as one JSON document whose root is the game's last hand, each hand
naming the one before it as ``parent``.  A ``.json`` file holds one such document, a
JSON list of them, or one per line (JSON Lines).  Each game becomes one session under
the ``mondaynightpoker`` rules, its hands in the order they were played:

- the seats of a hand are the order of its ``discards`` entries (the first to act
  first, the dealer last), not the order of ``seats[]``;
- players are named by their ids (``P17``); `alias` gives them names in the store;
- chips are the server's cents;
- what the server computed is kept apart as the table's claims (`Pot`, `Ante`,
  `Tricks` from each trick's ``winnerId``, `Net` from ``result``), so the audit checks
  the platform's money and trick counts against its own;
- the turned trump card is written as the up-card (under ``trump-card=stock`` only its
  suit counts).

A game with a fifth suit (``FiveSuit``, "stars") is not Bourré as this tool knows it and
is refused.  A document that is not a game (truncated, garbled) is reported with its
line and what is wrong, and the rest of the file is still read.  The records are built
by the BHH-JSON reader from the events written here, so they are checked as any.
"""

from __future__ import annotations

import json
from typing import IO, Iterator

from .. import record as r
from .jsonl import JsonReader, _Bad

MOST_BYTES = 64 * 1024 * 1024  # a file read as one document (not one game per line)
MOST_HANDS = 10_000  # hands in one chain
RANKS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K",
         14: "A"}
SUITS = {"spades": "s", "hearts": "h", "diamonds": "d", "clubs": "c"}


class MondayReader:
    """Streams one mondaynightpoker file as ``notation.Reader`` streams text: a ``Session``
    head and its ``Hand`` records per game, and ``SyntaxProblem`` values."""

    def __init__(self, path: str):
        self.path = path
        self.json = JsonReader(path)
        self.games = 0

    def read(self, stream: IO[bytes]) -> Iterator[r.Session | r.Hand | r.SyntaxProblem]:
        n, first = 1, stream.readline(MOST_BYTES + 1)
        while first and not first.strip():
            n, first = n + 1, stream.readline(MOST_BYTES + 1)
        try:
            one = json.loads(first) if first and len(first) <= MOST_BYTES else None
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            one = None
        if isinstance(one, dict):  # one game per line: a problem is named by its line
            yield from self._document(one, n)
            while line := stream.readline(MOST_BYTES + 1):
                n += 1
                if len(line) > MOST_BYTES:
                    yield self._problem(n, f"a line of more than {MOST_BYTES // 2**20} MB: not a game log")
                    while line and not line.endswith(b"\n"):  # the rest of that line
                        line = stream.readline(MOST_BYTES + 1)
                elif line.strip():
                    yield from self._line(line, n)
            return
        rest = stream.read(MOST_BYTES + 1 - len(first))
        text = first + rest
        if len(text) > MOST_BYTES:
            yield self._problem(1, f"a document of more than {MOST_BYTES // 2**20} MB: write one game per line")
            return
        try:
            doc = json.loads(text.decode("utf-8-sig"))
        except UnicodeDecodeError as e:
            yield self._problem(1, f"not UTF-8 text (byte {e.start + 1})")
            return
        except json.JSONDecodeError as e:
            yield self._problem(e.lineno + n - 1, f"not valid JSON: {e.msg} (column {e.colno}); the file may be "
                                "truncated")
            return
        except RecursionError:
            yield self._problem(1, "not valid JSON: nested too deep")
            return
        for k, game in enumerate(doc if isinstance(doc, list) else [doc], 1):
            yield from self._document(game, n, f"game {k}: " if isinstance(doc, list) else "")

    def _line(self, line: bytes, n: int):
        try:
            doc = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            yield self._problem(n, f"not valid JSON: {getattr(e, 'msg', 'not UTF-8 text')}; the line may be truncated")
            return
        except RecursionError:
            yield self._problem(n, "not valid JSON: nested too deep")
            return
        yield from self._document(doc, n)

    def _document(self, doc, line: int, which: str = ""):
        self.games += 1
        try:
            hands = _chain(doc)
            objects = [_session(hands, self.games)] + [_hand(h, k) for k, h in enumerate(hands, 1)]
            tags = self.json._tags(objects[0]["tags"])
            records = [self.json._hand(h, h["number"], line) for h in objects[1:]]
        except _Bad as bad:
            yield self._problem(line, f"{which}{bad.field}: {bad}; the game is not checked")
            return
        bad_tag = next((b for _, b in records if b), None)
        if bad_tag:
            yield self._problem(line, f"{which}{bad_tag}; the game is not checked")
            return
        yield r.Session(tags, index=self.games - 1, line=line, path=self.path)
        for hand, _ in records:
            yield hand

    def _problem(self, line: int, message: str) -> r.SyntaxProblem:
        return r.SyntaxProblem(self.path, line, 1, message, "", hand=None)


def _chain(doc) -> list[dict]:
    """The hands of a game, first to last (the document is the last, each naming its parent)."""
    hands = []
    while doc is not None:
        if not isinstance(doc, dict):
            raise _Bad("parent" if hands else "document", "expected a game log object")
        if len(hands) >= MOST_HANDS:
            raise _Bad("parent", f"a chain of more than {MOST_HANDS:,} hands")
        options = doc.get("options") or {}
        if not isinstance(options, dict):
            raise _Bad("options", "expected an object")
        if options.get("FiveSuit"):
            raise _Bad("options.FiveSuit", "a five-suit game (with stars) is not Bourré as this tool knows it")
        if not isinstance(doc.get("discards"), list) or not isinstance(doc.get("seats"), list):
            raise _Bad("parent" if hands else "document",
                       "expected a mondaynightpoker Bourré game log (with \"seats\" and \"discards\" lists)")
        hands.append(doc)
        doc = doc.get("parent")
    return hands[::-1]


def _int(v, where: str, least: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not least <= v <= r.CHIPS:
        raise _Bad(where, f"expected a whole number from {least}")
    return v


def _player(v, where: str) -> str:
    if isinstance(v, bool) or not isinstance(v, int) or not -2**63 <= v < 2**63:
        raise _Bad(where, "expected a player id (a whole number)")
    return f"P{v}"


def _card(v, where: str) -> str:
    if not isinstance(v, dict):
        raise _Bad(where, "expected a card like {\"rank\": 14, \"suit\": \"spades\"}")
    rank, suit = v.get("rank"), v.get("suit")
    if suit == "stars":
        raise _Bad(f"{where}.suit", "a card of the fifth suit (stars): a five-suit game is not checked")
    if type(rank) is not int or rank not in RANKS or not isinstance(suit, str) or suit not in SUITS:
        raise _Bad(where, "expected a rank from 2 to 14 and a suit (spades, hearts, diamonds, clubs)")
    return RANKS[rank] + SUITS[suit]


def _cards(v, where: str) -> list[str]:
    if not isinstance(v, list):
        raise _Bad(where, "expected a list of cards")
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(v)]


def _list(doc: dict, key: str) -> list:
    v = doc.get(key)
    if v is None:
        return []
    if not isinstance(v, list):
        raise _Bad(key, "expected a list")
    return v



def _session(hands: list[dict], game: int) -> dict:
    first = hands[0]
    seats = [_player(d.get("playerId") if isinstance(d, dict) else None, f"hand 1, discards[{i}].playerId")
             for i, d in enumerate(_list(first, "discards"))]
    tags = [["Event", f"mondaynightpoker game {game}"], ["Source", "mondaynightpoker"],
            ["Rules", "mondaynightpoker"], ["Ante", str(_int(first.get("ante"), "ante"))]]
    if seats:
        tags.append(["Seats", " ".join(seats)])
    return {"type": "session", "tags": tags}


def _hand(h: dict, number: int) -> dict:
    """One hand of the chain as a BHH-JSON hand object."""
    where = f"hand {number}"
    try:
        return {"type": "hand", "number": number, "events": _events(h)}
    except _Bad as bad:
        raise _Bad(f"{where}, {bad.field}", str(bad)) from None


def _events(h: dict) -> list[dict]:
    ante = _int(h.get("ante"), "ante")
    pot = _int(h.get("initialPot"), "initialPot")
    options = h.get("options") or {}
    discards = _list(h, "discards")
    order = []
    for i, d in enumerate(discards):
        if not isinstance(d, dict):
            raise _Bad(f"discards[{i}]", "expected an object")
        order.append(_player(d.get("playerId"), f"discards[{i}].playerId"))
    if len(set(order)) != len(order):
        raise _Bad("discards", "a player with two entries")
    ev: list[dict] = []
    if order:
        ev += [{"event": "seats", "players": order}, {"event": "dealer", "player": order[-1]}]
    # a new game antes (the server's InitialPot option is 0); a continuation does not
    anted = not _int(options.get("InitialPot", 0), "options.InitialPot")
    ev += [{"claim": "ante", "players": "all" if anted else "none"}, {"claim": "pot", "amount": pot}]
    deals = {}
    for i, s in enumerate(_list(h, "seats")):
        if not isinstance(s, dict):
            raise _Bad(f"seats[{i}]", "expected an object")
        p = _player(s.get("playerId"), f"seats[{i}].playerId")
        if s.get("startingHand") is not None:
            deals[p] = _cards(s.get("startingHand"), f"seats[{i}].startingHand")
    for p in order + [p for p in deals if p not in order]:
        if p in deals:
            ev.append({"event": "deal", "player": p, "cards": deals[p]})
    if h.get("trumpCard") is not None:
        ev.append({"event": "up", "card": _card(h["trumpCard"], "trumpCard")})
    for i, d in enumerate(discards):
        p = order[i]
        if d.get("folded"):
            ev.append({"event": "pass", "player": p})
            continue
        out, got = d.get("discarded"), d.get("newCards")
        play = {"event": "play", "player": p}
        if out is not None or got is not None:
            gone = _cards(out or [], f"discards[{i}].discarded")
            drawn = _cards(got or [], f"discards[{i}].newCards")
            play["discards"] = gone or 0
            if gone and drawn:
                play["draws"] = drawn
        ev.append(play)
    won: dict[str, int] = {}
    tricks = _list(h, "tricks")
    for i, t in enumerate(tricks):
        if not isinstance(t, dict):
            raise _Bad(f"tricks[{i}]", "expected an object")
        plays = []
        for j, pl in enumerate(_list(t, "plays")):
            if not isinstance(pl, dict):
                raise _Bad(f"tricks[{i}].plays[{j}]", "expected an object")
            plays.append({"player": _player(pl.get("playerId"), f"tricks[{i}].plays[{j}].playerId"),
                          "card": _card(pl.get("card"), f"tricks[{i}].plays[{j}].card")})
        if not plays:
            raise _Bad(f"tricks[{i}].plays", "a trick with no card")
        number = t.get("number", i + 1)
        ev.append({"event": "trick", "number": _int(number, f"tricks[{i}].number", 1), "plays": plays})
        if t.get("winnerId") is not None:
            w = _player(t.get("winnerId"), f"tricks[{i}].winnerId")
            won[w] = won.get(w, 0) + 1
    playing = [p for p, d in zip(order, discards) if not d.get("folded")]
    if tricks and sum(won.values()) == len(tricks):  # the server's count, every trick's winner given
        ev.append({"claim": "tricks", "counts": [[p, won.get(p, 0)] for p in playing]})
    result = h.get("result")
    if isinstance(result, dict) and order:
        ev.append({"claim": "net", "amounts": [[p, n] for p, n in _nets(result, order, ante if anted else 0)]})
    return ev


def _ids(result: dict, key: str) -> list[str]:
    out = []
    for i, x in enumerate(_list(result, key)):
        v = x.get("PlayerID", x.get("playerId")) if isinstance(x, dict) else x
        out.append(_player(v, f"result.{key}[{i}]"))
    return out


def _nets(result: dict, order: list[str], anted: int) -> list[tuple[str, int]]:
    """Each player's chip change for the hand as the server's result has it: the ante at
    the start of a new game, the pot paid by each player bourré, an ante paid at the end by
    each other loser, and the pot to a sole winner (``WinningAmount``)."""
    net = {p: -anted for p in order}
    old = _int(result.get("OldPot", 0), "result.OldPot")
    end = _int(result.get("Ante", 0), "result.Ante")
    for p in _ids(result, "PaidPot"):
        net[p] = net.get(p, 0) - old
    for p in _ids(result, "PaidAnte"):
        net[p] = net.get(p, 0) - end
    amount = _int(result.get("WinningAmount", 0), "result.WinningAmount")
    winners = _ids(result, "Winners")
    if amount and len(winners) == 1:
        net[winners[0]] = net.get(winners[0], 0) + amount
    return list(net.items())
