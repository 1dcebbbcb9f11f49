"""Games of the mondaynightpoker server, played by its rules as its format description
gives them (docs/platforms.md), written as the server stores them: one JSON document per
game, its last hand at the root, each hand naming the one before as ``parent``.

Play is random but legal: follow the led suit and beat its winning card if able; void,
trump (over-trump if able); else any card.  The lead goes one seat round each trick; the
trump card is turned from the stock; draws of up to 4 (3 for the first five seats past
five players); when the stock runs out, the turned card, the folded hands and the
discards of the players who drew before are shuffled into a new one.  The money: a sole
winner with nobody bourré takes the pot and the game ends; else the bourré players pay
the pot, the others below the most tricks an ante (not the one-trick player of a 2-2-1),
a sole winner still takes the pot, and the game goes on with the players who neither
folded nor sat out, the first seat moved to the end, with no antes."""

from __future__ import annotations


SUITS = ["spades", "hearts", "diamonds", "clubs"]
DECK = [(r, s) for s in range(4) for r in range(2, 15)]


def _card(c):
    return {"rank": c[0], "suit": SUITS[c[1]]}


def _legal(hand, trick, trump):
    if not trick:
        return list(hand)
    led = trick[0][1][1]
    win = next(c for p, c in trick if p == _winner(trick, trump))
    for suit in (led, trump):  # follow suit, else trump; beat the winning card of that suit if able
        cards = [c for c in hand if c[1] == suit]
        if cards:
            return [c for c in cards if win[1] == suit and c[0] > win[0]] or cards
    return list(hand)


def _winner(trick, trump):
    best = 0
    for i, (_, c) in enumerate(trick):
        b = trick[best][1]
        if (c[1] == b[1] and c[0] > b[0]) or (c[1] == trump and b[1] != trump):
            best = i
    return trick[best][0]


def hand(rng, players, ante, pot, anted, fold=0.2):
    """One hand: its log (without parent) and (winners, the game goes on, who continues)."""
    deck = DECK[:]
    rng.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(5)] for p in players}
    trump_card = deck.pop()
    trump = trump_card[1]
    n = len(players)
    log = {"options": {"Ante": ante, "InitialPot": 0 if anted else pot, "FiveSuit": False}, "ante": ante,
           "initialPot": pot, "trumpCard": _card(trump_card),
           "seats": [{"playerId": p, "startingHand": [_card(c) for c in hands[p]]}
                     for p in rng.sample(players, n)],
           "discards": [], "tricks": []}
    folded = []
    for i, p in enumerate(players):
        last_alone = i == n - 1 and len(folded) == n - 1
        if not last_alone and rng.random() < fold:
            folded.append(p)
    pile = [trump_card] + [c for p in folded for c in hands[p]]
    playing = [p for p in players if p not in folded]
    for i, p in enumerate(players):
        if p in folded:
            log["discards"].append({"playerId": p, "folded": True, "discarded": [], "newCards": []})
            continue
        most = 3 if n > 5 and i < 5 else 4
        out = rng.sample(hands[p], rng.randint(0, most))
        got = []
        for c in out:
            hands[p].remove(c)
            if not deck:
                deck = pile[:]
                rng.shuffle(deck)
                pile = []
            got.append(deck.pop())
        hands[p] += got
        pile += out
        log["discards"].append({"playerId": p, "discarded": [_card(c) for c in out],
                                "newCards": [_card(c) for c in got]})
    if len(playing) == 1:
        log["result"] = {"PaidAnte": [], "PaidPot": [], "Winners": [{"PlayerID": playing[0]}],
                         "WinningAmount": pot, "Ante": ante, "OldPot": pot, "NewPot": 0}
        return log, False, [], 0
    won = {p: 0 for p in playing}
    for k in range(5):
        lead = k % len(playing)
        order = playing[lead:] + playing[:lead]
        trick = []
        for p in order:
            c = rng.choice(_legal(hands[p], trick, trump))
            hands[p].remove(c)
            trick.append((p, c))
        w = _winner(trick, trump)
        won[w] += 1
        log["tricks"].append({"number": k + 1, "plays": [{"playerId": p, "card": _card(c)} for p, c in trick],
                              "winnerId": w})
    top = max(won.values())
    winners = [p for p in playing if won[p] == top]
    bourre = [p for p in playing if won[p] == 0]
    others = [p for p in playing if 0 < won[p] < top]
    goes_on = len(winners) > 1 or bool(bourre)
    booted = []
    if goes_on and len(winners) == 2 and len(others) == 1 and not bourre:
        booted, others = others, []
    if not goes_on:
        booted, others = others, []
    new = pot * len(bourre) + ante * len(others) + (pot if len(winners) > 1 else 0)
    log["result"] = {"PaidAnte": [{"PlayerID": p} for p in others], "PaidPot": [{"PlayerID": p} for p in bourre],
                     "Winners": [{"PlayerID": p} for p in winners], "Booted": [{"PlayerID": p} for p in booted],
                     "WinningAmount": pot if len(winners) == 1 else 0, "Ante": ante, "OldPot": pot, "NewPot": new}
    rest = playing[1:] + playing[:1]
    return log, goes_on, [p for p in rest if p not in booted], new


def game(rng, players, ante=25, most_hands=8):
    """One game: the document (its last hand, parents chained)."""
    pot = ante * len(players)
    anted, doc = True, None
    for _ in range(most_hands):
        out = hand(rng, players, ante, pot, anted)
        log, goes_on = out[0], out[1]
        if doc is not None:
            log["parent"] = doc
        doc = log
        if not goes_on or len(out[2]) < 2:
            break
        players, pot, anted = out[2], out[3], False
    return doc
