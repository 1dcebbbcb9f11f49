"""The moves of the exact search: whose turn it is, the cards P may play, and the
adversary's plays for the opponents, unseen cards placed lazily within what their plays
revealed (the dangerous ones first)."""

from __future__ import annotations

from ..cards import suit_mask
from ..rules.engine import beats, winning
from .canon import _canon, _choices, _mask
from .position import HOLD, _feasible, reveal, top_trumps


class Moves:
    """Mixed into ``solver.Solver``."""

    def _players(self, counts, trick) -> int:
        """How many play to the current trick: P and every opponent still holding cards."""
        played = {s for s, _ in trick}
        return sum(1 for i, c in enumerate(counts) if i == self.me or c > 0 or i in played)

    def _next(self, last, counts, trick):
        played = {s for s, _ in trick}
        n = len(counts)
        i = last
        for _ in range(n):
            i = (i + 1) % n
            if i not in played and (i == self.me or counts[i] > 0):
                return i
        return self.me

    def _finish(self, hand, unseen, counts, forb, trick, k):
        cards = [c for _, c in trick]
        i = winning(cards, self.trump)
        w = trick[i][0]
        hand, unseen, forb, _ = _canon(hand, unseen, forb)
        if w == self.me:
            return self._p(hand, unseen, counts, forb, (), k - 1)
        if hand.bit_count() < k:
            return False
        # an opponent won: the adversary leads the next trick
        if top_trumps(hand, self._captors(unseen, counts, forb), self.trump) >= k:
            return True
        leaders = [w]
        if self.relaxed:
            forb = self._relax(hand, unseen, forb)  # P's card in the trick no longer counts
            if self._blank(hand) >> cards[i] & 1:
                # ranks of a suit P lacks are blank: any seat that followed it may have won
                leaders = [j for j, c in trick if c >> 4 == cards[i] >> 4]
        return all(self._against(((hand, unseen & ~(1 << c), cnt, fb, ((w, c),), k)
                                  for c, cnt, fb in self._adversary(w, hand, unseen, counts, forb, ())))
                   for w in leaders)

    def _held(self, hand, trick) -> int:
        """P's hand and P's card in this trick."""
        for j, c in trick:
            if j == self.me:
                return hand | 1 << c
        return hand

    def _blank(self, hand) -> int:
        """The plain suits P holds no card of (P never will again)."""
        out = 0
        for suit in range(4):
            m = suit_mask(suit)
            if suit != self.trump and not hand & m:
                out |= m
        return out

    def _relax(self, hand, unseen, forb):
        """The relaxed game (a stronger adversary, so a cinch there is a cinch): in the
        suits P lacks, ranks are blank — no seat is known to lack some of a suit's cards
        and not all (it may hold any), following shows nothing, and any seat that
        followed may win the trick.  Only voids stay known."""
        blank = self._blank(hand)
        if not blank:
            return forb
        out = []
        for f in forb:
            for suit in range(4):
                m = suit_mask(suit) & blank
                if m and f & m and unseen & m & ~f:
                    f &= ~m
            out.append(f)
        return tuple(out)

    def _reveal(self, c, cards, best, blank) -> int:
        """``reveal``, except that following a blank suit (relaxed game) shows nothing."""
        if cards and c >> 4 == cards[0] >> 4 and blank >> c & 1:
            return 0
        return reveal(c, cards, self.trump, self.rules, best)

    def _against(self, children) -> bool:
        """Does P succeed after every adversary move?  In the full search each move is first
        probed against the restricted adversary (cheap, and a loss there is a loss), so a
        refutation anywhere among the moves is found before any move is searched in full."""
        if self.width is not None:
            return all(self._p(*child) for child in children)
        children = list(children)
        saved = self._memo
        self.width, self._memo = 1, self._probes[self.relaxed]
        try:
            lost = any(not self._p(*child) for child in children)
        finally:
            self.width, self._memo = None, saved
        return not lost and all(self._p(*child) for child in children)

    def _adversary(self, seat, hand, unseen, counts, forb, trick):
        """The cards the adversary can give ``seat`` to play, most dangerous first,
        with the counts and constraints after each (checked lazily, as they are tried)."""
        cards = [c for _, c in trick]
        pool = unseen & ~forb[seat]
        blank = self._blank(self._held(hand, trick)) if self.relaxed else 0
        choices = _choices(pool, hand | _mask(cards), unseen, forb, counts, seat)
        if blank:  # a blank suit's lowest card stands for the others, but for a card the seat must hold
            held = forb[seat] >> HOLD
            choices = [c for c in choices if not blank >> c & 1 or held >> c & 1]
            for suit in range(4):
                m = pool & blank & suit_mask(suit) & ~held
                if m:
                    choices.append((m & -m).bit_length() - 1)
        cnt = counts[:seat] + (counts[seat] - 1,) + counts[seat + 1:]
        key, shows = self._danger(seat, trick, hand, unseen, forb, counts)
        best = cards[winning(cards, self.trump)] if cards else None
        if shows:
            moves = sorted(((key(c, extra), c, extra) for c in choices
                            for extra in (self._reveal(c, cards, best, blank),)))
        else:  # what each move shows is needed only for the moves tried
            moves = sorted((key(c, 0), c, -1) for c in choices)
        tried = 0
        for _, c, extra in moves:
            if extra < 0:
                extra = self._reveal(c, cards, best, blank)
            rest = unseen & ~(1 << c)
            live = rest | rest << HOLD
            fb = tuple(f & live for f in forb[:seat] + (forb[seat] | extra,) + forb[seat + 1:])
            if _feasible(rest, cnt, fb, -1):
                yield c, cnt, fb
                tried += 1
                if self.width is not None and tried >= self.width:
                    return

    def _keeper(self, unseen, forb, counts) -> int:
        """The first opponent that may still hold a trump (policies 2 and 3 keep them there)."""
        trumps = unseen & suit_mask(self.trump)
        return next((j for j, n in enumerate(counts) if n and trumps & ~forb[j]), -1)

    def _danger(self, seat, trick, hand, unseen, forb, counts):
        """Move order for the adversary, most dangerous to P first: a key of (card,
        cards the move shows the seat cannot hold), and whether it reads the latter.

        Policy 0: lead high in a plain suit P must follow; once P has played, one
        opponent beats P's card as cheaply as it can and the others play what shows
        the least (a low trump under P's rather than a void that gives up every trump
        kept to capture P's later ones).  Policy 1: lead and follow with high trumps,
        to draw P's trumps early.  Policy 2: the trumps stay in one hand (``_keeper``),
        which leads them high; the other seats capture when they can, else show void.
        Policy 3: as 2, but only the keeper captures (the others keep their trumps out
        of P's way, so the keeper's stay for P's lower ones)."""
        trump = self.trump
        trumps = unseen & suit_mask(trump)
        cards = [c for _, c in trick]

        def cost(extra):
            return (extra & trumps).bit_count(), (extra & unseen).bit_count()
        if not cards and self.policy in (1, 2, 3):  # draw P's trumps with high ones
            return (lambda c, extra: (c >> 4 != trump, -(c & 15))), False
        if self.policy == 1:
            best = cards[winning(cards, trump)]
            return (lambda c, extra: (not beats(c, best, trump), -(c & 15))), False
        if not cards:
            def lead(c, extra):
                mine = hand & suit_mask(c >> 4)
                if c >> 4 != trump and mine and c > mine.bit_length() - 1:
                    return (0, -(c & 15))  # P must follow under it
                return (1 if c >> 4 != trump and not mine else 2, c & 15)
            return lead, False
        # policy 2 keeps the trumps together in one hand: the other seats show void
        keep_apart = self.policy in (2, 3) and seat != self._keeper(unseen, forb, counts)
        if keep_apart and self.policy == 3:  # only the keeper captures
            return (lambda c, extra: (c >> 4 == trump, c & 15)), False
        w = winning(cards, trump)
        if trick[w][0] == self.me:
            best = cards[w]

            if keep_apart:
                return (lambda c, extra: (not beats(c, best, trump), c >> 4 == trump, c & 15)), False

            def capture(c, extra):
                if beats(c, best, trump):
                    return (0, c >> 4 == trump, c & 15)
                return (1, cost(extra), c >> 4 == trump, c & 15)
            return capture, True
        if any(j == self.me for j, _ in trick):
            if keep_apart:
                return (lambda c, extra: (c >> 4 == trump, c & 15)), False
            return (lambda c, extra: (cost(extra), c >> 4 == trump, c & 15)), True
        return (lambda c, extra: (c >> 4 == trump, c & 15)), False
