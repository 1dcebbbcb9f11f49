#!/usr/bin/env python3
"""The cinch solver against the brute-force oracle, longer than the tests run it.

    python bench/oracle.py --positions 20000 --seed 2026      # every step, four rule variants
    python bench/oracle.py --positions 2000 --exact-only       # the full search by itself

Random reduced-deck positions (3 suits, 2-4 players, 3-card hands; ``--ranks`` per
suit) under the standard, basic, must-beat=previous and trump-when-cannot-win=may
rules; for each, every need k from 1 to the hand size.  Prints one JSON line and
exits 1 if any answer differs from the oracle's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from booray_audit.cinch.solver import Solver# noqa: E402
from tests.oracle import VARIANTS, oracle_value, random_position  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--exact-only", action="store_true", help="skip the restricted and relaxed steps")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    start = time.perf_counter()
    answers = wrong = 0
    first = None
    for i in range(a.positions):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, facts = random_position(rng, rules, ranks=a.ranks)
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            s = Solver(rules, None)
            got = s.search(pos, k) if a.exact_only else s.solve(pos, k)
            answers += 1
            if got != (value >= k):
                wrong += 1
                first = first or {"position": i, "k": k, "oracle": value}
    print(json.dumps({"positions": a.positions, "seed": a.seed, "ranks": a.ranks, "exact_only": a.exact_only,
                      "answers": answers, "wrong": wrong, "first_wrong": first,
                      "seconds": round(time.perf_counter() - start, 1)}))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
