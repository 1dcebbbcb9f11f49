"""A card taken back (docs/rules.md, recalls): `Recall NAME CARD [TRICK]` says NAME played
CARD and took it back before the next player played; the trick line shows the card that
stood.  The card taken back is checked as if it had stood (held? illegal?), and the recall
is reported as a `recall` finding whatever it shows; the card that stood is judged as
every play is, by the walk."""

from __future__ import annotations

from .. import record as r
from ..cards import UNKNOWN, card_str, cards_of, cards_text
from .plays import OPEN

_CONSEQUENCE = {
    "forfeit": "no penalty, but no share of this pot and the next turn to deal forfeited",
    "penalty": "paid as a violation (recall=penalty)",
    "free": "no penalty (recall=free)",
}


class Recalls:
    """Mixed into ``replay.HandReplay``, after the tricks are walked (``won_at``: the
    tricks each player had won before each trick)."""

    def _recalls(self, ev, know, trump) -> None:
        tricks = know.tricks
        place = 0  # the next trick line's place, for a recall that names no trick
        for e in ev:
            if type(e) is r.Trick:
                place += 1
                continue
            if type(e) is not r.Recall:
                continue
            if e.trick is None:
                t = place + 1 if place < len(tricks) else None
            else:
                t = next((k for k in range(1, len(tricks) + 1) if know.numbered(k) == e.trick), None)
            self._recall(e, t, know, trump)

    def _recall(self, e: r.Recall, t: int | None, know, trump) -> None:
        p, c = e.player, e.card
        where = f"trick {e.trick}" if e.trick is not None else "the next trick"
        if p in self.unseated or p in self.skip:
            return  # an unknown-player or a contradicted hand: reported already
        if t is None:
            self.add("not-held", None, p, c, f"{p} took back the {card_str(c)} at {where}, which the record does not show",
                     f"line {e.line}: Recall {p} {card_str(c)}" + (f" {e.trick}" if e.trick is not None else ""))
            return
        plays = know.tricks[t - 1].plays
        k = next((i for i, (q, _) in enumerate(plays) if q == p), None)
        number = know.numbered(t)
        if k is None:
            self.add("not-held", t, p, c, f"{p} took back the {card_str(c)} at trick {number}, "
                     f"but trick {number} has no card of {p}'s",
                     "Trick " + ", ".join(f"{q} {card_str(x)}" for q, x in plays))
            return
        stood = plays[k][1]
        wrong = self._not_held(p, c, t, stood, know)
        if wrong:
            self.add("not-held", t, p, c, f"{p} took back the {card_str(c)} at trick {number}, "
                     f"which {p} did not hold", wrong)
            return
        shown = self._as_played(t, k, p, c, trump, know)
        instead = f"and played the {card_str(stood)} instead" if stood != UNKNOWN else "and played another card"
        self.add("recall", t, p, c, f"{p} took back the {card_str(c)} at trick {number} {instead}: "
                 + _CONSEQUENCE[self.rules.recall], shown, "recall")

    def _not_held(self, p, c, t, stood, know) -> str | None:
        """How the record shows P did not hold ``c`` at trick t, if it does."""
        if c == UNKNOWN or not c & 15:
            return None
        if c == stood:
            return f"the {card_str(c)} is the card that stood in the trick line"
        for q, pl in know.plays.items():
            for k, x in pl:
                if x == c and (q != p or k < t):
                    return f"{q} played the {card_str(c)} at trick {know.numbered(k)}"
        whole = know.whole_hand(p, t)
        if whole is not None and not whole >> c & 1:
            return f"{p}'s hand at trick {know.numbered(t)} is known: {cards_text(cards_of(whole))}"
        return None

    def _as_played(self, t, k, p, c, trump, know) -> str:
        """What the card taken back would have been, had it stood: the finding it would
        have got, the rules it kept, or why the record does not show."""
        if c == UNKNOWN or not c & 15:
            return "the card taken back is not shown, so whether it broke a rule is not known"
        plays = list(know.tricks[t - 1].plays)
        plays[k] = (p, c)
        held = know.held_besides(p, t)
        stood = know.tricks[t - 1].plays[k][1]
        mask, suits, complete = held
        if stood != UNKNOWN and stood & 15:
            mask |= 1 << stood
        elif stood != UNKNOWN:
            suits += (stood >> 4,)
        else:
            complete = False
        saved, on_table = know._held.get((p, t)), self.on_table
        know._held[(p, t)] = (mask & ~(1 << c), suits, complete)
        before, open_ = len(self.findings), len(self.undecidable)
        self.on_table = tuple(plays)
        try:
            kept = self._check(t, p, c, [x for _, x in plays[:k]], trump, know,
                               self.won_at.get(t, {}), len(plays) == len(self.know.active))
        finally:
            know._held[(p, t)] = saved
            if saved is None:
                del know._held[(p, t)]
            self.on_table = on_table
        found = self.findings[before:]
        del self.findings[before:], self.undecidable[open_:]
        if found:
            f = found[0]
            return f"had it stood, the {card_str(c)} was a {f.kind}: {f.message} ({f.evidence})"
        shown = [why for kind, why in kept.items() if not kind.startswith(OPEN)]
        if not shown:
            return f"whether the {card_str(c)} broke a rule is not shown"
        return f"the {card_str(c)} broke no rule the record shows: " + "; ".join(dict.fromkeys(shown))
