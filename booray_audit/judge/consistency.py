"""A hand's record against itself: a card in two places, a card played that the player
did not hold, a card kept but never played by a player who played every trick (record
errors, docs/rules.md, the findings).  Run while the hand's Knowledge is built: each error is
``(kind, player, message, evidence)``, and a card the record puts in two places is
``contested``: where it was is not known, so it proves nothing about anyone's hand.
The plays the record contradicts are ``doubtful``, (player, trick place) pairs: what
was played there is not known (a card typed wrong, or the deal), so the replay reads
each as a card not shown (``??``): it leads no suit and beats nothing."""

from __future__ import annotations

from ..cards import FULL_DECK, UNKNOWN, card_str, cards_of, cards_text, mask_of, suit_mask
from ..rules.engine import SUIT_NAMES


def check(know, deals) -> None:
    """Add the record errors to ``know.errors`` and the cards the record puts in two
    places to ``know.contested``; ``know.played_mask``: every ranked card played."""
    shown: dict[str, int] = {}  # per player, the ranked cards played
    suited: list[str] = []  # players with a card the record gives by suit only
    every_played = 0
    twice = False
    for p, pl in know.plays.items():
        mask = ranked = 0
        for _, c in pl:
            if c & 15:
                mask |= 1 << c
                ranked += 1
            elif c != UNKNOWN and p not in suited:
                suited.append(p)
        shown[p] = mask
        twice = twice or bool(mask & every_played) or mask.bit_count() != ranked
        every_played |= mask
    know.played_mask |= every_played
    if twice:  # a card played twice: each reported where its second play is
        seen: dict[int, tuple[str, int]] = {}
        for p, pl in know.plays.items():
            for t, c in pl:
                if not c & 15:
                    continue
                if c in seen:
                    first, at = seen[c]
                    know.errors.append(("duplicate-card", p, f"the {card_str(c)} was played twice",
                                        f"{first} (trick {know.numbered(at)}) and {p} both played the {card_str(c)}"))
                    know.contested |= 1 << c
                seen[c] = (p, t)
    if _overlap(mask_of(c for c in d.cards if c & 15) for d in deals.values()):
        dealt_to: dict[int, str] = {}
        for p, d in deals.items():
            for c in d.cards:
                if c & 15:
                    if c in dealt_to and dealt_to[c] != p:
                        know.errors.append(("duplicate-card", p, f"the {card_str(c)} was dealt twice",
                                            f"dealt to {dealt_to[c]} and to {p}"))
                        know.contested |= 1 << c
                    dealt_to[c] = p
    held = _overlap(know.post.values())
    if held:
        for p, mask in know.post.items():
            for q, other in know.post.items():
                if q < p and mask & other:
                    c = (mask & other).bit_length() - 1
                    who = q if know.drawn.get(q, 0) >> c & 1 and not know.drawn.get(p, 0) >> c & 1 else p
                    know.errors.append(("duplicate-card", who, f"the {card_str(c)} is in two hands",
                                        f"{q} and {p} both hold the {card_str(c)} after the draw"))
                    know.contested |= mask & other
    every = 0  # every card some player holds after the draw
    for m in know.post.values():
        every |= m
    n = know.rules.cards
    for p in know.plays:
        if held:  # every card the other players hold after the draw
            others = 0
            for q, m in know.post.items():
                if q != p:
                    others |= m
        else:  # no card in two hands: the others' are everyone's but p's
            others = every & ~know.post.get(p, 0)
        suspect = others | know.discarded.get(p, 0) | (FULL_DECK & ~know.post[p] if know.full.get(p) else 0)
        if not shown[p] & suspect:
            continue  # none of p's cards below can be wrong
        for t, c in know.plays[p]:
            if not c & 15:
                continue
            if t > n:  # a trick past the hand's last: one error for the hand, below
                know.doubtful.add((p, t))
                continue
            owner = next((q for q, m in know.post.items() if q != p and m >> c & 1), None) \
                if others >> c & 1 else None
            names = [q for q, _ in know.tricks[t - 1].plays] if owner is not None and t <= len(know.tricks) else []
            if owner is not None and names.count(p) > 1 and owner not in names:
                # p named twice in the trick and the card's holder not at all: the name is the
                # slip (the walk says so), not the card
                know.doubtful.add((p, t))
                know.contested |= 1 << c
            elif owner is not None:
                know.errors.append(("duplicate-card", p, f"{p} played the {card_str(c)}, "
                                    f"which {owner} held", f"trick {know.numbered(t)}"))
                know.contested |= 1 << c
            elif know.discarded.get(p, 0) >> c & 1:
                know.doubtful.add((p, t))
                know.errors.append(("not-held", p, f"{p} played the {card_str(c)} at trick {know.numbered(t)} "
                                    f"after discarding it", f"{p} discarded the {card_str(c)}"))
            elif know.full.get(p) and not know.post[p] >> c & 1:
                know.doubtful.add((p, t))
                know.errors.append(("not-held", p, f"{p} played the {card_str(c)} at trick {know.numbered(t)}, "
                                    f"which is not in {p}'s hand",
                                    f"{p}'s hand after the draw: {_text(know.post[p])}"))
    over: set[str] = set()  # players with more cards from outside the deal than the draw brought
    for p, deal in deals.items():
        n = know.draw_count.get(p)
        if n is None or know.full.get(p) or p not in know.plays:
            continue
        drawn = know.drawn.get(p, 0)
        outside = shown[p] & ~know.dealt.get(p, 0) & ~drawn
        # the deal's cards not named, and the draws not named, may be any of them
        room = max(0, know.rules.cards - know.dealt.get(p, 0).bit_count()) + n - drawn.bit_count()
        if outside.bit_count() > room:
            over.add(p)
            know.doubtful.update((p, t) for t, c in know.plays[p] if c & 15 and outside >> c & 1)
            know.errors.append(("not-held", p, f"{p} played {outside.bit_count()} cards not dealt to {p} "
                                f"({_text(outside)}), but drew {n}",
                                f"{p}'s deal: {cards_text(deal.cards)}; {p} drew {n}"))
    for p in suited:  # more cards of a suit than a known hand held
        if not know.full.get(p):
            continue
        pl = know.plays[p]
        for suit in {c >> 4 for _, c in pl if not c & 15 and c != UNKNOWN}:  # a ranked card: reported above
            played = sum(1 for _, c in pl if c >> 4 == suit)
            if played > (know.post[p] & suit_mask(suit)).bit_count():
                know.doubtful.update((p, t) for t, c in pl if c >> 4 == suit and not c & 15)
                name = SUIT_NAMES[suit]
                know.errors.append(("not-held", p, f"{p} played {played} {name}, more than {p}'s hand held",
                                    f"{p}'s hand after the draw: {_text(know.post[p])}"))
                break
    n = know.rules.cards
    for p, pl in know.plays.items():  # a card kept to the end of a hand played out
        extra = know.post.get(p, 0) & ~shown[p]
        if not extra or p in over or [t for t, _ in pl] != list(range(1, n + 1)):
            continue
        unnamed = sum(1 for _, c in pl if not c & 15)
        blank = sum(1 for _, c in pl if c == UNKNOWN)  # a ?? may be of any suit, a ?h only a heart
        if extra.bit_count() > unnamed or any(
                (extra & suit_mask(x)).bit_count() > blank + sum(1 for _, c in pl if c == x << 4)
                for x in range(4)):
            c = extra.bit_length() - 1
            # one of the plays the known cards do not show is not what was played
            know.doubtful.update((p, t) for t, c in pl if not (c & 15 and know.post[p] >> c & 1))
            know.errors.append(("not-held", p, f"{p} kept the {card_str(c)} but never played it",
                                f"{p} played at every trick: {_text(shown[p])}"
                                + (f" and {unnamed} card(s) the record does not name" if unnamed else "")))
    if len(know.recorded) > n:  # one error for the hand, not one for each player of the tricks past it
        extra = know.recorded[n:]
        know.errors.append(("not-held", None, f"the record has {len(know.recorded)} tricks, and a hand has {n}: "
                            f"{'a trick' if len(extra) == 1 else 'tricks'} may be written twice, or come from "
                            "another hand (no play of this hand is judged)", "; ".join(
                                f"Trick {know.numbered(n + 1 + i)}: " + ", ".join(f"{q} {card_str(c)}" for q, c in x.plays)
                                for i, x in enumerate(extra))))
    if not know.reshuffle_possible:
        _no_second_life(know, shown)
    else:
        folded_first = know.rules.reshuffle != "discards"  # folded hands may come back (first, or with the discards)
        if know.up is not None and know.up_player is not None and (
                know.up_player in know.passed and not folded_first or know.draw_count.get(know.up_player) == 0):
            _up_card_kept(know)
        _folded_never_back(know, folded_first)
        if folded_first and not know.discards_back:
            _discards_never_back(know)
    if know.contested:  # a card in two places: no play of it is known to be what was played
        know.doubtful.update((p, t) for p, pl in know.plays.items() for t, c in pl if know.contested >> c & 1)


def _overlap(masks) -> bool:
    """Some card is in two of the masks."""
    every = 0
    for m in masks:
        if m & every:
            return True
        every |= m
    return False


def _up_card_kept(know) -> None:
    """A dealer who passed or stood pat never let the up-card go, reshuffle or not: a
    play of it by another player contradicts the record's dealer or the play."""
    up, dealer = know.up, know.up_player
    for p, pl in know.plays.items():
        t = next((t for t, c in pl if c == up), None)
        if p != dealer and t is not None and not know.contested >> up & 1:
            why = "passed" if dealer in know.passed else "drew no cards"
            know.errors.append(("duplicate-card", p, f"{p} played the {card_str(up)} at trick "
                                f"{know.numbered(t)}, which was dealt to {dealer} (the up-card)",
                                f"{dealer} dealt and {why}, so the up-card never left {dealer}'s hand"))
            know.contested |= 1 << up


def _no_second_life(know, shown: dict[str, int]) -> None:
    """With no reshuffle possible, a card dealt to one player (kept, discarded, or in a
    passed hand) or discarded by one player never reaches another's hand.  The up-card is
    dealt to the dealer, whether or not the record gives the dealer's deal (unless the
    record contradicts who dealt: ``Knowledge.up_player``)."""
    dealt = dict(know.dealt)
    if know.up is not None and know.up_player is not None:
        dealt[know.up_player] = dealt.get(know.up_player, 0) | 1 << know.up
    once = twice = 0  # cards dealt to or discarded by one player, and by two
    for q in set(dealt) | set(know.discarded):
        m = dealt.get(q, 0) | know.discarded.get(q, 0)
        twice |= once & m
        once |= m
    if not any((know.drawn.get(p, 0) | shown.get(p, 0))
               & (twice | once & ~(dealt.get(p, 0) | know.discarded.get(p, 0)))
               for p in set(know.post) | set(know.plays)):
        return  # no card drawn or played by one player was dealt to or discarded by another
    released: dict[int, str] = {}
    for q, m in dealt.items():
        for c in cards_of(m):
            released[c] = q
    for q, m in know.discarded.items():
        for c in cards_of(m):
            released.setdefault(c, q)
    _released(know, released, lambda c, q: " (the up-card)" if c == know.up else "",
              "the stock never ran out, so no card came back")


def _released(know, released: dict[int, str], said, why: str, back=frozenset()) -> None:
    """A duplicate-card for each card of ``released`` (card -> the player it went out with)
    that the record shows drawn or played by another player, reported once, where it is
    first drawn or played; ``said(card, player)`` ends the message, ``why`` is the evidence.
    The players in ``back`` may have drawn such a card: theirs are not reported."""
    reported: set[int] = set()
    for p in know.post:
        if p in back:
            continue
        for c in cards_of(know.drawn.get(p, 0)):
            q = released.get(c)
            if q is not None and q != p and c not in reported and not know.post.get(q, 0) >> c & 1:
                reported.add(c)
                know.errors.append(("duplicate-card", p, f"{p} drew the {card_str(c)}, which was "
                                    f"dealt to {q}" + said(c, q), why))
                know.contested |= 1 << c
    for p, pl in know.plays.items():
        if p in back and know.draw_count.get(p) != 0:
            continue
        for t, c in pl:
            q = released.get(c) if c & 15 else None
            if (q is not None and q != p and c not in reported and not know.post.get(q, 0) >> c & 1
                    and not know.drawn.get(p, 0) >> c & 1):
                reported.add(c)
                know.errors.append(("duplicate-card", p, f"{p} played the {card_str(c)} at trick "
                                    f"{know.numbered(t)}, which was dealt to {q}" + said(c, q), why))
                know.contested |= 1 << c


def _folded_never_back(know, folded_first: bool) -> None:
    """With a reshuffle possible: under `reshuffle=discards` only the discards go back into
    the stock, never a folded hand (docs/rules.md, the deal and the draw), so a card dealt
    to a player who passed reaches no other hand.  (The up-card of a dealer who passed:
    ``_up_card_kept``.)  Under `folded-first` the folded hands go back first: their cards
    reach only the players whose draw can have come after the stock ran out."""
    up = 1 << know.up if know.up is not None and not folded_first else 0
    folded = {q: know._dealt_to(q) & ~up & ~know.contested for q in know.passed}
    if not any(folded.values()):
        return
    owner = {c: q for q, m in folded.items() for c in cards_of(m)}
    if not folded_first:
        _released(know, owner, lambda c, q: ", who passed", "a folded hand never goes back into the stock")
    else:
        _released(know, owner, lambda c, q: ", who passed", "the stock cannot have run out before that draw, "
                  "so no folded hand had gone back into it", back=know.folded_back)


def _discards_never_back(know) -> None:
    """Under `reshuffle=folded-first`, where the folded hands refill the stock for every
    draw that can need it: no discard goes back, so none reaches another hand."""
    owner = {c: q for q, m in know.discarded.items() for c in cards_of(m & ~know.contested)}
    if owner:
        _released(know, owner, lambda c, q: " and discarded", "the folded hands refilled the stock, "
                  "so no discard went back into it")


def _text(mask: int) -> str:
    return cards_text(cards_of(mask))
