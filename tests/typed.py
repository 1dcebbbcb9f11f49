"""Rewrite a generated record the ways people type one from memory, keeping what it says:
draws as counts, no `Seats`, no `Deal` lines, seat-order tricks, suit-only cards."""

from __future__ import annotations

import random
import re

STYLES = ("counts", "no-seats", "no-deal", "seat-order", "suit-only", "from-memory")
# styles whose records give the discards only as counts: bots must judge without them
HIDES_DISCARDS = ("counts", "from-memory")

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
