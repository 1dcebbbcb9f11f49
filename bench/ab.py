#!/usr/bin/env python3
"""A/B: the cinch judge two ways, on every decision a seeded corpus meets.

    python bench/ab.py                             # compiled vs pure Python, 6 and 8 players, 20,000+ decisions
    python bench/ab.py --hands 300                 # quicker
    python bench/ab.py --b refuter                 # the Python search alone vs the refuter in front
    python bench/ab.py --b double-dummy            # compiled: the refuter's policies alone vs double dummy first

Generates sessions (seeded), audits them once to collect every position the cinch judge
is asked about, then judges each position twice.  ``--b compiled`` (the default): A is
the pure-Python judge as it ships (refuter, then the search with its 3,000-node budget),
B the compiled search with its own default budget.  ``--b refuter``: A is the Python
search alone, B the refuter first.  ``--b double-dummy``: both compiled, A's refuter
with its policies only, B's playing each deal out double dummy first (as it ships).
Prints the counts, every decision that differs (only "undecidable" in A may become
settled in B: each such one is listed) and the time per decision of each side.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def decisions(players: int, hands: int, seed: int) -> list:
    """Every (position, tricks won, rules) the judge meets auditing a generated corpus."""
    from booray_audit.cinch import judge as cinch
    from booray_audit.notation import reader as notation
    from booray_audit.judge import plain
    from booray_audit.judge.audit import audit
    from booray_audit.generate import generate
    import io
    text = "\n".join(generate(hands, players=(players, players), seed=seed, violations=0.02)) + "\n"
    seen = []
    real = cinch.judge

    def record(pos, won, rules, solver=None, refute=True):
        seen.append((pos, won, rules))
        return real(pos, won, rules, solver, refute=False)

    cinch.judge, walk = record, plain._search
    plain._search = None  # the Python plain walk asks the judge at every decision
    try:
        for _ in audit(notation.read(io.BytesIO(text.encode()), "ab.bhh")):
            pass
    finally:
        cinch.judge, plain._search = real, walk
    return seen


def verdict(answer) -> str:
    from booray_audit.cinch.position import Cinch, Contradicted
    from booray_audit.cinch.solver import Unsettled
    if isinstance(answer, Cinch):
        return f"cinch {answer.sure}" if hasattr(answer, "sure") else "cinch"
    if isinstance(answer, Unsettled):
        return "undecidable"
    if isinstance(answer, Contradicted):
        return "contradicted"
    return "no cinch"


# a side: (search budget, compiled search, refuter in front, double dummy's nodes per deal;
# None: the judge's default)
SIDES = {"refuter": ((3_000, False, False, 0), (3_000, False, True, 0)),
         "compiled": ((3_000, False, True, 0), (None, True, True, None)),
         "double-dummy": ((None, True, True, 0), (None, True, True, None))}


def compare(seen: list, a: tuple, b: tuple) -> dict:
    from booray_audit.cinch.compiled import NODES
    from booray_audit.cinch.judge import judge
    from booray_audit.cinch.solver import Solver
    from booray_audit.cards import card_str, cards_of
    times = {"A": [], "B": []}
    same = settled = 0
    differ, newly = [], []
    for pos, won, rules in seen:
        out = {}
        for side, (nodes, compiled, refute, deal) in (("A", a), ("B", b)):
            start = time.perf_counter()
            solver = Solver(rules, NODES if nodes is None else nodes or None, compiled=compiled)
            out[side] = verdict(judge(pos, won, rules, solver, refute=refute, deal_nodes=deal))
            times[side].append(time.perf_counter() - start)
        if out["A"] == out["B"]:
            same += 1
        elif out["A"] == "undecidable" and out["B"] != "contradicted":
            settled += 1
            newly.append({"now": out["B"], "player": pos.me, "hand": " ".join(map(card_str, cards_of(pos.hand))),
                          "won": won,
                          "trick": [card_str(c) for _, c in pos.trick]})
        else:
            differ.append({"A": out["A"], "B": out["B"], "position": repr(pos), "won": won})
    stat = {}
    for side, t in times.items():
        t.sort()
        stat[side] = {"mean_ms": round(1000 * sum(t) / len(t), 4), "p99_ms": round(1000 * t[int(0.99 * (len(t) - 1))], 3),
                      "total_s": round(sum(t), 2)}
    return {"decisions": len(seen), "identical": same, "newly_settled": settled, "differ": differ,
            "newly_settled_list": newly, "time": stat}


def main() -> int:
    from booray_audit.cinch import judge as cinch
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=6000)
    ap.add_argument("--players", default="6,8")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--b", choices=sorted(SIDES), default="compiled")
    a = ap.parse_args()
    if a.b in ("compiled", "double-dummy") and cinch._search is None:
        raise SystemExit("the compiled search is not built here (pip install . with a C compiler)")
    report = {}
    for players in (int(p) for p in a.players.split(",")):
        seen = decisions(players, a.hands, a.seed + players)
        report[players] = compare(seen, *SIDES[a.b])
        r = report[players]
        print(f"{players} players: {r['decisions']} decisions, {r['identical']} identical, "
              f"{r['newly_settled']} newly settled, {len(r['differ'])} differ; {r['time']}", file=sys.stderr)
    print(json.dumps(report, indent=1))
    return 1 if any(r["differ"] for r in report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
