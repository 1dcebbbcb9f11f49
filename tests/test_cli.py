"""The command line end to end: output, exit codes, no tracebacks."""

from __future__ import annotations

import json

from .conftest import CORPUS, ROOT, run_cli

CASE = CORPUS / "01-spec-example.bhh"


def test_check_text_names_the_cards_and_exits_1_on_findings():
    p = run_cli("check", CASE)
    out = p.stdout.decode()
    assert p.returncode == 1
    assert "failed-trump" in out and "7c" in out and "UPHELD" in out and "REJECTED" in out
    assert "Ledger: Alice -1, Bob -1, Carol -6, Dave -6, Eve +4" in out


def test_check_clean_file_exits_0():
    p = run_cli("check", "--quiet", CORPUS / "06-after-trumped-free.bhh")
    assert p.returncode == 0, p.stdout


def test_check_json_document_shape():
    p = run_cli("check", "--format", "json", CASE)
    doc = json.loads(p.stdout)
    hand = doc["sessions"][0]["hands"][0]
    assert doc["version"] == 1
    assert hand["trump"] == "d" and hand["winner"] == "Eve" and hand["carry"] == 10
    assert hand["findings"][0]["card"] == "7c" and hand["findings"][0]["class"] == "play"
    assert doc["sessions"][0]["rules"] == {"profile": "standard", "overrides": {"ante": "1", "limit": "25"}}


def test_check_reads_stdin_and_folders():
    p = run_cli("check", "--format", "json", "-", input=CASE.read_bytes())
    assert json.loads(p.stdout)["sessions"][0]["hands"][0]["hand"] == 1
    p = run_cli("check", "--quiet", CORPUS)
    assert p.returncode == 2  # the folder holds a file with syntax errors


def test_syntax_error_exit_2_with_location():
    p = run_cli("check", CORPUS / "12-syntax-errors.bhh")
    assert p.returncode == 2
    # docs/output.md, the report: the message on stderr, the report on stdout
    assert "12-syntax-errors.bhh:17:11: expected a card like `Qs` or `10h`, found `1h`" in p.stderr.decode()
    assert "17:11" not in p.stdout.decode()


def test_bad_input_never_shows_a_traceback(tmp_path):
    junk = tmp_path / "junk.bhh"
    junk.write_bytes(b"\x00\xff\xfe garbage [[[ Hand 1\nTrick \xff\n")
    cases = [("check", tmp_path / "missing.bhh"), ("check", tmp_path), ("check", junk),
             ("fmt", junk), ("fmt", tmp_path / "missing.bhh"), ("check", "--rules", "nosuch", CASE),
             ("check", "--rules", tmp_path / "missing.toml", CASE), ("rules", "nosuch"),
             ("check", "--format", "xml", CASE), ("check",), ("nosuchcommand",)]
    for args in cases:
        p = run_cli(*args)
        err = (p.stdout + p.stderr).decode()
        assert "Traceback" not in err, (args, err)
        assert p.returncode in (1, 2, 3), (args, p.returncode)
    assert run_cli("check", tmp_path / "missing.bhh").returncode == 2
    assert run_cli("check", "--rules", "nosuch", CASE).returncode == 3
    assert run_cli("nosuchcommand").returncode == 3


def test_fmt_prints_canonical_form_and_check_mode(tmp_path):
    p = run_cli("fmt", CORPUS / "14-spellings.bhh")
    assert p.returncode == 0
    canonical = tmp_path / "c.bhh"
    canonical.write_bytes(p.stdout)
    assert run_cli("fmt", "--check", canonical).returncode == 0
    assert run_cli("fmt", "--check", CORPUS / "14-spellings.bhh").returncode == 1


def test_fmt_warns_where_check_reads_the_tidy_form_otherwise(tmp_path):
    """The tidy form writes every trick numbered and with its players' names.  Where the record
    only implies them (a seat-order trick against contradicted `Seats`; unnumbered tricks
    written out of order), `check` of the tidy form could judge what it judged with care in
    the file (found by checking edited files and their tidy forms side by side: a
    failed-beat undecidable in the file was a finding in its tidy form); fmt says so."""
    seats = '[Seats "Ann Ben Cal"]\n\nHand 1\nDealer Cal\nUp 6s\n'
    spelled = ('[Seats "Ann \\"Big Ben\\" Cal"]\n\nhand 1\ndealer Cal\nTrick 3: "Big Ben": 4h 9H Qh\n'
               'trick Ann 5d, "Big Ben" 3d, Cal KD\nTRICK Cal Ac Ann 2c "Big Ben" Jd\ntrump d\n'
               'Trick 5: Cal: 2S 3s 9s\nTrick 4: Ann 6s, "Big Ben" 7s, Cal 8s\n')
    cases = {seats + "Ben play\nAnn play\nCal play\nTrick 1: Ann: 2h 3h 4h\n": True,  # seats contradicted
             spelled: True,
             seats + "Ann play\nBen play\nCal play\nTrick 1: Ann: 2h 3h 4h\n": False,
             (CORPUS / "14-spellings.bhh").read_text(encoding="utf-8"): False}
    for i, (text, warned) in enumerate(cases.items()):
        path = tmp_path / f"s{i}.bhh"
        path.write_text(text, encoding="utf-8")
        p = run_cli("fmt", path)
        assert p.returncode == 0 and b"Trick " in p.stdout, p.stderr
        assert (b"hand 1: `check` reads the tidy form otherwise" in p.stderr) == warned, (i, p.stderr)
        assert warned or p.stderr == b"", p.stderr


def test_rules_lists_profiles_and_toggles(tmp_path):
    p = run_cli("rules")
    assert p.returncode == 0 and b"wikipedia" in p.stdout and b"basic" in p.stdout
    p = run_cli("rules", "basic")
    out = p.stdout.decode()
    assert "must-beat" in out and "none" in out and "cinch" in out
    house = tmp_path / "house.toml"
    house.write_text('base = "standard"\nmust-beat = "previous"\nlimit = 10\n')
    p = run_cli("rules", house)
    assert "previous" in p.stdout.decode()
    p = run_cli("check", "--format", "json", "--rules", house, CASE)
    assert json.loads(p.stdout)["sessions"][0]["rules"]["overrides"]["must-beat"] == "previous"


def test_jobs_gives_identical_output_and_parquet(tmp_path):
    from booray_audit.generate import generate_text
    text, _ = generate_text(240, players=(3, 6), seed=21, violations=0.2)
    big = tmp_path / "log.bhh"
    big.write_text(text)
    one = run_cli("check", "--format", "json", big)
    two = run_cli("check", "--format", "json", "--jobs", "2", big)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    db1, db2 = tmp_path / "1.duckdb", tmp_path / "2.duckdb"
    run_cli("import", big, "--db", db1)
    run_cli("import", big, "--db", db2, "--jobs", "2")
    q = "SELECT count(*), sum(net), count(DISTINCT hand_id) FROM hand_players"
    assert run_cli("sql", q, "--db", db1).stdout == run_cli("sql", q, "--db", db2).stdout
    out = tmp_path / "pq"
    p = run_cli("check", "--format", "parquet", "--out", out, big, "--jobs", "2")
    assert p.returncode == 1
    import duckdb
    n = duckdb.connect().execute(
        f"SELECT count(*) FROM read_parquet('{out}/findings/*/*.parquet', hive_partitioning=true)").fetchone()[0]
    assert n == sum(len(h["findings"]) for s in json.loads(one.stdout)["sessions"] for h in s["hands"])
    assert run_cli("check", "--format", "parquet", big).returncode == 3  # needs --out


def test_stats_for_a_name_typed_another_way_suggests_the_stored_one(tmp_path):
    db = tmp_path / "s.duckdb"
    run_cli("import", ROOT / "samples" / "home-game.bhh", "--db", db)
    p = run_cli("stats", "--player", "judy", "--db", db)
    assert "no hands stored for judy; did you mean Judy?" in p.stderr.decode()


def test_jobs_agrees_with_one_process_across_unreadable_hands(tmp_path):
    from booray_audit.generate import generate_text
    text, _ = generate_text(120, players=(3, 5), seed=22)
    hands = text.split("\nHand ")
    for i in range(5, len(hands), 17):  # a typo in one trick line of every 17th hand
        hands[i] = hands[i].replace("Trick 2:", "Trik 2:", 1)
    big = tmp_path / "log.bhh"
    big.write_text("\nHand ".join(hands))
    one = run_cli("check", "--format", "json", big)
    two = run_cli("check", "--format", "json", "--jobs", "2", big)
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout
    doc = json.loads(one.stdout)
    checked = {(s["index"], h["hand"]): h for s in doc["sessions"] for h in s["hands"]}
    assert len(doc["files"][0]["errors"]) == len(range(5, len(hands), 17))
    # the hand after each unreadable one starts from an unknown pot
    after = [h for (s, n), h in checked.items() if n > 1 and (s, n - 1) not in checked]
    assert len(after) == len(range(5, len(hands), 17)) and all(h["pot"] is None for h in after)


def test_the_readmes_first_command_reads_the_samples_folder_and_exits_1(tmp_path):
    """`import samples`: the three records stored, exit 1 for their violations; the folder's
    answers file is not a record and is not read (it once gave 42 syntax errors, exit 2)."""
    p = run_cli("import", "--db", tmp_path / "s.duckdb", ROOT / "samples")
    said = p.stdout.decode()
    assert p.returncode == 1, p.stderr.decode()[-500:]
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in said.splitlines() if "hands," in line or "hand," in line] \
        == ["home-game.bhh", "online-log.bhh", "partial-from-memory.bhh"]
    assert "syntax error" not in said + p.stderr.decode()
