"""The written rules' variants on a large generated corpus: recalls, forfeited deals,
simultaneous declarations and folded hands first, under each profile.

For each variant: a legal corpus must audit clean, and a corpus with violations (half of
them taken back as recalls) must give exactly the findings injected; `check --jobs 1`
and `check --jobs 2` must print the same JSON.

    python bench/variants.py [--hands 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle

VARIANTS = [
    ("standard", ("recall=forfeit",)),
    ("wikipedia", ()),  # folded-first, 2-7 players
    ("standard", ("recall=penalty", "declarations=simultaneous", "reshuffle=folded-first")),
    ("basic", ("recall=free", "declarations=simultaneous")),
]


def check(path: str, jobs: int) -> dict:
    p = subprocess.run([sys.executable, "-m", "booray_audit.cli", "check", "--format", "json", "--jobs", str(jobs),
                        path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"check failed ({p.returncode}): {p.stderr}")
    return p.stdout


def findings(doc: str):
    out = collections.Counter()
    for s, session in enumerate(json.loads(doc)["sessions"]):
        for hand in session["hands"]:
            for f in hand["findings"]:
                out[(s, f["hand"], f["trick"], f["player"], f["kind"])] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, toggles in VARIANTS:
            rules = profile(name)
            for t in toggles:
                rules = with_toggle(rules, *t.split("="))
            label = "+".join((name,) + toggles)
            for rate in (0.0, 0.3):
                text, injected = generate_text(args.hands, players=(2, 8), seed=args.seed, rules=rules,
                                               violations=rate, recalls=0.5, forfeits=0.1, throw_trumps=0.1)
                path = os.path.join(tmp, "corpus.bhh")
                with open(path, "w") as f:
                    f.write(text)
                one, two = check(path, 1), check(path, 2)
                want = collections.Counter((i.session, i.hand, i.trick, i.player, i.kind) for i in injected)
                got = findings(one)
                ok = got == want and one == two
                bad += not ok
                recalls = sum(1 for i in injected if i.kind == "recall")
                print(f"{label:60} violations {rate:.1f}: {args.hands} hands, {len(want)} injected "
                      f"({recalls} recalls), {sum(got.values())} found, missing {sum((want - got).values())}, "
                      f"extra {sum((got - want).values())}, jobs 1 = jobs 2: {one == two}")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
