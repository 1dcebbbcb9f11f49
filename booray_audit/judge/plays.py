"""The rules of play checked at each card (docs/rules.md, how a trick must be played and the cinch and the findings): follow suit, trump when
void, beat the winning card, and the cinch duties, each with the card that proves a
breach; ``PlayChecks`` is the part of the hand's replay that judges one play."""

from __future__ import annotations

from ..cards import UNKNOWN, above, card_str, cards_of, suit_mask
from ..cinch.position import others_out_of_trump, out_of_reach, position
from ..rules.engine import SUIT_NAMES, beats, legal


# a key of the ``kept`` evidence: why the record leaves the duty named after it open
OPEN = "open "


class PlayChecks:
    """Mixed into ``replay.HandReplay``, which gives ``rules``, ``cinch``, ``findings``,
    ``add`` (a finding), ``undecided`` (a check left open), ``_cinch`` (the cinch
    judged before a play) and ``on_table`` (the trick's plays, player and card)."""

    def _check(self, t, p, c, prior, trump, know, won, full_trick) -> dict[str, str]:
        """At most one finding for this play, the first that applies (docs/rules.md, the findings).  Returns
        the play kinds the record shows the play kept, each with the evidence."""
        kept: dict[str, str] = {}
        if c == UNKNOWN:
            return kept
        if not prior:
            leading = f"{p} led trick {know.numbered(t)}"
            kept.update(dict.fromkeys(("renege", "failed-trump", "failed-beat", "cinch-follow", "cinch-last"), leading))
            self._lead_checks(t, p, c, trump, know, won, kept)
            return kept
        kept["cinch-lead"] = kept["lead-trump"] = f"{p} did not lead trick {know.numbered(t)}"
        if prior[0] == UNKNOWN:
            return kept  # the led suit is not known
        led = prior[0] >> 4
        suit = c >> 4
        held, suits, complete = know.held_besides(p, t)
        held_led = held & suit_mask(led)
        if suit == led:
            kept["renege"] = f"{p} followed {SUIT_NAMES[led]} with {_the(c)}"
        else:
            if held_led or led in suits:
                proof = card_str(_top(held_led)) if held_led else "?" + "shdc"[led]
                self.add("renege", t, p, c,
                         f"{p} played {_the(c)} on a {SUIT_NAMES[led][:-1]} lead while "
                         f"holding a {SUIT_NAMES[led][:-1]}",
                         f"held {proof}: {know.source(p, t, _top(held_led) if held_led else None, led)}",
                         "must-follow")
                return kept
            if not complete:
                return kept  # cannot prove the player was void in the led suit
            kept["renege"] = f"{p} held no {SUIT_NAMES[led][:-1]}"
        if trump is None:
            return kept
        # a card not shown (``??``) may be the one winning the trick: no card to beat is known
        hidden = next((q for q, x in self.on_table if x == UNKNOWN), None) if UNKNOWN in prior else None
        best = None if UNKNOWN in prior else _best(prior, trump)
        if best is None and (hidden is None or self.rules.trump_when_cannot_win != "must"):
            if hidden is not None:
                kept[OPEN + "failed-beat"] = kept[OPEN + "failed-trump"] = _hides(hidden, t, know)
            return kept
        trumps = held & suit_mask(trump)
        holds = bool(trumps) or trump in suits
        if suit == led or suit == trump or led == trump or not self.rules.must_trump:
            kept["failed-trump"] = (f"{p} followed suit" if suit == led else f"{p} trumped" if suit == trump
                                    else "no duty to trump")
        else:
            # a trump of unknown rank beats a plain card, but cannot be shown to beat a trump
            can_win = holds if best is None else bool(trumps & above(best)) if best >> 4 == trump else holds
            if holds and (self.rules.trump_when_cannot_win == "must" or can_win):
                proof = _top(trumps) if trumps else None
                self.add("failed-trump", t, p, c,
                         f"{p} was void in {SUIT_NAMES[led]} and held trump, but played {_the(c)}",
                         f"held {card_str(proof) if proof is not None else '?' + 'shdc'[trump]}: "
                         f"{know.source(p, t, proof, trump)}", "must-trump")
                return kept
            if not holds:
                kept["failed-trump"] = f"{p} held no trump"
            elif trump not in suits:
                kept["failed-trump"] = f"{p}'s trumps could not win the trick (trump-when-cannot-win=may)"
        if suit != led and suit != trump:  # a discard: no card to beat with
            kept["failed-beat"] = kept["renege"] if led == trump else f"{p} neither followed suit nor trumped"
        if best is None:  # under a card not shown
            if "failed-beat" not in kept:
                kept[OPEN + "failed-beat"] = _hides(hidden, t, know)
            return kept
        pool = 0  # a `?h`: the cards the record leaves it to be
        if c & 15 == 0:
            pool = know.pools.get((t, p), 0)
            if not pool:
                return kept
        if suit == led:
            if best >> 4 != led or self.rules.must_beat == "none":
                kept["failed-beat"] = f"{p} had no duty to beat" if best >> 4 == led else "a trump had won the trick"
            else:
                target = best
                if self.rules.must_beat == "previous":
                    target = next(x for x in reversed(prior) if x >> 4 == led)
                if self._beat(t, p, c, target, held, complete and led not in suits, know, kept, False, pool):
                    return kept
        if suit == trump != led:
            if best >> 4 != trump or not self.rules.must_overtrump:
                kept["failed-beat"] = f"{p}'s trump was the first in the trick" if best >> 4 != trump \
                    else "no duty to over-trump"
            elif self._beat(t, p, c, best, held, complete and trump not in suits, know, kept, True, pool):
                return kept
        if pool:
            return kept  # which card of the pool it was decides the cinch duties
        if self.rules.cinch == "off" or self.cinch is None:
            kept["cinch-follow"] = kept["cinch-last"] = "the cinch is not judged under these rules"
        else:
            self._cinch_follow(t, p, c, prior, best, trump, know, won, full_trick, kept)
        return kept

    def _beat(self, t, p, c, target, held, proven, know, kept, trumping, pool=0) -> bool:
        """The duty to beat ``target`` (rule 2; rule 3's over-trump when ``trumping``): a
        finding when P played under it holding a card of its suit that beats it (True);
        else what shows the play kept the duty, if the record shows it (``proven``: P's
        cards of that suit are all known by rank).  ``pool``: for a card of unknown rank,
        the cards it may be; it is judged when every one of them gives the same answer."""
        suit = target >> 4
        beaters = held & suit_mask(suit) & above(target)
        rank = c
        if pool:
            low, high = (pool & -pool).bit_length() - 1, _top(pool)
            if (low & 15) < (target & 15) <= (high & 15):
                return False  # some ranks it may be beat, some do not
            rank = high if (high & 15) < (target & 15) else low
        if (rank & 15) < (target & 15) and beaters:  # same suit: a lower rank does not beat
            proof = _top(beaters)
            played, does, rule = ((f"trumped with {_the(c)}", "over-trumps it", "must-overtrump")
                                  if trumping else (f"played {_the(c)}", "beats it", "must-beat"))
            if pool:
                *most, last = [card_str(x) for x in cards_of(pool)]
                played += (f" (it can only be the {', '.join(most)} or {last}: "
                           f"the record places every other {SUIT_NAMES[suit][:-1]} elsewhere)")
            self.add("failed-beat", t, p, c,
                     f"{p} {played} under the {card_str(target)} while holding the {card_str(proof)}, "
                     f"which {does}", f"held {card_str(proof)}: {know.source(p, t, proof, suit)}", rule)
            return True
        if (rank & 15) > (target & 15):
            kept["failed-beat"] = f"{_the(c)} {'over-trumped' if trumping else 'beat'} the {card_str(target)}"
        elif proven:
            kept["failed-beat"] = (f"{p} held no {'trump' if trumping else SUIT_NAMES[suit][:-1]} "
                                   f"above the {card_str(target)}")
        return False

    def _lead_checks(self, t, p, c, trump, know, won, kept):
        if self.cinch is None or self.rules.cinch == "off":
            kept["cinch-lead"] = "the cinch is not judged under these rules"
        elif trump is not None:
            hand = know.whole_hand(p, t)
            trumps = hand & suit_mask(trump) if hand is not None else 0
            if hand is not None and not trumps:
                kept["cinch-lead"] = f"{p} held no trump"
            elif trumps and not c & 15 and c >> 4 == trump:
                pass  # a trump the record gives by suit only: it may be the highest
            elif trumps:  # the cinch is judged only when the lead would break its duty
                top = _top(trumps)
                same, thrown = self._as_high(know, p, t, c, top, [])
                if same:
                    kept["cinch-lead"] = f"{p} led the highest trump (or one as high)"
                elif same is None:
                    pass  # a card between may have been played unseen: the duty cannot be shown broken
                elif thrown:
                    self._unwritten("cinch-lead", know, p, t, c, won, [], kept, top, thrown)
                elif self._duty("cinch-lead", know, p, t, c, won, [], kept, top,
                                f" and led {_the(c)} instead of the {card_str(top)}"):
                    return
        if not self.rules.lead_trump_when_others_void or trump is None or c >> 4 == trump:
            kept["lead-trump"] = "no duty to lead trump"
            return
        pos = position(know, p, t, [])
        trumps = pos.hand & suit_mask(trump) if pos else 0
        if trumps and others_out_of_trump(pos):
            proof = _top(trumps)
            self.add("lead-trump", t, p, c,
                     f"{p} led {_the(c)} holding trump when no other player could hold one",
                     f"held {card_str(proof)}: {know.source(p, t, proof, trump)}; every other "
                     "trump was played or shown missing from the others' hands",
                     "lead-trump-when-others-void")
        elif pos is not None:
            kept["lead-trump"] = f"{p} held no trump" if not trumps else "another player could hold a trump"

    def _cinch_follow(self, t, p, c, prior, best, trump, know, won, full_trick, kept):
        """The cinch duties of a card played after the lead (``best``: the card winning the
        trick before it)."""
        hand = know.whole_hand(p, t)
        if hand is None:
            return
        led = prior[0] >> 4
        last = full_trick and len(prior) == len(know.active) - 1
        if not last:
            kept["cinch-last"] = f"{p} was not last to play"
        if last and self.rules.cinch_last:
            kept["cinch-follow"] = f"{p} was last to play"
            winners = legal(hand, prior, trump, self.rules).cards & _beaters(best, trump)
            if not winners or beats(c, best, trump):
                kept["cinch-last"] = f"{p} won the trick" if winners else f"{p} could not win the trick"
                return
            top = _top(winners)
            self._duty("cinch-last", know, p, t, c, won, prior, kept, top,
                       f", played last and could have won with the {card_str(top)}, but played {_the(c)}")
            return
        if last:  # cinch-last=no: the follow duty still applies, as before
            kept["cinch-last"] = "no cinch-last duty under these rules"
        trumps = hand & suit_mask(trump)
        if not trumps or led != trump and hand & suit_mask(led):  # following a plain suit: no trump is legal
            kept["cinch-follow"] = "no trump was legal"
            return
        if not legal(hand, prior, trump, self.rules).cards & trumps:
            kept["cinch-follow"] = "no trump was legal"
            return
        top = _top(trumps)
        same, thrown = self._as_high(know, p, t, c, top, prior)
        if same:
            kept["cinch-follow"] = f"{p} played the highest trump (or one as high)"
            return
        if same is None:
            return  # a card between may have been played unseen: the duty cannot be shown broken
        if thrown:
            self._unwritten("cinch-follow", know, p, t, c, won, prior, kept, top, thrown)
            return
        self._duty("cinch-follow", know, p, t, c, won, prior, kept, top,
                   f" and could trump, but played the {card_str(c)} instead of the {card_str(top)}")

    def _as_high(self, know, p, t, c, top, prior) -> tuple[bool | None, int]:
        """Whether P's ``c`` is as high as its top trump (docs/rules.md, the cinch: no card still in play
        outside P's hand lies between; those no opponent can hold, from what their plays
        revealed, are out of play): (True, 0), (None, 0) when a card between may have been
        played unseen, (False, cards) when the cards between may all be P's discards the
        record does not write, else (False, 0)."""
        same = know.equivalent(p, t, c, top, prior)
        if same is not False or c >> 4 != top >> 4:
            return same, 0
        pos = position(know, p, t, prior)
        between = know.separating(p, t, c, top, prior) & ~(out_of_reach(pos) if pos is not None else 0)
        if not between:
            return True, 0
        left, may = know.open_discards(p)
        return False, between if not between & ~may and between.bit_count() <= left else 0

    def _unwritten(self, kind, know, p, t, c, won, prior, kept, top, thrown) -> None:
        """A play that breaks duty ``kind`` unless P threw ``thrown`` in the draw, which the
        record does not say: undecidable where P had a cinch, never a finding."""
        cinch = self._cinch(kind, know, p, t, c, won, prior)
        if cinch:
            cards = " and ".join(card_str(x) for x in reversed(cards_of(thrown)))
            self.undecided(kind, t, p, c, f"{p} had a cinch ({cinch.why}) and played {_the(c)}, not the "
                           f"{card_str(top)}; the record does not show {p}'s discards, and had {p} thrown "
                           f"the {cards}, the {card_str(c)} was as high")
        elif cinch is None:
            self._no_cinch(kind, know, p, kept)

    def _no_cinch(self, kind, know, p, kept) -> None:
        """P had no cinch by what the record shows: the duty kept, unless P knew discards the
        record does not show (a card known out of play can only add sure tricks)."""
        left, may = know.open_discards(p)
        if left and may:
            kept[OPEN + kind] = (f"by what the record shows {p} had no cinch, but the record does not show "
                                 f"the cards {p} threw, which {p} knew: they may have made one")
        else:
            kept[kind] = f"{p} had no cinch"

    def _duty(self, kind, know, p, t, c, won, prior, kept, held, broke) -> bool:
        """Judge the cinch for a play that would break duty ``kind``: the finding (True) when
        P had one; that the play kept the duty when P had none; nothing when unknown."""
        cinch = self._cinch(kind, know, p, t, c, won, prior)
        if cinch:
            self.add(kind, t, p, c, f"{p} had a cinch ({cinch.why}){broke}",
                     f"{cinch.why}; held {card_str(held)}", "cinch-last" if kind == "cinch-last" else "cinch")
            return True
        if cinch is None:
            self._no_cinch(kind, know, p, kept)
        return False


def _hides(player: str, t: int, know) -> str:
    """Why a duty to beat is open under a card not shown."""
    return (f"{player}'s card at trick {know.numbered(t)} is not shown (??): it may have been "
            "the card winning the trick, so which card was there to beat is not known")


def _the(card: int) -> str:
    """"the 7c", or "a club" for a card whose rank the record does not give."""
    return f"the {card_str(card)}" if card & 15 else f"a {SUIT_NAMES[card >> 4][:-1]}"


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _beaters(best: int, trump: int) -> int:
    """The cards that beat ``best`` (engine.beats): higher of its suit, and any trump if
    it is not one."""
    mask = above(best)
    return mask if best >> 4 == trump else mask | suit_mask(trump)


def _best(prior, trump) -> int | None:
    """The card winning the trick so far; None when a card of unknown rank may be."""
    led = prior[0] >> 4
    best = None
    for c in prior:
        suit = c >> 4
        if not c & 15:
            if suit == led or suit == trump:
                return None  # an unknown rank in a suit that could be winning
        elif best is None:
            if suit == led or suit == trump:
                best = c
        elif suit == best >> 4:
            if c > best:  # the same suit: the higher rank (engine.beats)
                best = c
        elif suit == trump:
            best = c
    return best
