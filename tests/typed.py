"""Rewrite a generated record the ways people type one from memory, keeping what it says:
draws as counts, no `Seats`, no `Deal` lines, seat-order tricks, suit-only cards."""

from __future__ import annotations

import random
import re

from booray_audit.cards import parse_card
from booray_audit.rules.engine import winning

STYLES = ("counts", "no-seats", "no-deal", "seat-order", "suit-only", "from-memory")
# styles whose records neither show nor imply the discards (draws as counts without the
# `Deal` lines: with them, every card dealt and never played was thrown): bots must judge
# without them
HIDES_DISCARDS = ("from-memory",)

_DECISION = re.compile(r"^(\S+) (play|draw) (.+?) -> (.+)$")
_TRICK = re.compile(r"^Trick (\d+): (.*)$")


def as_typed(text: str, style: str, seed: int = 0) -> str:
    rng = random.Random(seed)
    styles = ("counts", "no-seats", "no-deal") if style == "from-memory" else (style,)
    out = []
    blanked: set[str] = set()
    for line in text.splitlines():
        if line.startswith("Hand "):
            blanked = set()
        if "no-seats" in styles and line.startswith("[Seats "):
            continue
        if "no-deal" in styles and line.startswith("Deal "):
            continue
        m = _DECISION.match(line)
        if "counts" in styles and m:
            line = f"{m.group(1)} {m.group(2)} {len(m.group(3).split())}"
        m = _TRICK.match(line)
        if m and "seat-order" in styles:
            plays = [p.split() for p in m.group(2).split(", ")]
            line = f"Trick {m.group(1)}: {plays[0][0]}: " + " ".join(c for _, c in plays)
        elif m and "suit-only" in styles:
            plays = [p.split() for p in m.group(2).split(", ")]
            for play in plays:
                # one card per player and hand: the rest of that player's cards pin its rank
                if play[0] not in blanked and rng.random() < 0.3:
                    blanked.add(play[0])
                    play[1] = "?" + play[1][-1]
            line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays)
        out.append(line)
    return "\n".join(out) + "\n"


def swap_lines(lines: list[str], rng: random.Random) -> list[str]:
    """Two of a hand's trick lines in each other's place, each keeping its number."""
    tricks = [i for i, line in enumerate(lines) if line.startswith("Trick ")]
    a, b = rng.sample(tricks, 2)
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def round_table(lines: list[str], seats: list[str], rng: random.Random) -> list[str]:
    """About half the hand's trick lines listed round the table from the dealer's left,
    not from the player who led (the order of play changed, the cards and players not)."""
    dealer = next((line.split()[1] for line in lines if line.startswith("Dealer ")), None)
    if dealer not in seats:
        return lines
    i = seats.index(dealer)
    order = seats[i + 1:] + seats[:i + 1]
    out = []
    for line in lines:
        m = _TRICK.match(line)
        if m and rng.random() < 0.5:
            plays = sorted((p.split() for p in m.group(2).split(", ")),
                           key=lambda p: order.index(p[0]) if p[0] in order else len(order))
            line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays)
        out.append(line)
    return out


def winner_first(text: str, rng: random.Random, share: float = 0.3) -> str:
    """That share of the trick lines written from the card that won the trick, not from
    the lead (round the table, the order of play kept): who took it, jotted first."""
    out, trump = [], None
    for line in text.splitlines():
        if line.startswith("Hand "):
            trump = None
        elif line.startswith("Up "):
            trump = parse_card(line.split()[1]) >> 4
        m = _TRICK.match(line)
        if m and trump is not None and rng.random() < share:
            plays = [p.split() for p in m.group(2).split(", ")]
            w = winning([parse_card(c) for _, c in plays], trump)
            line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays[w:] + plays[:w])
        out.append(line)
    return "\n".join(out) + "\n"


def backwards(text: str, rng: random.Random, share: float = 0.3) -> str:
    """That share of the trick lines written backwards: last card first."""
    out = []
    for line in text.splitlines():
        m = _TRICK.match(line)
        if m and rng.random() < share:
            line = f"Trick {m.group(1)}: " + ", ".join(reversed(m.group(2).split(", ")))
        out.append(line)
    return "\n".join(out) + "\n"


def two_as_one(text: str, rng: random.Random, share: float = 0.4) -> str:
    """That share of the hands with two tricks in a row written on one line (the second
    trick's line and number dropped)."""
    out: list[str] = []
    for part in text.split("\n\n"):
        lines = part.split("\n")
        tricks = [i for i, line in enumerate(lines) if _TRICK.match(line)]
        if len(tricks) > 1 and rng.random() < share:
            k = rng.randrange(len(tricks) - 1)
            a, b = tricks[k], tricks[k + 1]
            lines[a] += ", " + _TRICK.match(lines[b]).group(2)
            del lines[b]
        out.append("\n".join(lines))
    return "\n\n".join(out)


def wrong_dealer(text: str, rng: random.Random) -> str:
    """About half the hands name the next seat as the dealer, and no hand gives its deals."""
    seats: list[str] = []
    out = []
    for line in text.splitlines():
        if line.startswith("[Seats "):
            seats = line.split('"')[1].split()
        if line.startswith("Dealer ") and rng.random() < 0.5:
            line = "Dealer " + seats[(seats.index(line.split()[1]) + 1) % len(seats)]
        if not line.startswith("Deal "):
            out.append(line)
    return "\n".join(out) + "\n"


# -- slips: information left out or blurred, never added ---------------------------------

SLIPS = ("unknown", "suit-only", "drop-play", "misspell", "seat-order", "drop-trick", "drop-tail",
         "discard-unknown", "draw-unknown", "counts", "no-deal", "no-decisions", "no-claims", "lowercase",
         "swap-lines")


def slipped(text: str, seed: int = 0) -> str:
    """Each hand with a random few of SLIPS: cards written `??` or by suit only, a card or
    a whole trick left out, a name misspelt or lower-cased, seat-order tricks, discards
    or draws not named, no decision lines, the last tricks left out, two trick lines
    written in each other's place (their numbers kept).  Only what was played is left out or blurred, never
    changed, so nothing left can show a legal game breaking a rule: the audit must accuse
    nobody.  (A mistyped card can make a record that proves a false thing; where the
    record contradicts itself, tests/test_unseen_plays.py holds the audit to saying so.)"""
    rng = random.Random(seed)
    out: list[str] = []
    hand: list[str] = []
    for line in text.splitlines() + [""]:
        if line.startswith("Hand ") or not line.strip():
            if hand:
                out += _slip_hand(hand, rng, {s for s in SLIPS if rng.random() < 0.3})
                hand = []
            if line.startswith("Hand "):
                hand = [line]
            else:
                out.append(line)
        elif hand:
            hand.append(line)
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _slip_hand(lines: list[str], rng: random.Random, slips: set) -> list[str]:
    tricks = [i for i, line in enumerate(lines) if line.startswith("Trick ")]
    if "swap-lines" in slips and len(tricks) > 1:
        lines = swap_lines(lines, rng)
    cut = tricks[-rng.randint(1, len(tricks))] if "drop-tail" in slips and tricks else len(lines)
    dropped = rng.choice(tricks[:-1]) if "drop-trick" in slips and len(tricks) > 1 else None
    out = []
    for i, line in enumerate(lines):
        if (line.startswith("Trick ") and i >= cut) or i == dropped:
            continue
        if ("no-deal" in slips and line.startswith("Deal ") or "no-claims" in slips
                and line.startswith(("Tricks ", "Net ")) or "no-decisions" in slips
                and re.match(r"\S+ (play|pass|draw)\b", line) and not line.startswith(("Trick", "Deal"))):
            continue
        m = _DECISION.match(line)
        if m and "counts" in slips:
            line = f"{m.group(1)} {m.group(2)} {len(m.group(3).split())}"
        elif m and "draw-unknown" in slips:
            line = f"{m.group(1)} {m.group(2)} {m.group(3)} -> " + " ".join("??" for _ in m.group(4).split())
        elif m and "discard-unknown" in slips:
            line = f"{m.group(1)} {m.group(2)} " + " ".join(
                "??" if rng.random() < 0.4 else c for c in m.group(3).split()) + f" -> {m.group(4)}"
        m = _TRICK.match(line)
        if m:
            plays = [p.split() for p in m.group(2).split(", ")]
            for play in plays:
                x = rng.random()
                if "unknown" in slips and x < 0.15:
                    play[1] = "??"
                elif "suit-only" in slips and x < 0.35:
                    play[1] = "?" + play[1][-1]
            if "drop-play" in slips and len(plays) > 2 and rng.random() < 0.3:
                del plays[rng.randrange(len(plays))]
            if "misspell" in slips and rng.random() < 0.2:
                play = rng.choice(plays)
                play[0] = play[0][:-1]
            if "lowercase" in slips and rng.random() < 0.2:
                play = rng.choice(plays)
                play[0] = play[0].lower()
            if "seat-order" in slips and len(plays) > 1:
                line = f"Trick {m.group(1)}: {plays[0][0]}: " + " ".join(c for _, c in plays)
            else:
                line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays)
        out.append(line)
    return out


# -- a card typed wrong: the record changed, not only blurred ------------------------------

def mistyped(text: str, seed: int = 0, share: float = 0.3) -> str:
    """About ``share`` of the hands with one card of one trick written with another rank
    or another suit (the 9d typed 9c).  Unlike the slips, this changes what the record
    says: where the rest of the record contradicts the card, the audit must accuse nobody
    on its account; where nothing does, the record proves what it says."""
    rng = random.Random(seed)
    out: list[str] = []
    chosen = False
    for line in text.splitlines():
        if line.startswith("Hand "):
            chosen = rng.random() < share
        m = _TRICK.match(line)
        if m and chosen and rng.random() < 0.35:
            chosen = False
            plays = [p.split() for p in m.group(2).split(", ")]
            play = rng.choice(plays)
            rank, suit = play[1][:-1], play[1][-1]
            if rng.random() < 0.5:
                play[1] = rng.choice([r for r in "23456789TJQKA" if r != rank]) + suit
            else:
                play[1] = rank + rng.choice([s for s in "shdc" if s != suit])
            line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays)
        out.append(line)
    return "\n".join(out) + "\n"


def trump_typed_wrong(text: str, seed: int = 0, share: float = 0.3) -> str:
    """About ``share`` of the hands with the `Up` line replaced by a `Trump` line naming
    another suit: the trump typed wrong (and the up-card not remembered)."""
    rng = random.Random(seed)
    out = []
    for line in text.splitlines():
        if line.startswith("Up ") and rng.random() < share:
            suit = line.split()[1][-1]
            line = "Trump " + rng.choice([s for s in "shdc" if s != suit])
        out.append(line)
    return "\n".join(out) + "\n"


# -- forgetting: the record says less, never something else ---------------------------------

FORGETTING = ("counts", "discards-unknown", "card-unknown", "suit-only", "no-deal", "no-seats", "unnumbered",
              "from-memory")
# from memory: draws as counts, no `Deal` lines, no `Seats`, tricks not numbered
_MEMORY = ("counts", "no-deal", "no-seats", "unnumbered")


def forgotten(text: str, how: str, seed: int = 0, spare: dict | None = None) -> str:
    """The record with one kind of detail forgotten the way people forget it: draws as
    counts, discards as `??`, one card of a trick as `??` or by suit only (one a hand),
    `Deal` lines or `Seats` left out, tricks not numbered, or (``from-memory``) draws as
    counts, no `Deal` lines, no `Seats` and no trick numbers at once.  ``spare``: per
    (session, hand), the players whose cards stay as written (a violator's: a later card
    of theirs is what proves an earlier play illegal)."""
    rng = random.Random(seed)
    spare = spare or {}
    ways = _MEMORY if how == "from-memory" else (how,)
    out: list[str] = []
    session, hand, blurred, in_tags = -1, 0, False, False
    for line in text.splitlines():
        if line.startswith("["):
            if not in_tags:
                session += 1
            in_tags = True
            if "no-seats" in ways and line.startswith("[Seats "):
                continue
        elif line.strip():
            in_tags = False
        if line.startswith("Hand "):
            hand, blurred = int(line.split()[1]), rng.random() < 0.5
        if "no-deal" in ways and line.startswith("Deal "):
            continue
        m = _DECISION.match(line)
        if m and "counts" in ways:
            line = f"{m.group(1)} {m.group(2)} {len(m.group(3).split())}"
        elif m and how == "discards-unknown":
            line = f"{m.group(1)} {m.group(2)} " + " ".join("??" for _ in m.group(3).split()) + f" -> {m.group(4)}"
        m = _TRICK.match(line)
        if m and "unnumbered" in ways:
            line = f"Trick {m.group(2)}"
        elif m and how in ("card-unknown", "suit-only") and blurred and rng.random() < 0.3:
            plays = [p.split() for p in m.group(2).split(", ")]
            free = [p for p in plays if p[0] not in spare.get((session, hand), ())]
            if free:
                blurred = False
                play = rng.choice(free)
                play[1] = "??" if how == "card-unknown" else "?" + play[1][-1]
                line = f"Trick {m.group(1)}: " + ", ".join(" ".join(p) for p in plays)
        out.append(line)
    return "\n".join(out) + "\n"
