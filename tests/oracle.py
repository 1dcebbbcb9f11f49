"""A brute-force oracle for the cinch solver, on reduced decks.

It shares no reasoning with the solver: it enumerates every deal of the unseen
cards to the opponents that makes every recorded play legal (checked with the
engine on the reconstructed hands), and at each opponent's turn lets the
adversary pick any card that is legal in at least one deal still possible.
P's value is the max over its legal cards of the min over those choices.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from booray_audit.cards import cards_of, mask_of
from booray_audit.cinch.position import Position, reveal
from booray_audit.rules.engine import legal, winning
from booray_audit.rules.profiles import profile, with_toggle

# the trick rules the solver is checked under: the profiles' and the toggles that change them
VARIANTS = (profile("standard"), profile("basic"), with_toggle(profile("standard"), "must-beat", "previous"),
            with_toggle(profile("standard"), "trump-when-cannot-win", "may"),
            with_toggle(profile("standard"), "must-trump", "no"))  # a trump played must still over-trump


def random_position(rng: random.Random, rules, suits=3, ranks=5, hand_size=3, players=(2, 4),
                    upcard=False, tricks_first=None):
    """Deal a reduced deck, play a random legal stretch; return the view of the player
    about to play, with the facts the oracle needs.  ``upcard``: one opponent's card is
    public (as the up-card is): that opponent holds it until it plays it.  The view comes
    after ``tricks_first`` tricks at the earliest (default: one with 4 players or more,
    to keep the oracle's deal count small)."""
    players = rng.randint(*players)
    deck = [s * 16 + r for s in range(suits) for r in range(15 - ranks, 15)]
    rng.shuffle(deck)
    hands = [set(deck[i * hand_size:(i + 1) * hand_size]) for i in range(players)]
    trump = rng.randrange(suits)
    # stop before P's play at a random point (4 players or more: after the first trick, to
    # keep the oracle's deal count small)
    first = players * (tricks_first if tricks_first is not None else players >= 4)
    stop = rng.randrange(first, players * hand_size)
    return _play_to(rng, rules, players, hands, trump, deck, stop, upcard)


def _play_to(rng, rules, players, hands, trump, deck, stop, upcard, choose=None):
    """Play legal cards (``choose`` picks among the options; random by default) up to
    play number ``stop``; return the view there."""
    choose = choose or rng.choice
    public = None
    if upcard:
        dealer = rng.randrange(players)
        public = (dealer, rng.choice(sorted(hands[dealer])))
    history = []  # (trick, seat, card, hand before the play)
    leader, step, trick_no = 0, 0, 0
    for trick_no in range(len(hands[0])):
        cards: list[int] = []
        order = [(leader + k) % players for k in range(players)]
        for seat in order:
            if step == stop:
                return _view(rules, players, hands, trump, history, cards, order, seat, deck, public)
            options = cards_of(legal(mask_of(hands[seat]), cards, trump, rules).cards)
            c = choose(options)
            history.append((trick_no, seat, c, frozenset(hands[seat])))
            hands[seat].discard(c)
            cards.append(c)
            step += 1
        leader = order[winning(cards, trump)]
    raise AssertionError("stop beyond the hand")


def _view(rules, players, hands, trump, history, cards, order, me, deck, public=None):
    played = mask_of(c for _, _, c, _ in history)
    unseen = mask_of(deck) & ~played & ~mask_of(hands[me])
    counts = [len(h) for h in hands]
    forb = [0] * players
    tricks: dict[int, list[int]] = {}
    for t, seat, c, _ in history:
        seen = tricks.setdefault(t, [])
        if seat != me:
            forb[seat] |= reveal(c, seen, trump, rules)
        seen.append(c)
    counts[me] = 0
    cur = tuple((s, c) for s, c in zip(order, cards))
    holds = ()
    if public is not None and public[0] != me and unseen >> public[1] & 1:
        holds = tuple(1 << public[1] if j == public[0] else 0 for j in range(players))
        forb = [f | (1 << public[1] if j != public[0] else 0) for j, f in enumerate(forb)]
    else:
        public = None
    pos = Position(mask_of(hands[me]), unseen, trump, tuple(f"p{i}" for i in range(players)),
                   f"p{me}", tuple(counts), tuple(f & unseen for f in forb), cur, holds)
    facts = {"players": players, "me": me, "history": history, "hand": frozenset(hands[me]),
             "unseen": frozenset(cards_of(unseen)), "counts": counts, "trump": trump,
             "trick": cur, "public": public}
    return pos, facts


def oracle_value(facts, rules) -> int:
    """The most tricks P can make for sure from this point (the current trick included)."""
    me, players, trump = facts["me"], facts["players"], facts["trump"]
    opponents = [s for s in range(players) if s != me]
    unseen = sorted(facts["unseen"])
    size = facts["counts"]
    deals = []
    for combo in _deals(unseen, [size[o] for o in opponents]):
        hands = dict(zip(opponents, combo))
        public = facts.get("public")
        if public is not None and public[1] not in hands[public[0]]:
            continue  # everyone saw that card: its holder still has it
        if _consistent(hands, facts, rules):
            deals.append(tuple(mask_of(hands[o]) for o in opponents))  # hands as card bit masks
    index = {o: i for i, o in enumerate(opponents)}

    @lru_cache(maxsize=None)
    def value(hand, trick, deals):
        if not hand and not trick:
            return 0
        played = {s for s, _ in trick}
        if len(trick) == players:
            cards = [c for _, c in trick]
            w = trick[winning(cards, trump)][0]
            return (w == me) + value(hand, (), deals) if w == me else value_lead(w, hand, deals)
        seat = me if not trick else next((trick[-1][0] + k) % players for k in range(1, players)
                                         if (trick[-1][0] + k) % players not in played)
        return turn(seat, hand, trick, deals)

    def value_lead(w, hand, deals):
        if not hand:
            return 0
        return turn(w, hand, (), deals)

    @lru_cache(maxsize=None)
    def options(hand, cards):
        return cards_of(legal(hand, list(cards), trump, rules).cards)

    def turn(seat, hand, trick, deals):
        cards = tuple(c for _, c in trick)
        if seat == me:
            return max(value(hand & ~(1 << c), trick + ((me, c),), deals) for c in options(hand, cards))
        i = index[seat]
        by_card: dict[int, list] = {}
        for d in deals:
            h = d[i]
            for c in options(h, cards):
                by_card.setdefault(c, []).append(d[:i] + (h & ~(1 << c),) + d[i + 1:])
        return min(value(hand, trick + ((seat, c),), frozenset(ds)) for c, ds in by_card.items())

    return value(mask_of(facts["hand"]), facts["trick"], frozenset(deals))


def _deals(cards, sizes):
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for more in _deals(rest, sizes[1:]):
            yield (frozenset(first),) + more


def _consistent(hands, facts, rules) -> bool:
    """Every recorded play of every opponent is legal with the hand this deal gives it."""
    trump = facts["trump"]
    later = {o: set(h) for o, h in hands.items()}
    plays = list(facts["history"])  # the current trick's plays are in it too
    # rebuild each opponent's hand at each of its plays: its cards now plus those it played since
    for o in hands:
        own = [(k, c) for k, (_, s, c, _) in enumerate(plays) if s == o]
        for j, (k, c) in enumerate(own):
            holding = later[o] | {x for _, x in own[j:]}
            t = plays[k][0]
            prior = [x for (tt, _, x, _) in plays[:k] if tt == t]
            if not legal(mask_of(holding), prior, trump, rules).cards >> c & 1:
                return False
    return True


def every_position(rules, suits=2, ranks=4, hand_size=3, upcard=True):
    """Every P decision of every 2-player deal of a small deck (each player in turn is P),
    along every line of legal play: (position, facts).  With ``upcard``, the second
    player's last card is public, as the dealer's up-card is."""
    deck = [s * 16 + r for s in range(suits) for r in range(15 - ranks, 15)]
    for first in itertools.combinations(deck, hand_size):
        rest = [c for c in deck if c not in first]
        for second in itertools.combinations(rest, hand_size):
            public = (1, second[-1]) if upcard else None
            # trump is the first suit: the suits are alike but for which one is trump
            yield from _lines(rules, [set(first), set(second)], 0, deck, public)


def _lines(rules, hands, trump, deck, public):
    """The view at each play of each legal line of play (depth first)."""
    def walk(hands, history, leader, cards, order):
        step = len(history)
        if step == 2 * len(deck) or not hands[0] and not hands[1]:
            return
        seat = order[len(cards)]
        yield _view(rules, 2, [set(h) for h in hands], trump, history, cards, order, seat, deck, public)
        for c in cards_of(legal(mask_of(hands[seat]), cards, trump, rules).cards):
            nh = [set(h) for h in hands]
            nh[seat].discard(c)
            t = len(history) // 2
            hist = history + [(t, seat, c, frozenset(hands[seat]))]
            now = cards + [c]
            if len(now) == 2:
                w = order[winning(now, trump)]
                yield from walk(nh, hist, w, [], [w, 1 - w])
            else:
                yield from walk(nh, hist, leader, now, order)
    yield from walk(hands, [], 0, [], [0, 1])
