"""The tricks walked in order (docs/rules.md, how a trick must be played): each trick's
winner and the next lead, a lead out of turn and what it puts in doubt, a card left out,
and each play checked (``plays``)."""

from __future__ import annotations

from .. import record as r
from ..cards import UNKNOWN
from .findings import Undecidable
from .plays import _the
from .readings import MOST_IN_DOUBT, borne_out, each_way, led_next, may_have_won, may_win, sure_winner


class TrickWalk:
    """Mixed into ``replay.HandReplay``: trick play."""

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
        rotate = self.rules.lead == "rotate"
        for t, trick in enumerate(tricks, 1):
            if self.won_at is not None:  # a recall is judged after the walk (recalls.py)
                self.won_at[t] = dict(won)
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
                if credited is not None and not rotate:  # a card of the trick before may be written wrong
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
            if rotate:  # lead=rotate: the next player round the table from this trick's leader
                cycle = know.cycle
                leader_expected = (cycle[(cycle.index(leader) + 1) % len(cycle)]
                                   if in_order and cycle and leader in cycle else None)
                inherited = False
            if leader_expected in self.unseated:
                leader_expected = None
            if w is None and nxt is not None and nxt in won and not doubt and (
                    len(cards) < playing  # short: the lead may be the card left out
                    or any(may_win(trick.plays, nxt, s) for s in suits)):
                winner = nxt  # docs/writing-hands.md, what a gap in the record hides: the next leader settles an unknown winner
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
        """docs/rules.md, the findings `missing-play`: the active players a trick lacks while later tricks
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
    if twice:  # the slip itself, not the order it upsets
        named = list(dict.fromkeys(p for i, p in enumerate(players) if p in players[:i]))
        left = [q for q in know.active if q not in players]
        said = f"{' and '.join(named)} {'is' if len(named) == 1 else 'are'} named twice in trick {number}"
        if set(named) == set(players):
            said += ": two tricks may be written as one"
        elif left:
            said += (f", and {' and '.join(left)} not at all: a card written under {named[0]}'s name may be "
                     + (f"{left[0]}'s" if len(left) == 1 else "another player's"))
        return named[0], said
    order = know.order_from(leader)
    # a last trick short of cards may lack any of them: its players in order with gaps
    if order and players != order[:len(players)] and not (len(players) < in_hand and _in_order(players, order)):
        bad = next((p for p, q in zip(players, order) if p != q),
                   players[min(len(order), len(players) - 1)])  # more plays than players
        return bad, f"{bad} played out of turn at trick {number} (play goes clockwise: {', '.join(order)})"
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
