"""Hostile input never crashes: a one-line reason, a documented exit code, no traceback."""

from __future__ import annotations

import io
import json
import os

from .conftest import reports, run_cli

HAND = "Hand 1\nDealer Ann\nTrump s\n" + "".join(
    f"Trick Ann {a}, \"[bold]x\" {b}\n" for a, b in (("2s", "3s"), ("4h", "5h"), ("6h", "7h"), ("8h", "9h"), ("Th", "Jh")))


def calm(p) -> str:
    """The run's stderr, checked to hold no traceback."""
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Error: " not in err.split(":", 1)[0], err
    return err


def test_a_number_past_pythons_digit_limit_is_a_syntax_error(tmp_path):
    f = tmp_path / "big.bhh"
    f.write_text("Hand 1\nDealer Ann\nTrump s\nNet Ann +" + "7" * 5000 + "\nTrick Ann 2s\n")
    p = run_cli("check", f)
    err = calm(p)
    assert p.returncode == 2
    assert f"{f}:4:9: a chip amount can be at most 99,999" in err  # the amount, sign and all
    assert len(err) < 2000  # the line is shown as a window, not echoed whole
    head = tmp_path / "head.bhh"
    head.write_text("Hand " + "9" * 5000 + "\nDealer Ann\n")
    p = run_cli("check", head)
    calm(p)
    assert p.returncode == 2


def test_house_files_with_wrong_types_or_bytes_are_usage_errors(tmp_path):
    game = tmp_path / "g.bhh"
    game.write_text(HAND)
    for body in (b"rules = 5\n", b'base = "standard"\nx = "\xff"\n', b'base = "standard"\nmust-beat = [1]\n',
                 b'base = 7\n', b'must-beat = "sometimes"\n'):
        house = tmp_path / "house.toml"
        house.write_bytes(body)
        p = run_cli("check", "--rules", house, game)
        err = calm(p)
        assert p.returncode == 3 and err.count("\n") == 1 and str(house) in err, (body, err)


def test_rich_markup_in_a_record_is_printed_as_text(tmp_path):
    f = tmp_path / "m.bhh"
    f.write_text('[Event "[/]"]\n[Seats "Ann [bold]x"]\n\n' + HAND)
    p = run_cli("check", f)
    calm(p)
    out = p.stdout.decode()
    assert "[/]" in out and "[bold]x" in out
    p = run_cli("replay", f, "--hand", "1")
    calm(p)
    assert "[bold]x" in p.stdout.decode()
    db = tmp_path / "m.duckdb"
    run_cli("import", f, "--db", db)
    for args in (("stats",), ("ledger",), ("sql", "SELECT player FROM hand_players")):
        p = run_cli(*args, "--db", db)
        calm(p)
        assert "[bold]x" in p.stdout.decode(), args


def test_a_file_name_that_is_not_utf8(tmp_path):
    raw = os.fsencode(tmp_path) + b"/bad\xff.bhh"
    with open(raw, "wb") as f:
        f.write(HAND.encode())
    name = os.fsdecode(raw)
    p = run_cli("check", "--format", "json", name)
    calm(p)
    assert json.loads(p.stdout)["files"][0]["path"].endswith("bad\ufffd.bhh")
    p = run_cli("import", name, "--db", tmp_path / "s.duckdb")
    calm(p)
    assert p.returncode in (0, 1)
    p = run_cli("check", "--format", "parquet", "--out", tmp_path / "pq", name)
    calm(p)
    assert p.returncode in (0, 1)


def test_sql_edges_and_generate_into_a_missing_folder(tmp_path):
    f = tmp_path / "g.bhh"
    f.write_text(HAND)
    db = tmp_path / "s.duckdb"
    run_cli("import", f, "--db", db)
    for query in ("", ";", " ; \n"):
        p = run_cli("sql", query, "--db", db)
        assert p.returncode == 3 and "the query is empty" in calm(p)
    p = run_cli("sql", "SELECT 'nan'::DOUBLE AS a, '-inf'::DOUBLE AS b", "--db", db, "--format", "json")
    calm(p)

    def refuse(word):
        raise ValueError(word)
    assert json.loads(p.stdout, parse_constant=refuse) == [{"a": "NaN", "b": "-Infinity"}]
    p = run_cli("generate", "--hands", "2", "--out", tmp_path / "missing" / "x.bhh")
    assert p.returncode == 2 and "cannot write" in calm(p)


def test_bad_tags_give_the_same_report_whatever_the_number_of_jobs(tmp_path):
    """A bad tag between a hand's events, or a tag block that cannot be read: the same
    errors at their own lines, the same sessions and the same exit code with --jobs 2."""
    from booray_audit.generate import generate_text
    text, _ = generate_text(90, players=(3, 4), seed=4)
    sessions = text.split("\n\n[Event")
    assert len(sessions) == 3
    second = sessions[1].split("\n")
    second.insert(12, '[Rule "max-discard=7:3:1"]')  # among the events of the first hand
    broken = "\n\n[Event".join([sessions[0], "\n".join(second), ' "x"\n[Ante "oops' + sessions[2]])
    f = tmp_path / "log.bhh"
    f.write_text(broken)
    one = run_cli("check", "--format", "json", f)
    two = run_cli("check", "--format", "json", "--jobs", "2", f)
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout
    errors = json.loads(one.stdout)["files"][0]["errors"]
    lines = broken.splitlines()
    assert [lines[e["line"] - 1][:6] for e in errors] == ['[Rule ', '[Event', '[Ante ']
    assert len(json.loads(one.stdout)["sessions"]) == 2  # the first whole, the second up to its bad tag


def test_fmt_keeps_an_annotation_on_a_tag_inside_a_hand(tmp_path):
    f = tmp_path / "t.bhh"
    f.write_text('Hand 1\nDealer Ann\n[Ante "2"] \n{ midnight }\nTrump s\n')
    once = run_cli("fmt", f)
    assert once.returncode == 0 and b"{ midnight }" in once.stdout
    g = tmp_path / "canon.bhh"
    g.write_bytes(once.stdout)
    assert run_cli("fmt", "--check", g).returncode == 0


def _peak_reading(path) -> tuple[list, int]:
    """The reader's items for a file and the peak of Python memory while reading it."""
    import tracemalloc
    from booray_audit.notation import reader as notation
    tracemalloc.start()
    try:
        problems = [i for i in notation.read(str(path)) if hasattr(i, "column")]
        return problems, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def notation_hands(path):
    from booray_audit.notation import reader as notation
    from booray_audit.record import Hand
    return [i for i in notation.read(str(path)) if isinstance(i, Hand)]


def test_memory_is_bounded_by_the_hand_not_the_file(tmp_path):
    blank = tmp_path / "blank.bhh"
    blank.write_bytes(b"\n" * 2_000_000 + b"# a comment\n" * 200_000 + b"Hand 1\nDealer Ann\nTrump s\n")
    problems, peak = _peak_reading(blank)
    assert problems == [] and peak < 20_000_000, peak

    inside = tmp_path / "inside.bhh"  # inside a hand: the parser never sees the run
    inside.write_bytes(b"Hand 1\nDealer Ann\n" + b"\n" * 300_000 + b"Trump s\nTrick Ann 2s, Ben 3s\n")
    problems, peak = _peak_reading(inside)
    assert problems == [] and peak < 20_000_000, peak
    (hand,) = [h for h in notation_hands(inside)]
    assert [e.line for e in hand.events] == [2, 300_003, 300_004]

    wide = tmp_path / "wide.bhh"
    wide.write_bytes(b"Hand 1\nDealer Ann\nTrick " + b"Ann 2s, " * 3_000_000 + b"\nHand 2\nDealer Ann\n")
    problems, peak = _peak_reading(wide)
    assert [(p.line, p.message) for p in problems] == [(3, "this line is longer than 100,000 characters")]
    assert peak < 20_000_000, peak

    tall = tmp_path / "tall.bhh"
    tall.write_bytes(b"Hand 1\nDealer Ann\n" + b"Trick Ann 2s, Ben 3s\n" * 300_000 + b"Hand 2\nDealer Ann\n")
    problems, peak = _peak_reading(tall)
    assert [p.line for p in problems] == [1] and "more than 10,000 lines" in problems[0].message
    assert peak < 40_000_000, peak
    p = run_cli("check", tall)
    calm(p)
    assert p.returncode == 2


def test_a_staging_folder_left_by_a_killed_import_is_removed_by_the_next(tmp_path):
    import subprocess
    import tempfile
    dead = subprocess.Popen(["true"])
    dead.wait()  # a process id that is no longer running
    left = os.path.join(tempfile.gettempdir(), f"booray-stage-{dead.pid}-x1y2")
    os.makedirs(left, exist_ok=True)
    open(os.path.join(left, "hands.csv"), "w").close()
    f = tmp_path / "g.bhh"
    f.write_text(HAND)
    p = run_cli("import", f, "--db", tmp_path / "s.duckdb")
    calm(p)
    assert not os.path.exists(left)


def test_sql_tells_a_broken_query_from_a_broken_store(tmp_path):
    f = tmp_path / "g.bhh"
    f.write_text(HAND)
    db = tmp_path / "s.duckdb"
    run_cli("import", f, "--db", db)
    p = run_cli("sql", "SELEC 1", "--db", db)
    assert p.returncode == 3 and "the query failed" in calm(p)
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(os.urandom(20000))
    p = run_cli("sql", "SELECT 1", "--db", junk)
    assert p.returncode == 2 and calm(p).count("\n") == 1


def test_the_cinch_search_memory_cap_is_settable():
    from booray_audit.cinch import judge as cinch
    before = cinch.Solver.MEMO_ENTRIES
    assert before * cinch.ENTRY_BYTES <= 1_000_000_000  # under 1 GB by default
    try:
        cinch.set_memory(8)
        assert cinch.Solver.MEMO_ENTRIES == 10_000
    finally:
        cinch.Solver.MEMO_ENTRIES = before


def test_numbers_past_the_stores_columns_are_refused_alike_by_check_and_import(tmp_path):
    f = tmp_path / "n.bhh"
    f.write_text('[Ante "3000000000"]\n\nHand 1\nDealer Ann\n\n[Event "b"]\n\nHand 3000000000\nDealer Ann\n'
                 '\nHand 3000000001\nPot ' + "9" * 45 + '\n\nHand 3000000002\nAnn play 9999999999\n')
    check = run_cli("check", f)
    imp = run_cli("import", f, "--db", tmp_path / "s.duckdb")
    assert check.returncode == imp.returncode == 2
    said = [line for line in calm(check).splitlines() if line.startswith(str(f))]
    assert [line.split(": ", 1)[0].rsplit(":", 2)[1] for line in said] == ["1", "8", "11", "12", "14", "15"]
    assert said == [line for line in calm(imp).splitlines() if line.startswith(str(f))]
    assert "CSV" not in imp.stderr.decode()


def test_workers_of_a_killed_parallel_run_die_quietly(tmp_path):
    import signal
    import subprocess
    from booray_audit.generate import generate_text
    from .conftest import cli_command
    text, _ = generate_text(600, players=(6, 8), seed=9)
    f = tmp_path / "big.bhh"
    f.write_text(text)
    p = subprocess.Popen(cli_command() + ["check", "--format", "json", "--jobs", "2", str(f)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import time
    time.sleep(2)
    p.send_signal(signal.SIGKILL)
    p.stdout.close()  # what the workers would write to goes nowhere
    p.wait()
    import select
    err, deadline = b"", time.monotonic() + 60
    while time.monotonic() < deadline:  # until every worker has gone (stderr's last writer)
        if select.select([p.stderr], [], [], 1)[0]:
            chunk = os.read(p.stderr.fileno(), 65536)
            if not chunk:
                break
            err += chunk
    else:
        subprocess.run(["pkill", "-f", str(f)])
        raise AssertionError("a worker outlived its killed parent by a minute")
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err[-500:]


def _peak_parallel(path) -> tuple[int, int]:
    """Hands audited with two worker processes, and the parent's peak Python memory."""
    import tracemalloc
    from booray_audit.judge.audit import HandReport
    from booray_audit.judge.parallel import audit_parallel
    tracemalloc.start()
    try:
        hands = sum(isinstance(i, HandReport) for i in audit_parallel(str(path), 2, None))
        return hands, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_parallel_jobs_hold_a_bounded_number_of_hands_however_long_the_session(tmp_path, monkeypatch):
    from booray_audit.judge import parallel
    monkeypatch.setattr(parallel, "BATCH", 2)  # reach the steady state within a short file
    hand = ("Hand {n}\nDealer Ben\nUp Ks\nTrump s\nAnn play\nBen play\n"  # a legal hand, no finding
            "Trick Ann Ah, Ben Kh\nTrick Ann Ad, Ben Kd\nTrick Ann As, Ben Ks\n"
            "Trick Ann Ac, Ben Kc\nTrick Ann Qh, Ben Jh\n")
    peaks = []
    for count in (10, 100, 400):  # the first builds the parser, which is kept
        f = tmp_path / f"one-session-{count}.bhh"
        f.write_text('[Event "long"]\n[Seats "Ann Ben"]\n\n' + "".join(hand.format(n=n) for n in range(1, count + 1)))
        hands, peak = _peak_parallel(f)
        assert hands == count
        peaks.append(peak)
    # four times the hands in one session: the parent holds no more (in-flight batches only;
    # a whole session held, as before, grew ~8 MB here)
    assert peaks[2] - peaks[1] < 1_500_000 and peaks[2] < 4_000_000, peaks


def test_a_pot_grown_past_what_a_record_holds_is_refused_alike_by_check_and_import(tmp_path):
    from booray_audit.record import CHIPS
    hand = ("Hand {n}\nDealer {d}\n{pot}Trump s\nAnn play\nBen play\n"
            "Trick Ann As, Ben Ks\nTrick Ann Ah, Ben Kh\nTrick Ann Ad, Ben Kd\n"
            "Trick Ann Ac, Ben Kc\nTrick Ann Qh, Ben Jh\n\n")
    f = tmp_path / "no-limit.bhh"
    # Ben goes bourré at a pot one chip short of the most a record holds: the next pot is past it
    f.write_text('[Event "no limit"]\n[Seats "Ann Ben"]\n\n'
                 + hand.format(n=1, d="Ann", pot=f"Pot {CHIPS - 1}\n")
                 + hand.format(n=2, d="Ben", pot="") + hand.format(n=3, d="Ann", pot=""))
    check = run_cli("check", f)
    two = run_cli("check", "--jobs", "2", f)
    db = tmp_path / "s.duckdb"
    imp = run_cli("import", f, "--db", db)
    assert check.returncode == two.returncode == imp.returncode == 2
    said = [line for line in calm(check).splitlines() if line.startswith(str(f))]
    assert len(said) == 1 and said[0].startswith(f"{f}:16:1: settling hand 2 takes an amount to ")
    assert said == [line for line in calm(imp).splitlines() if line.startswith(str(f))]
    assert check.stdout == two.stdout and check.stderr == two.stderr
    stored = run_cli("sql", "--db", db, "--format", "csv", "SELECT number FROM hands ORDER BY number")
    assert stored.stdout.decode().split() == ["number", "1"]


MISTYPED = """[Seats "Ann Ben Cy Dot"]

Hand 1
Dealer Dot
Deal Ann 2s 7h 9d Jc Ac
Deal Ben 3s 8h Td Qc Kc
Deal Cy 4s 9h Jd 2c 3c
Deal Dot 5s Th Qd 4c 5c
Up 5c
Ann play
Ben play 3s -> Ac
Cy play 4s -> 7h
Dot play
Trick 1: Ann 2s, Ben Ac, Cy 9h, Dot 5s
Trick 2: Ben Kc, Cy 2c, Dot 4c, Ann Jc
Trick 3: Ben Qc, Cy 3c, Dot 5c, Ann Ac
Trick 4: Dot Qd, Ann 9d, Ben Td, Cy Jd
Trick 5: Cy 7h, Dot Th, Ann 7h, Ben 8h
"""


def test_the_same_record_gives_the_same_report_in_every_run(tmp_path):
    """Found comparing runs: with cards in two hands, the record errors came out in an
    order (and named an owner) that changed with the interpreter's string hashing."""
    import subprocess
    import sys
    path = tmp_path / "mistyped.bhh"
    path.write_text(MISTYPED)
    outs = set()
    for seed in map(str, range(1, 11)):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        p = subprocess.run([sys.executable, "-m", "booray_audit.cli", "check", "--format", "json", str(path)],
                           capture_output=True, text=True, env=env)
        assert p.returncode == 1, p.stderr
        found = [(f["kind"], f["message"]) for h in json.loads(p.stdout)["sessions"][0]["hands"]
                 for f in h["findings"]]
        assert sum(kind == "duplicate-card" for kind, _ in found) >= 3, found
        outs.add(p.stdout)
    assert len(outs) == 1


def test_a_deal_of_six_cards_with_a_discard_is_a_hand_size_error_not_a_crash():
    """`10hJd` reads as two cards: a deal of six, then discards from it (found by the fuzz
    test: the check for discards from outside the deal took a card from an empty mask)."""
    text = ("Hand 1\nDealer Ann\nDeal Cal 10hJd 8d 9c 6c Js\nUp 4s\nCal play 8d 9c -> 3h 9h\n"
            "Trick Cal Jd, Ann 5d\n")
    [h] = reports(text)
    assert ("hand-size", "Cal") in [(f.kind, f.player) for f in h.findings]


def test_a_failure_of_ours_on_one_hand_is_that_hands_line_and_the_rest_are_checked(tmp_path, monkeypatch, capsys):
    # should the audit itself break on a hand, the user gets its line and one sentence,
    # not a traceback; the chain goes on as after a hand that could not be read
    from booray_audit.judge import audit as audit_module
    from booray_audit.cli import main as cli
    from booray_audit.notation import reader as notation
    from booray_audit.judge import parallel
    from booray_audit.record import SyntaxProblem

    real = audit_module.replay_hand

    def breaks_on_hand_2(hand, table, *rest):
        if hand.number == 2:
            raise StopIteration
        return real(hand, table, *rest)

    monkeypatch.setattr(audit_module, "replay_hand", breaks_on_hand_2)
    monkeypatch.setattr(parallel, "replay_hand", breaks_on_hand_2)
    three = "".join(HAND.replace("Hand 1", f"Hand {n}") + "\n" for n in (1, 2, 3))
    items = list(audit_module.audit(notation.read(io.BytesIO(three.encode()), "g.bhh")))
    problems = [i for i in items if isinstance(i, SyntaxProblem)]
    assert [(p.line, p.hand) for p in problems] == [(10, 2)]
    assert "hand 2 could not be checked" in problems[0].message and "StopIteration" in problems[0].message
    assert [h.hand.number for h in items if isinstance(h, audit_module.HandReport)] == [1, 3]
    f = tmp_path / "g.bhh"
    f.write_text(three)
    for jobs in ("1", "2"):  # replayed here, or by worker processes
        monkeypatch.setattr("sys.argv", ["booray-audit", "check", "--jobs", jobs, str(f)])
        try:
            cli.main()
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        assert code == 2 and "Traceback" not in err, jobs
        assert f"{f}:10:1: hand 2 could not be checked: booray-audit failed on it (StopIteration)" in " ".join(
            err.split()), jobs
        assert "Hand 1 " in out and "Hand 3 " in out, jobs
