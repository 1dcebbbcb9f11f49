#!/usr/bin/env python3
"""How much importing again costs, next to the first import of a generated log.

    python bench/reimport.py                  # a 10,000-hand log, 4 to 6 players
    python bench/reimport.py --hands 500      # quicker

Times, each a separate `booray-audit import` (wall and CPU seconds of the child):
the first import; the same file again (skipped by its content hash); a renamed copy
typed otherwise (comments, spacing: every hand read and found stored, none checked
again); the log grown by 1% (only the new hands checked). Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = "from booray_audit.cli.main import main; main()"
sys.path.insert(0, os.path.dirname(HERE))


def timed(*args: str) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit(f"import failed ({p.returncode}): {p.stderr[-500:]}")
    return {"wall_s": round(wall, 3), "cpu_s": round(after.ru_utime + after.ru_stime
                                                      - before.ru_utime - before.ru_stime, 3),
            "said": p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--players", default="4-6")
    ap.add_argument("--seed", type=int, default=14)
    a = ap.parse_args()
    grown_n = a.hands + max(1, a.hands // 100)
    with tempfile.TemporaryDirectory() as tmp:
        grown = os.path.join(tmp, "grown.bhh")
        subprocess.run([sys.executable, "-c", CLI, "generate", "--hands", str(grown_n), "--players",
                        a.players, "--seed", str(a.seed), "--violations", "0.02", "--out", grown], check=True)
        with open(grown) as f:
            text = f.read()
        # the first a.hands hands: cut before the (a.hands + 1)-th "Hand" line of the file
        cut, seen = 0, 0
        for line in text.splitlines(keepends=True):
            if line.startswith("Hand "):
                seen += 1
                if seen > a.hands:
                    break
            cut += len(line)
        log = os.path.join(tmp, "log.bhh")
        with open(log, "w") as f:
            f.write(text[:cut])
        db = os.path.join(tmp, "b.duckdb")
        out = {"hands": a.hands, "players": a.players, "first": timed("import", "--quiet", log, "--db", db)}
        out["same_file"] = timed("import", log, "--db", db)
        copy = os.path.join(tmp, "copy.bhh")
        with open(copy, "w") as f:
            f.write(text[:cut].replace("\nHand ", "\n# typed again\nhand ").replace(" play ", "  play  "))
        out["renamed_respelt_copy"] = timed("import", copy, "--db", db)
        shutil.copy(grown, log)
        out["grown_by_1_percent"] = timed("import", log, "--db", db)
        first = out["first"]["wall_s"]
        for k in ("same_file", "renamed_respelt_copy", "grown_by_1_percent"):
            out[k]["share_of_first"] = round(out[k]["wall_s"] / first, 4)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
