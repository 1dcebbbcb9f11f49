#!/usr/bin/env python3
"""Benchmark every stage on seeded generated corpora, and how time grows with size.

    python bench/bench.py                 # full: 10,000-hand corpora, 2-player growth to 1,000,000 hands
    python bench/bench.py --small         # a few thousand hands, for CI (no timing is asserted)

Stages per corpus (2, 6 and 8 players): parse (the text, and the same records as
BHH-JSON), audit (replay with every check,
the cinch included, and settlement), DuckDB import, and end to end (the command
`booray-audit check --format json`, a process of its own, hands per CPU second: the
median of three runs in the full run);
the cinch decisions met while auditing (mean, p99, what decided them: the ``cinch``
stage, which walks plain hands in Python so that the judge is asked, and timed, at
every decision: the compiled walk settles most of them itself).  Audit and
end to end run twice: with the compiled cinch search (where it is built) and with
the pure-Python one (BOORAY_AUDIT_PURE=1), each with its own default budget;
`check --format json` (parse, audit, settlement and the JSON written to /dev/null)
at growing sizes with peak memory (time must grow linearly, memory stay flat);
`import` of those files, of 100,000 one-hand sessions and of as many as the
longest file has hands, with peak memory (which must stay flat too); `check --jobs 1`
and `--jobs 2` on a 6-player corpus twice as long, five pairs in turn (wall time: what
a second core buys; the median ratio), each pair beside the file's two halves checked
at once by two processes (what a second core gives on the machine at the time, with
nothing shared); the process start (`check` of an empty
file); `stats` over a store of 1,000,000 hands; and, if PokerKit is installed,
PokerKit replaying a hand history, for a ratio.  Each measured stage runs in its
own process so that its peak memory is its own, with its modules' bytecode cached as
an installed tool's is (in `out/pycache`, filled by a first run on an empty file).
Every rate is per CPU second of the process measured (all its threads; a stage's
``seconds`` is its CPU time, ``wall_s`` beside it): on a shared machine, wall time
measures the load as much as the code.  Peak memory is the process's own (VmHWM).
Prints one JSON document.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def corpus(path: str, hands: int, players: int, seed: int, session_hands: int = 40) -> str:
    """The seeded corpus at ``path``, generated (in a process of its own) if missing."""
    if not os.path.exists(path):
        _child(["--stage", "generate", "--file", path, "--hands", str(hands), "--players", str(players),
                "--seed", str(seed), "--session-hands", str(session_hands)])
    return path


def generate_corpus(path: str, hands: int, players: int, seed: int, session_hands: int = 40) -> None:
    from booray_audit.generate import generate
    from booray_audit.rules.profiles import profile, with_toggle
    rules = with_toggle(profile("standard"), "limit", "100")  # online tables cap penalties
    with open(path + ".tmp", "w") as f:
        for line in generate(hands, players=(players, players), seed=seed, violations=0.01, rules=rules,
                             session_hands=session_hands):
            f.write(line + "\n")
    os.replace(path + ".tmp", path)


def _child(args: list[str], env: dict | None = None) -> str:
    """Run this script with ``args`` (``--stage NAME ...``) in a process of its own; its
    standard output.  Every stage, the heavy work (generating, growing a store) included,
    runs in a child so that this process stays small: on Linux a process started from it
    counts this one's resident memory at the start in its own peak, which would swamp the
    peak of the stage it measures."""
    p = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env)
    if p.returncode:
        raise SystemExit(f"stage {args[1]} failed: {p.stderr[-2000:]}")
    return p.stdout


def scaled(base: str, copies: int, out: str) -> str:
    """The base corpus repeated, each copy a session of its own (other Event tags)."""
    if not os.path.exists(out):
        with open(base) as f:
            text = f.read()
        with open(out + ".tmp", "w") as f:
            for k in range(copies):
                f.write(text.replace('[Event "Generated session', f'[Event "Copy {k} session'))
                f.write("\n")
        os.replace(out + ".tmp", out)
    return out


# -- stages, each run in a child process -----------------------------------------

def as_jsonl(path: str) -> str:
    """The corpus as BHH-JSON, next to it (the same records: reading it is timed as `parse`),
    written by a process of its own: the records are held whole while they are written."""
    out = path[:-4] + ".jsonl"
    if not os.path.exists(out):
        _child(["--stage", "jsonl", "--file", path])
    return out


def write_jsonl(path: str) -> None:
    from booray_audit.notation import jsonl, reader
    sessions, _ = reader.collect(reader.read(path))
    with open(path[:-4] + ".jsonl.tmp", "w") as f:
        f.write(jsonl.write(sessions))
    os.replace(path[:-4] + ".jsonl.tmp", path[:-4] + ".jsonl")


def stage(name: str, path: str, db: str | None = None) -> dict:
    from booray_audit.cinch import judge as cinch
    from booray_audit.notation import reader as notation
    from booray_audit.judge.audit import HandReport, audit
    t0, c0 = time.perf_counter(), time.process_time()  # CPU: the whole process, every thread (DuckDB's)
    out: dict = {}
    if name == "parse":
        hands = sum(1 for it in notation.read(path) if type(it).__name__ == "Hand")
    elif name == "cinch":  # every cinch decision timed: the Python plain walk, which asks the judge each
        from booray_audit.judge import plain  # (the compiled one settles most of them itself)
        plain._search = None
        times: list[float] = []
        by: dict[str, int] = {}
        judge = cinch.judge

        def timed(pos, won, rules, solver=None):
            s = time.process_time()
            before = cinch.STATS["undecided"]
            sv = cinch.Solver(rules)
            res = judge(pos, won, rules, sv)
            times.append(time.process_time() - s)
            how = "undecided" if cinch.STATS["undecided"] != before else sv.decided_by
            by[how] = by.get(how, 0) + 1
            return res
        cinch.judge = timed
        hands = sum(1 for it in audit(notation.read(path)) if isinstance(it, HandReport))
        t = sorted(times)
        out["cinch"] = {"decisions": len(t), "mean_ms": 1000 * sum(t) / len(t) if t else 0,
                        "p99_ms": 1000 * t[int(0.99 * (len(t) - 1))] if t else 0,
                        "decided_by": {k: v / len(t) for k, v in sorted(by.items())} if t else {},
                        "undecided": cinch.STATS["undecided"],
                        "seconds": sum(t)}
    elif name == "audit":  # as the tool runs: no per-decision timing kept
        hands = sum(1 for it in audit(notation.read(path)) if isinstance(it, HandReport))
    elif name == "check":  # what `check --format json` does, its output to /dev/null (growth)
        from booray_audit.cli.shared import run_check
        from booray_audit.report.document import JsonStream
        hands = 0
        with open(os.devnull, "w") as sink:
            doc = JsonStream(sink)
            write = doc.add

            def add(item):
                nonlocal hands
                hands += isinstance(item, HandReport)
                write(item)
            doc.add = add
            run_check([path], None, doc)
            doc.close()
    elif name == "import":
        from booray_audit.store import load
        from booray_audit.store import schema as store
        con = store.connect(db, memory=store.LOAD_MEMORY)  # as `import` holds DuckDB
        res = load.import_file(con, path, audit(notation.read(path)))
        rows = sum(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                   for t in ("hands", "hand_players", "plays", "findings", "sessions", "rulings"))
        con.close()
        hands = res.hands
        out["rows"] = rows
    elif name == "stats":
        from booray_audit.store import schema as store
        from booray_audit.store.queries import stats
        con = store.connect(db, read_only=True)
        n = con.execute("SELECT count(*) FROM hands").fetchone()[0]
        s = time.process_time()
        stats(con)
        out["leaderboard_s"] = time.process_time() - s
        player = con.execute("SELECT player FROM hand_players LIMIT 1").fetchone()[0]
        s = time.process_time()
        stats(con, player)
        out["player_s"] = time.process_time() - s
        con.close()
        hands = n
    else:
        raise SystemExit(f"unknown stage {name}")
    out.update(stage=name, hands=hands, cpu_s=time.process_time() - c0, wall_s=time.perf_counter() - t0,
               peak_mb=_peak_mb())
    # per CPU second: on a shared machine, wall time measures the load as much as the code
    out["seconds"] = out["cpu_s"]
    out["hands_per_s"] = hands / out["cpu_s"] if out["cpu_s"] else None
    return out


def _peak_mb() -> float:
    """This process's own peak memory: VmHWM where /proc has it (the rusage peak of a
    child also counts the process it was forked from, the benchmark's parent)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


PYCACHE: str | None = None  # set by main: the bytecode cache of every measured process


def _env(pure: bool) -> dict:
    env = dict(os.environ)
    env.pop("BOORAY_AUDIT_PURE", None)
    if PYCACHE:
        # as an installed tool runs: with its modules' bytecode cached (pip compiles it at
        # install), not compiled from source at every start; the cache is the benchmark's
        # own, so the source tree stays clean whatever PYTHONDONTWRITEBYTECODE says
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    if pure:
        env["BOORAY_AUDIT_PURE"] = "1"
    return env


def run_stage(name: str, path: str, db: str | None = None, pure: bool = False) -> dict:
    return json.loads(_child(["--stage", name, "--file", path] + (["--db", db] if db else []), _env(pure)))


def end_to_end(path: str, hands: int, pure: bool = False, runs: int = 1) -> dict:
    """`booray-audit check --format json FILE` in a process of its own: hands per CPU second
    (its user + system time, the interpreter's start included) and peak memory; with
    ``runs``, that many runs in turn and the one of median CPU time, the others' CPU
    seconds beside it (``cpu_s_runs``): one run on a shared machine moves by 5-10%."""
    results = sorted((command(["check", "--format", "json", path], hands, pure) for _ in range(runs)),
                     key=lambda x: x["cpu_s"])
    median = dict(results[len(results) // 2])
    if runs > 1:
        median["cpu_s_runs"] = [x["cpu_s"] for x in results]
    return median


def command(args: list[str], hands: int, pure: bool = False) -> dict:
    """`booray-audit ARGS` in a process of its own: its CPU seconds (user + system, the
    interpreter's start and any worker processes included), wall seconds, hands per CPU
    second and peak memory (its own; a worker's is its own too)."""
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        p = subprocess.Popen([sys.executable, "-m", "booray_audit.cli", *args],
                             stdout=sink, stderr=subprocess.PIPE, text=True, env=_env(pure))
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)  # this child's own figures (its peak, not the largest child's)
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if p.returncode not in (0, 1):
        raise SystemExit(f"{args[0]} failed: {err[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"hands": hands, "cpu_s": cpu, "wall_s": wall, "hands_per_cpu_s": hands / cpu if hands else None,
            "peak_mb": usage.ru_maxrss / 1024}


def halved(path: str) -> list[str]:
    """The file in two halves, cut at the first clean session start past its middle (beside it)."""
    from booray_audit.notation.reader import session_starts
    with open(path, "rb") as f:
        data = f.read()
        starts = list(session_starts(f, max(len(data) // 2, 1)))
    cut = starts[1][0] if len(starts) > 1 and starts[1][0] is not None else len(data)  # none: one "half"
    halves = [path + ".first-half", path + ".second-half"]
    for half, part in zip(halves, (data[:cut], data[cut:])):
        with open(half, "wb") as out:
            out.write(part)
    return halves


def together(commands: list[list[str]]) -> dict:
    """`booray-audit ARGS` for each of ``commands``, all at once, each in a process of its own:
    the wall seconds until the last ends, and their CPU seconds together."""
    start, cpu = time.perf_counter(), 0.0
    with open(os.devnull, "w") as sink:
        ps = [subprocess.Popen([sys.executable, "-m", "booray_audit.cli", *args], stdout=sink,
                               stderr=subprocess.DEVNULL, env=_env(False)) for args in commands]
        for p in ps:
            _, status, usage = os.wait4(p.pid, 0)
            cpu += usage.ru_utime + usage.ru_stime
    return {"wall_s": time.perf_counter() - start, "cpu_s": cpu}


def import_growth(paths: list[tuple[int, str]]) -> list[dict]:
    """`booray-audit import` of each file into a new store: CPU, wall and peak memory."""
    runs = []
    for hands, path in paths:
        with tempfile.TemporaryDirectory() as tmp:
            r = command(["import", "--quiet", "--db", os.path.join(tmp, "b.duckdb"), path], hands)
        r["file"] = os.path.basename(path)
        runs.append(r)
        print(f"import {r['file']}: {json.dumps(r)}", file=sys.stderr)
    return runs


def multiply_store(db: str, target: int) -> int:
    """Grow a store to ``target`` hands by copying its rows under new ids (for `stats`)."""
    import duckdb
    con = duckdb.connect(db)
    n = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    k = 1
    while n * (k + 1) <= target:
        suffix = f"'#{k}'"
        con.execute("BEGIN")
        for t in ("hands", "hand_players", "plays", "findings"):
            cols = [r[0] for r in con.execute(f"DESCRIBE {t}").fetchall()]
            sel = ", ".join(f"hand_id || {suffix}" if c == "hand_id" else c for c in cols)
            con.execute(f"INSERT INTO {t} SELECT {sel} FROM {t} WHERE NOT contains(hand_id, '#')")
        con.execute("COMMIT")
        k += 1
    total = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    con.close()
    return total


def pokerkit_rate(seconds: float = 3.0) -> dict | None:
    """PokerKit loading and replaying a hand history (its PHH format), hands per CPU second
    of the replay loop (its import and start not counted)."""
    try:
        from pokerkit import HandHistory
    except ImportError:
        return None
    phh = """variant = "NT"
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
bring_in = 0
small_bet = 10
big_bet = 10
min_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ["d dh p1 AcKc", "d dh p2 7h2d", "d dh p3 QsQd", "p3 cbr 30", "p1 cc", "p2 f", "d db 9s8s3c",
"p1 cc", "p3 cbr 50", "p1 cc", "d db Td", "p1 cc", "p3 cc", "d db 2h", "p1 cbr 100", "p3 cc"]
"""
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hh = HandHistory.loads(phh)
        for _ in hh:
            pass
        n += 1
    return {"hands": n, "hands_per_s": n / (time.process_time() - start)}


def pokerkit_pairs(path: str, hands: int, runs: int, seconds: float) -> dict | None:
    """6-player end to end and PokerKit (in a process of its own) in turn, ``runs`` times:
    the ratio pair by pair, so that it holds while a shared machine's speed drifts (one
    PokerKit figure measured apart from ours moved by half from run to run)."""
    import importlib.util
    if importlib.util.find_spec("pokerkit") is None:
        return None
    pairs = []
    for _ in range(runs):
        ours = end_to_end(path, hands)["hands_per_cpu_s"]
        p = subprocess.run([sys.executable, __file__, "--stage", "pokerkit", "--seconds", str(seconds)],
                           capture_output=True, text=True)
        theirs = json.loads(p.stdout) if p.returncode == 0 else None
        if not theirs:
            return None
        pairs.append((ours, theirs["hands_per_s"]))
    ratios = sorted(a / b for a, b in pairs)
    return {"pairs": pairs, "hands_per_s": sorted(b for _, b in pairs)[len(pairs) // 2],
            "ratio_median": ratios[len(ratios) // 2], "ratio_min": ratios[0], "ratio_max": ratios[-1]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="a few thousand hands (CI)")
    ap.add_argument("--hands", type=int, help="hands per base corpus")
    ap.add_argument("--players", default="2,6,8")
    ap.add_argument("--scale", help="sizes for the growth test, comma-separated")
    ap.add_argument("--growth-players", type=int, default=2,
                    help="players per hand in the growth test (2: a million 6-player hands take hours)")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--stage", help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    ap.add_argument("--seconds", type=float, default=5.0, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--session-hands", type=int, default=40, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.stage == "generate":
        generate_corpus(a.file, a.hands, int(a.players), a.seed, a.session_hands)
        return 0
    if a.stage == "multiply":
        print(json.dumps(multiply_store(a.db, a.hands)))
        return 0
    if a.stage == "jsonl":
        write_jsonl(a.file)
        return 0
    if a.stage == "pokerkit":
        print(json.dumps(pokerkit_rate(a.seconds)))
        return 0
    if a.stage:
        print(json.dumps(stage(a.stage, a.file, a.db)))
        return 0
    base_n = a.hands or (300 if a.small else 10_000)
    scale = [int(x) for x in (a.scale or ("300,600" if a.small else "10000,100000,1000000")).split(",")]
    os.makedirs(a.out, exist_ok=True)
    global PYCACHE
    PYCACHE = os.path.join(os.path.abspath(a.out), "pycache")
    empty = os.path.join(a.out, "empty.bhh")
    open(empty, "w").close()
    end_to_end(empty, 0)  # fills the bytecode cache: every later start reads it
    starts = sorted(end_to_end(empty, 0)["cpu_s"] for _ in range(5))
    from booray_audit.cinch import compiled as cinch_compiled
    compiled = cinch_compiled._search is not None
    report: dict = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                    "cinch_search": cinch_compiled.SOLVER, "base_hands": base_n,
                    "start_cpu_s": starts[2], "corpora": {}}  # `check` of an empty file: the median of 5
    for players in (int(x) for x in a.players.split(",")):
        path = corpus(os.path.join(a.out, f"p{players}-{base_n}.bhh"), base_n, players, seed=players)
        entry = {"parse": run_stage("parse", path), "parse_jsonl": run_stage("parse", as_jsonl(path)),
                 "audit": run_stage("audit", path), "cinch": run_stage("cinch", path)}
        with tempfile.TemporaryDirectory() as tmp:
            entry["import"] = run_stage("import", path, os.path.join(tmp, "b.duckdb"))
        p, au = entry["parse"]["seconds"], entry["audit"]["seconds"]
        entry["check"] = end_to_end(path, base_n, runs=1 if a.small else 3)
        entry["end_to_end_hands_per_s"] = entry["check"]["hands_per_cpu_s"]
        entry["audit_only_hands_per_s"] = base_n / max(au - p, 1e-9)
        entry["import_write_share"] = max(entry["import"]["seconds"] - au, 0) / entry["import"]["seconds"]
        if compiled:
            entry["pure_python"] = {"audit": run_stage("cinch", path, pure=True),  # the tool's road there
                                    "check": end_to_end(path, base_n, pure=True)}
        report["corpora"][players] = entry
        print(f"{players} players: {json.dumps(entry)}", file=sys.stderr)
    # growth: one corpus repeated
    g = a.growth_players
    base_g = corpus(os.path.join(a.out, f"p{g}-{base_n}.bhh"), base_n, g, seed=g)
    growth = []
    for size in scale:
        path = scaled(base_g, max(1, size // base_n), os.path.join(a.out, f"p{g}-x{size}.bhh"))
        r = run_stage("check", path)
        growth.append(r)
        print(f"growth {size}: {json.dumps(r)}", file=sys.stderr)
    report["growth"] = {"players": g, "runs": growth}
    # import: growing files, then files of one-hand sessions: 100,000 of them, and
    # as many as the largest file has hands
    files = [(size, os.path.join(a.out, f"p{g}-x{size}.bhh")) for size in scale]
    for n in sorted({min(100_000, scale[-1]), scale[-1]}):
        files.append((n, corpus(os.path.join(a.out, f"p{g}-sessions-{n}.bhh"), n, g, seed=g, session_hands=1)))
    report["import_growth"] = import_growth(files)
    # --jobs: a 6-player corpus twice the base's (20,000 hands in the full run) checked by one
    # process, then by two, five times in turn (three with --small): the median of the pairs' ratios
    # process, then by two; and, for what two cores give on this machine at the time, its two
    # halves (cut where a session starts) checked at once by two processes of their own
    six_path = corpus(os.path.join(a.out, f"p6-{2 * base_n}.bhh"), 2 * base_n, 6, seed=6)
    halves = halved(six_path)
    pairs = []
    for _ in range(3 if a.small else 5):
        pair = {n: command(["check", "--format", "json", "--jobs", str(n), six_path], 2 * base_n) for n in (1, 2)}
        pair["halves"] = together([["check", "--format", "json", half] for half in halves])
        pairs.append(pair)
    ratios = sorted(p[1]["wall_s"] / p[2]["wall_s"] for p in pairs)
    median = ratios[len(ratios) // 2]
    jobs = pairs[[p[1]["wall_s"] / p[2]["wall_s"] for p in pairs].index(median)]
    apart = sorted(p[1]["wall_s"] / p["halves"]["wall_s"] for p in pairs)
    report["jobs"] = {"players": 6, "hands": 2 * base_n, "one": jobs[1], "two": jobs[2], "speedup_wall": median,
                      "ratios": ratios, "halves_apart": apart, "halves_speedup_wall": apart[len(apart) // 2]}
    # stats over a large store
    base6 = corpus(os.path.join(a.out, f"p6-{base_n}.bhh"), base_n, 6, seed=6)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "big.duckdb")
        run_stage("import", base6, db)
        target = 1_000_000 if not a.small else 3 * base_n
        report["stats_store_hands"] = json.loads(_child(["--stage", "multiply", "--db", db, "--hands", str(target)]))
        report["stats"] = run_stage("stats", base6, db)
    six = report["corpora"].get(6, {})
    report["pokerkit"] = pokerkit_pairs(base6, base_n, 1 if a.small else 3, 1.0 if a.small else 5.0)
    if report["pokerkit"]:
        report["ratio_to_pokerkit_6p"] = report["pokerkit"]["ratio_median"]
        if "pure_python" in six:
            report["ratio_to_pokerkit_6p_pure_python"] = (six["pure_python"]["check"]["hands_per_cpu_s"]
                                                          / report["pokerkit"]["hands_per_s"])
    print(json.dumps(report, indent=1))
    print(summary(report), file=sys.stderr)
    return 0


def summary(report: dict) -> str:
    """The table to read: hands per CPU second by stage, compiled and pure Python side by side."""
    rows = ["players  parse h/CPU-s (BHH | BHH-JSON)  audit h/CPU-s (compiled | pure)  "
            "end to end h/CPU-s (compiled | pure)  cinch mean/p99 CPU-ms (compiled | pure)"]
    for players, e in report["corpora"].items():
        pure = e.get("pure_python", {})

        def cinch(audit):
            c = audit.get("cinch", {})
            return f"{c.get('mean_ms', 0):.3f}/{c.get('p99_ms', 0):.2f}" if c else "-"
        rows.append(f"{players:>7}  {e['parse']['hands_per_s']:>9.0f} | {e['parse_jsonl']['hands_per_s']:>8.0f}  "
                    f"{e['audit']['hands_per_s']:>9.0f} | {pure.get('audit', {}).get('hands_per_s', 0):>6.0f}"
                    f"            {e['end_to_end_hands_per_s']:>9.0f} | "
                    f"{pure.get('check', {}).get('hands_per_cpu_s', 0):>6.0f}"
                    f"                    {cinch(e['cinch'])} | {cinch(pure.get('audit', {}))}")
    if report.get("pokerkit"):
        pk = report["pokerkit"]
        rows.append(f"PokerKit: {pk['hands_per_s']:.0f} hands/CPU-s; 6 players end to end / PokerKit, pair by pair: "
                    f"median {pk['ratio_median']:.2f} (min {pk['ratio_min']:.2f}, max {pk['ratio_max']:.2f}, "
                    f"{len(pk['pairs'])} pairs) compiled, {report.get('ratio_to_pokerkit_6p_pure_python', 0):.2f} "
                    "pure Python")
    rows.append(f"process start (`check` of an empty file): {report['start_cpu_s']:.3f} CPU-s")
    for r in report.get("import_growth", []):
        rows.append(f"import {r['file']}: {r['hands']:,} hands, {r['hands_per_cpu_s']:.0f} h/CPU-s, "
                    f"peak {r['peak_mb']:.0f} MB")
    if report.get("jobs"):
        j = report["jobs"]
        rows.append(f"check --jobs 2 / --jobs 1, {j['hands']:,} hands of {j['players']} players: "
                    f"{j['speedup_wall']:.2f}x wall, the median of {len(j['ratios'])} pairs "
                    f"({', '.join(f'{x:.2f}' for x in j['ratios'])}; that pair: {j['one']['wall_s']:.1f} s and "
                    f"{j['two']['wall_s']:.1f} s wall, {j['one']['cpu_s']:.1f} s and {j['two']['cpu_s']:.1f} s CPU)")
        if j.get("halves_apart"):
            rows.append(f"  its two halves in two processes at once / --jobs 1 (what a second core gives here): "
                        f"{j['halves_speedup_wall']:.2f}x ({', '.join(f'{x:.2f}' for x in j['halves_apart'])})")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
