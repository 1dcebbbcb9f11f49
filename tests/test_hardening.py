"""Hostile input never crashes: a one-line reason, a documented exit code, no traceback."""

from __future__ import annotations

import json
import os

from .conftest import run_cli

HAND = "Hand 1\nDealer Ann\nTrump s\n" + "".join(
    f"Trick Ann {a}, \"[bold]x\" {b}\n" for a, b in (("2s", "3s"), ("4h", "5h"), ("6h", "7h"), ("8h", "9h"), ("Th", "Jh")))


def calm(p) -> str:
    """The run's stderr, checked to hold no traceback."""
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Error:" not in err.replace("booray-audit:", ""), err
    return err


def test_a_number_past_pythons_digit_limit_is_a_syntax_error(tmp_path):
    f = tmp_path / "big.bhh"
    f.write_text("Hand 1\nDealer Ann\nTrump s\nPot " + "7" * 5000 + "\nTrick Ann 2s\n")
    p = run_cli("check", f)
    err = calm(p)
    assert p.returncode == 2
    assert f"{f}:4:5: a number of more than 4,300 digits" in err
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
