"""The compiled search is built twice into its module: the baseline copy (_search.c) and
the same source for CPUs with the BMI1, BMI2 and LZCNT instructions (_search_bmi.c),
which the module hands out where the CPU has them; BOORAY_AUDIT_CPU=baseline asks for
the first.  Both copies must give the same answers node for node, and the same audit
byte for byte: each is run in a process of its own on the same positions and files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from booray_audit.cinch.compiled import _search
from booray_audit.generate import generate_text

from .conftest import ROOT

pytestmark = pytest.mark.skipif(_search is None, reason="the compiled search is not built here")

# (answer, nodes) of each copy's search on random positions of every table size, within
# budgets that stop some searches midway (where the node counts must agree exactly)
SWEEP = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
from booray_audit.cinch.compiled import _search
from booray_audit.cinch.solver import Solver, Undecided
from tests.oracle import VARIANTS, random_position
rng = random.Random(7)
out = []
for i in range(800):
    rules = VARIANTS[i % len(VARIANTS)]
    pos, _ = random_position(rng, rules, suits=4, ranks=13, hand_size=5, players=(2, 8),
                              upcard=i % 3 == 0, tricks_first=0)
    for budget in (60, 700, 20_000):
        solver = Solver(rules, budget, compiled=True)
        k = 1 + i % min(2, pos.hand.bit_count())
        try:
            answer = repr(solver.solve(pos, k))
        except Undecided:
            answer = "undecided"
        out.append([answer, solver.nodes])
print(json.dumps({"variant": _search.variant(), "sweep": out}))
"""


def _run(args: list[str], baseline: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("BOORAY_AUDIT_PURE", None)
    if baseline:
        env["BOORAY_AUDIT_CPU"] = "baseline"
    else:
        env.pop("BOORAY_AUDIT_CPU", None)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=600)


def _cpu_has_bmi() -> bool | None:
    """Whether this CPU has BMI1, BMI2 and LZCNT (None: not known here)."""
    try:
        flags = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags"))
    except (OSError, StopIteration):
        return None
    have = set(flags.split(":", 1)[1].split())
    return {"bmi1", "bmi2", "abm"} <= have


def test_both_copies_search_alike_node_for_node():
    runs = {}
    for baseline in (True, False):
        p = _run(["-c", SWEEP, str(ROOT)], baseline)
        assert p.returncode == 0, p.stderr
        runs[baseline] = json.loads(p.stdout)
    assert runs[True]["variant"] == "baseline"
    import platform
    if platform.machine() in ("x86_64", "AMD64") and _cpu_has_bmi():
        assert runs[False]["variant"] == "bmi"  # this CPU has the instructions: the second copy runs
    sweep = runs[True]["sweep"]
    assert {answer for answer, _ in sweep} == {"True", "False", "undecided"}  # every answer is reached
    assert any(nodes > 60 for _, nodes in sweep)  # and searches past the smallest budget
    assert runs[False]["sweep"] == sweep


@pytest.mark.parametrize("players", [(2, 3), (4, 6), (7, 8)])
def test_both_copies_audit_alike(players, tmp_path):
    text, _ = generate_text(150, players=players, seed=sum(players), violations=0.05)
    path = tmp_path / "hands.bhh"
    path.write_text(text)
    outs = [_run(["-m", "booray_audit.cli", "check", "--format", "json", str(path)], baseline)
            for baseline in (True, False)]
    assert [p.returncode for p in outs] == [1, 1], [p.stderr for p in outs]  # the violations are found
    assert outs[0].stdout == outs[1].stdout and '"findings": [{' in outs[0].stdout
