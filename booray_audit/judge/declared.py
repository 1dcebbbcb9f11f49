"""The hand before its tricks: the names it uses (a name not seated, or misspelt once), the
disputes, the trump, the declarations in turn and the draws (docs/writing-hands.md,
events)."""

from __future__ import annotations

from dataclasses import replace

from .. import record as r
from ..cards import UNKNOWN, card_str
from ..rules.engine import SUIT_NAMES
from .findings import DISPUTE_KINDS
from .readings import tally


class Declared:
    """Mixed into ``replay.HandReplay``: the record's checks before trick 1."""

    def _names(self, ev, strays: dict[str, tuple[str, int]]) -> None:
        """docs/writing-hands.md, events: with `Seats` given, a name that is not seated is a record error
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
        """docs/writing-hands.md, events: a dispute of a kind that does not exist, or against a player
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
        stock = self.rules.trump_card == "stock"  # the up-card is in nobody's hand
        if up is not None and self.dealer in deals and not stock:
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
        dealt = deals[self.dealer].cards if self.dealer in deals and not stock else ()
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
        seated = list(seated)
        # a limit for the first seats only (max-discard=6:3@5) needs the place from the dealer's left
        i = seated.index(self.dealer) if self.dealer in seated else None
        place = {} if i is None else {p: k for k, p in enumerate(seated[i + 1:] + seated[:i + 1])}
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
            most = self.rules.discard_limit(len(seated), place.get(d.player))
            if n > most:
                seat = place.get(d.player)
                where = (f" from seat {seat + 1} left of the dealer" if seat is not None and most !=
                         self.rules.discard_limit(len(seated), 7) else "")
                self.add("draw-limit", None, d.player, None,
                         f"{d.player} discarded {n} cards; at most {most} are allowed "
                         f"with {len(seated)} players{where}", f"{d.player} {d.action} {n}", "max-discard")
        return out


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
        names = dict.fromkeys(p for p, _ in trick.plays)  # in the order written: the errors come out so
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
