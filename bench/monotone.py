#!/usr/bin/env python3
"""Information monotonicity at any size: a record that says less never accuses more.

    python bench/monotone.py                        # 20,000 hands per way of forgetting
    python bench/monotone.py --hands 2000 --how counts

Generates seeded sessions (2-8 players, each profile, the 4- and 5-card game, half of
them with injected violations), writes each one with one kind of detail forgotten
(tests/typed.py ``FORGETTING``: the violators' own cards stay as written), audits both,
and lists every play finding the forgetful record makes that the full one does not.
Exits 1 if there is any.  tests/test_monotone.py runs the same check at CI size.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from booray_audit.generate import generate_text  # noqa: E402
from booray_audit.rules.profiles import profile, with_toggle  # noqa: E402
from tests.test_monotone import play_findings  # noqa: E402
from tests.typed import FORGETTING, forgotten  # noqa: E402

MIXES = [((2, 4), "standard", 0.0), ((6, 8), "standard", 0.5), ((3, 6), "wikipedia", 0.5),
         ((4, 7), "four-card", 0.5), ((2, 5), "basic", 0.5), ((5, 8), "standard", 0.0)]


def rules_of(name: str):
    return with_toggle(profile("standard"), "cards", "4") if name == "four-card" else profile(name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000, help="hands per way of forgetting")
    ap.add_argument("--chunk", type=int, default=200, help="hands per generated corpus")
    ap.add_argument("--how", action="append", choices=FORGETTING, help="one way of forgetting (repeatable)")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    bad = 0
    for how in args.how or FORGETTING:
        start, hands, count = time.time(), 0, 0
        seed = args.seed
        while hands < args.hands:
            players, name, rate = MIXES[seed % len(MIXES)]
            text, injected = generate_text(args.chunk, players=players, seed=seed, rules=rules_of(name),
                                           violations=rate, throw_trumps=0.3)
            spare: dict = {}
            for i in injected:
                spare.setdefault((i.session, i.hand), set()).add(i.player)
            extra = play_findings(forgotten(text, how, seed, spare)) - play_findings(text)
            for e in sorted(extra):
                print(f"{how}: seed {seed} ({name}, {players[0]}-{players[1]} players): session {e[0] + 1} "
                      f"hand {e[1]} trick {e[2]}: {e[3]} {e[4]}")
            count += len(extra)
            hands += args.chunk
            seed += 1
        bad += count
        print(f"{how}: {hands:,} hands, {count} more accused ({time.time() - start:.0f} s)", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
