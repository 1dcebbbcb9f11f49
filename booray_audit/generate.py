"""Random legal sessions for tests, demos and benchmarks.

Bots deal, declare, draw and play under a rule profile, obeying every duty of
docs/rules.md, how a trick must be played and the cinch (the cinch included, judged from the bot's own view exactly as
the audit judges it).  With a violation rate, some plays are replaced by an
illegal card of a known kind; ``Injected`` lists them, so tests can check the
audit finds each one and nothing else.  When the stock runs out, the discards
made so far (not the drawing player's own) are shuffled into a new stock
(docs/rules.md, the deal and the draw); a bot forgets its own discards once such a reshuffle follows them.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from dataclasses import dataclass

from .cards import DECK, FULL_DECK, card_str, cards_of, mask_of, suit_mask
from .cinch.judge import judge
from .cinch.position import Position, others_out_of_trump, out_of_reach, reveal
from .rules.engine import beats, legal, winning
from .rules.profiles import Rules
from .rules.settle import Chain, Claims, Outcome
from .notation.writer import name as qname, tag_line

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy",
         "Mallory", "Oscar", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter")


@dataclass(frozen=True, slots=True)
class Injected:
    session: int
    hand: int
    trick: int
    player: str
    kind: str


class _Table:
    """One session's table: players in seat order and the rules."""

    def __init__(self, rng: random.Random, rules: Rules, players: list[str], violations: float,
                 known_discards: bool = True, throw_trumps: float = 0.0, recalls: float = 0.0):
        self.rng, self.rules, self.players, self.rate = rng, rules, players, violations
        self.recalls = recalls  # the share of injected violations taken back (a recall)
        self.known_discards = known_discards  # False: bots judge as if they forgot their discards
        self.throw_trumps = throw_trumps  # the share of draws that throw cards at random, trumps too
        self.injected: list[tuple[int, str, str]] = []
        self.recalled: list[tuple[int, str, int]] = []  # (trick, player, card taken back) this hand
        self.discarded: dict[str, int] = {}  # each bot's discards it knows are out of play

    # -- one hand ---------------------------------------------------------------
    def hand(self, dealer_i: int) -> tuple[list[str], dict]:
        rng, rules, players = self.rng, self.rules, self.players
        n = len(players)
        deck = list(DECK)
        rng.shuffle(deck)
        order = [players[(dealer_i + 1 + k) % n] for k in range(n)]  # dealer last
        dealer = players[dealer_i]
        hands = {p: deck[i * rules.cards:(i + 1) * rules.cards] for i, p in enumerate(order)}
        stock = deck[n * rules.cards:]
        up = hands[dealer][-1]
        trump = up >> 4
        lines = [f"Dealer {qname(dealer)}"]
        lines += [f"Deal {qname(p)} " + " ".join(card_str(c) for c in hands[p]) for p in order]
        lines.append(f"Up {card_str(up)}")
        active, passed = [], []
        self.discarded = {}
        most = rules.discard_limit(n)
        pile: list[int] = []   # discards not yet shuffled back
        in_pile: list[str] = []  # whose discards are in the pile
        folded: list[int] = []  # the hands of the players who passed, not yet shuffled back
        stood_pat = False

        def plays(i: int, p: str, so_far: int) -> bool:
            must_play = p == dealer and up & 15 == 14 and rules.ace_up_dealer_plays
            last_chance = so_far == 0 and i >= n - 2
            return any(c >> 4 == trump for c in hands[p]) or must_play or last_chance or rng.random() >= 0.6

        at_once = rules.declarations == "simultaneous"  # everyone shows at once, then the draw
        folded_first = rules.reshuffle == "folded-first"
        shown: list[bool] = []
        if at_once:
            for i, p in enumerate(order):
                shown.append(plays(i, p, sum(shown)))
            if folded_first:
                folded = [c for p, stays in zip(order, shown) if not stays for c in hands[p]]
        for i, p in enumerate(order):
            h = hands[p]
            if not (shown[i] if at_once else plays(i, p, len(active))):
                passed.append(p)
                lines.append(f"{qname(p)} pass")
                if folded_first and not at_once:
                    folded += h
                continue
            if self.throw_trumps and rng.random() < self.throw_trumps:  # the up-card may go
                keep, plain = rng.sample(h, len(h)), len(h)
            else:
                keep = sorted(h, key=lambda c: (c >> 4 == trump, c & 15), reverse=True)
                plain = sum(1 for c in h if c >> 4 != trump)
            k = min(rng.randint(0, most), len(stock) + len(folded) + len(pile), plain)
            out, got = keep[len(keep) - k:], stock[:k]
            del stock[:k]
            if len(got) < k and folded:  # the stock ran out: the folded hands make a new one
                stock, folded = folded, []
                rng.shuffle(stock)
                short = k - len(got)
                got += stock[:short]
                del stock[:short]
            if len(got) < k:  # the stock ran out: the others' discards make a new one
                short = k - len(got)
                stock += pile
                rng.shuffle(stock)
                for q in in_pile:
                    self.discarded[q] = 0
                pile, in_pile = [], []
                got += stock[:short]
                del stock[:short]
            hands[p] = [c for c in h if c not in out] + got
            active.append(p)
            pile += out
            in_pile.append(p)
            self.discarded[p] = mask_of(out) if self.known_discards else 0
            if p == dealer:
                stood_pat = k == 0
            if k:
                lines.append(f"{qname(p)} play {' '.join(map(card_str, out))} -> {' '.join(map(card_str, got))}")
            else:
                lines.append(f"{qname(p)} play")
        if at_once:  # shown at once: the lines may come in any order
            first = next(i for i, line in enumerate(lines) if line.startswith("Up "))
            said = lines[first + 1:]
            rng.shuffle(said)
            lines[first + 1:] = said
        info = {"active": active, "passed": passed, "dealer": dealer, "tricks": None, "violators": set()}
        if len(active) <= 1:
            info["walkover"] = active[0] if active else None
            return lines, info
        seats = [p for p in players if p in active]
        self.recalled, self.recallers = [], set()
        won, trick_lines, violators = self._play(seats, order, hands, trump, (up, dealer, stood_pat))
        lines += trick_lines
        lines += [f"Recall {qname(q)} {card_str(c)} {k}" for k, q, c in self.recalled]
        info.update(tricks=won, violators=violators, walkover=None,
                    recalled=self.recallers)
        lines.append("Tricks " + " ".join(f"{qname(p)} {won[p]}" for p in seats))
        return lines, info

    def _play(self, seats, order, hands, trump, upcard):
        """The tricks; ``upcard`` is (the up-card, the dealer, whether the dealer stood pat):
        every bot knows only the dealer can hold it, and that it does if it stood pat."""
        rules, rng = self.rules, self.rng
        up, dealer, stood_pat = upcard
        mine = {p: mask_of(hands[p]) for p in seats}
        idx = {p: i for i, p in enumerate(seats)}
        forb = [0] * len(seats)
        counts = [rules.cards] * len(seats)
        played = 0
        won = {p: 0 for p in seats}
        leader = next(p for p in order if p in seats)
        out, violators = [], set()
        inject_at = rng.randrange(rules.cards * len(seats)) if rng.random() < self.rate else -1
        step = 0
        for t in range(1, rules.cards + 1):
            i0 = idx[leader]
            turn = [seats[(i0 + k) % len(seats)] for k in range(len(seats))]
            cards: list[int] = []
            trick: list[tuple[int, int]] = []
            for p in turn:
                me = idx[p]
                hand = mine[p]
                unseen = FULL_DECK & ~played & ~hand & ~self.discarded.get(p, 0)
                cnt = tuple(0 if j == me else counts[j] for j in range(len(seats)))
                fb, holds = forb, ()
                if unseen >> up & 1:
                    d = idx.get(dealer)
                    fb = [f | (1 << up if j != d else 0) for j, f in enumerate(forb)]
                    if stood_pat and d is not None:
                        holds = tuple(1 << up if j == d else 0 for j in range(len(seats)))
                pos = Position(hand, unseen, trump, tuple(seats), p, cnt,
                               tuple(f & unseen for f in fb), tuple(trick), holds)
                inject = step == inject_at
                allowed, kinds = self._allowed(pos, cards, won[p], played, inject)
                card = None
                if inject:
                    card, kind = self._violate(hand, cards, trump, allowed, kinds)
                    if card is not None and self.recalls and rng.random() < self.recalls:
                        # seen and taken back before the next card: a legal one stands
                        self.injected.append((t, p, "recall"))
                        self.recalled.append((t, p, card))
                        self.recallers.add(p)
                        card, inject = None, False
                    elif card is not None:
                        self.injected.append((t, p, kind))
                        violators.add(p)
                    else:
                        inject_at += 1  # nothing illegal to play here: try the next play
                if card is None:
                    # throwing trumps, a bot plays its lowest allowed card half the time: the
                    # lowest trump a cinch allows, as high as the top by what it knows
                    low = self.throw_trumps and rng.random() < 0.5
                    card = (allowed & -allowed).bit_length() - 1 if low else rng.choice(cards_of(allowed))
                step += 1
                if not (inject and kind in ("renege", "failed-trump", "failed-beat")):
                    forb[me] |= reveal(card, cards, trump, rules)  # an illegal play shows nothing
                mine[p] &= ~(1 << card)
                counts[me] -= 1
                played |= 1 << card
                cards.append(card)
                trick.append((me, card))
            w = turn[winning(cards, trump)]
            won[w] += 1
            for k, q, c in self.recalled:
                if k == t and rng.random() < 0.5:  # else written after the tricks, with the number
                    out.append(f"Recall {qname(q)} {card_str(c)}")
                    self.recalled.remove((k, q, c))
            out.append(f"Trick {t}: " + ", ".join(f"{qname(p)} {card_str(c)}" for p, c in zip(turn, cards)))
            leader = w
        return won, out, violators

    def _allowed(self, pos: Position, cards, won, played, full: bool):
        """The bot's allowed cards after every duty, with the kinds a wrong card would be.

        The cinch is judged only when it could narrow the choice: exactly (``full``)
        when a violation is to be injected, else only if a random legal card breaks
        the duty a cinch would impose — as the audit judges it only for such plays.
        """
        rules, trump, hand = self.rules, pos.trump, pos.hand
        lg = legal(hand, cards, trump, rules)
        allowed = lg.cards
        duty, kind = self._duty(pos, cards, allowed, played)
        if duty is not None and allowed & ~duty:
            pick = self.rng.choice(cards_of(allowed))
            if full or not duty >> pick & 1:
                if judge(pos, won, rules):
                    allowed = duty
                else:
                    kind = None
            else:
                allowed, kind = 1 << pick, None  # within the duty either way: no need to judge
        else:
            kind = None
        if (not cards and kind is None and rules.lead_trump_when_others_void
                and hand & suit_mask(trump) and others_out_of_trump(pos)):
            if lg.cards & ~suit_mask(trump):
                # within what the cinch duty left (a trump the bot picked without judging it)
                allowed, kind = allowed & suit_mask(trump) or lg.cards & suit_mask(trump), "lead-trump"
        return allowed, (lg, kind)

    def _duty(self, pos: Position, cards, allowed, played):
        """The cards a cinch would oblige (docs/rules.md, the cinch), or None when it imposes nothing."""
        trump, hand, rules = pos.trump, pos.hand, self.rules
        if rules.cinch == "off":
            return None, None
        trumps = hand & suit_mask(trump)
        top = trumps.bit_length() - 1
        # out of play, as far as P knows: its discards, and what no opponent can hold
        played |= self.discarded.get(pos.me, 0) | out_of_reach(pos)
        if not cards:
            return (_equivalents(top, hand, played), "cinch-lead") if trumps else (None, None)
        if len(cards) == len(pos.seats) - 1 and rules.cinch_last:
            win = mask_of(c for c in cards_of(allowed) if _wins(c, cards, trump))
            return (win, "cinch-last") if win else (None, None)
        if allowed & trumps and (cards[0] >> 4 == trump or not hand & suit_mask(cards[0] >> 4)):
            return (_equivalents(top, hand, played) & allowed or allowed), "cinch-follow"
        return None, None

    def _violate(self, hand, cards, trump, allowed, kinds):
        """An illegal card and the finding kind it must raise, or (None, None)."""
        lg, duty_kind = kinds
        wrong = cards_of(hand & ~allowed)
        if not wrong:
            return None, None
        card = self.rng.choice(wrong)
        if lg.cards >> card & 1:
            return card, duty_kind  # legal by rules 1-3, against a cinch or lead-trump duty
        led = cards[0] >> 4
        if lg.reason in ("follow", "beat"):
            return card, "renege" if card >> 4 != led else "failed-beat"
        if lg.reason == "trump" or card >> 4 != trump:
            return card, "failed-trump"
        return card, "failed-beat"  # a trump too low to over-trump



def _wins(card, cards, trump) -> bool:
    return beats(card, cards[winning(cards, trump)], trump)


def _equivalents(top: int, hand: int, played: int) -> int:
    """The top trump and every trump of P's that no unplayed card outside P's hand
    separates from it (docs/rules.md, the cinch)."""
    out = 1 << top
    for rank in range((top & 15) - 1, 1, -1):
        c = (top & ~15) | rank
        if hand >> c & 1:
            out |= 1 << c
        elif not played >> c & 1:
            break
    return out


def generate(hands: int, players: tuple[int, int] = (4, 6), seed: int = 0,
             violations: float = 0.0, rules: Rules | None = None, session_hands: int = 40,
             known_discards: bool = True, throw_trumps: float = 0.0, recalls: float = 0.0,
             forfeits: float = 0.0):
    """Yield BHH lines; the generator's return value is the list of ``Injected`` violations.
    ``known_discards=False``: the bots judge the cinch as a record that gives discards only
    as counts lets the audit judge it (without their own discards known out of play).
    ``throw_trumps``: the share of draws that throw cards at random, trumps too (else a bot
    keeps its trumps), so a dealer may throw the up-card; with it, bots play their lowest
    allowed card half the time.  ``recalls``: the share of injected violations that the
    player takes back (a `Recall` line; a legal card stands; injected as `recall`).
    ``forfeits``: the share of hands in which a player forfeits the next deal (declared
    early); with it, half the hands after the first leave the dealer to the rotation."""
    from .rules.profiles import profile
    rules = rules or profile("standard")
    rng = random.Random(seed)
    made = 0
    session = 0
    injected: list[Injected] = []
    while made < hands:
        n = rng.randint(players[0], players[1])
        names = rng.sample(NAMES, n)
        table = _Table(rng, rules, names, violations, known_discards, throw_trumps, recalls)
        if session:
            yield ""
        yield tag_line("Event", f"Generated session {session + 1}")
        yield tag_line("Source", f"booray-audit generate --seed {seed}")
        yield tag_line("Date", (date(2026, 1, 1) + timedelta(days=session)).isoformat())
        yield tag_line("Rules", rules.profile.split("+")[0])  # a house file's base profile
        for k, v in rules.overrides:
            yield tag_line("Rule", f"{k}={v}")
        yield tag_line("Ante", str(rules.ante))
        yield tag_line("Seats", " ".join(f'"{p}"' if " " in p else p for p in names))
        chain = Chain(0)
        dealer_i = rng.randrange(n)
        owed: dict[str, int] = {}  # turns to deal forfeited, not yet skipped
        for number in range(1, min(session_hands, hands - made) + 1):
            lines, info = table.hand(dealer_i)
            recalled = frozenset(info.get("recalled", ()))
            if forfeits and rng.random() < forfeits:
                early = rng.choice(names)
                lines.append(f"{qname(early)} forfeits deal")
                owed[early] = owed.get(early, 0) + 1
            if rules.recall == "forfeit":
                for p in recalled:
                    owed[p] = owed.get(p, 0) + 1
            if forfeits and number > 1 and rng.random() < 0.5:
                lines = lines[1:]  # the `Dealer` line left out: the rotation says who dealt
            violators = frozenset(info["violators"]) | (recalled if rules.recall == "penalty" else frozenset())
            outcome = Outcome(number, tuple(names), tuple(info["active"]), info["tricks"],
                              violators, info.get("walkover"), not info["active"],
                              recalled=recalled if rules.recall == "forfeit" else frozenset())
            s = chain.settle(outcome, rules, Claims())
            yield ""
            yield f"Hand {number}"
            yield from lines
            if s.net is not None:
                yield "Net " + " ".join(f"{qname(p)} {v:+d}" if v else f"{qname(p)} 0" for p, v in s.net.items())
            for t, p, kind in table.injected:
                injected.append(Injected(session, number, t, p, kind))
            table.injected = []
            dealer_i = (dealer_i + 1) % n
            while owed.get(names[dealer_i]):  # a forfeited turn is skipped, then used up
                owed[names[dealer_i]] -= 1
                dealer_i = (dealer_i + 1) % n
            made += 1
        session += 1
    return injected


def generate_text(hands: int, **kw) -> tuple[str, list[Injected]]:
    gen = generate(hands, **kw)
    lines = []
    while True:
        try:
            lines.append(next(gen))
        except StopIteration as stop:
            return "\n".join(lines) + "\n", stop.value
