"""The tool as a person meets it: the template, help, messages that say how to fix,
readable output, and the same meaning for every exit code and format."""

from __future__ import annotations

import json
import re

import pytest

from booray_audit.record import CHIPS

from .conftest import CORPUS, ROOT, findings, run_cli

COMMANDS = ["check", "fmt", "rules", "generate", "replay", "import", "stats", "ledger", "sql", "new"]


def out(p) -> str:
    return p.stdout.decode()


def test_new_prints_a_commented_hand_that_checks_as_it_says(tmp_path):
    p = run_cli("new")
    assert p.returncode == 0 and out(p).startswith("# A Bourré hand history")
    f = tmp_path / "mine.bhh"
    f.write_bytes(p.stdout)
    check = run_cli("check", f)
    assert check.returncode == 1, check.stderr  # one finding: the renege it disputes
    assert "dispute Cat renege 3: UPHELD" in out(check) and b"syntax" not in check.stderr
    assert "0 syntax errors" in out(check)


def test_version_names_the_cinch_search():
    p = run_cli("--version")
    assert p.returncode == 0 and re.fullmatch(r"booray-audit \S+ \(cinch search: .+\)\n", out(p))


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_no_type_tags_and_points_nowhere_outside_the_project(command):
    p = run_cli(command, "--help")
    text = out(p)
    assert p.returncode == 0
    assert "<bool>" not in text and "<list" not in text and "<str>" not in text and "<int" not in text
    assert ".md" not in text and "§" not in text


def test_every_option_says_what_it_does():
    import typer.main

    from booray_audit.cli.main import app
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        for param in command.params:
            if param.name != "help":
                assert (getattr(param, "help", None) or "").strip(), (name, param.name)


def test_nothing_printed_points_to_the_contract():
    for args in (["rules"], ["rules", "standard"], ["rules", "wikipedia"], ["--help"]):
        assert ".md" not in out(run_cli(*args)), args


@pytest.mark.parametrize("line,fix", [
    ("Trump hearts", "a suit is one letter: write `h`"),
    ("Trump Spades", "a suit is one letter: write `s`"),
    ("Trick Ann 1h, Ben 2h", "expected a card like `Qs` or `10h`, found `1h`: a ten is `T` or `10` (`Th` or `10h`)"),
    ("Ann plays", "a player's decision is `play`, `pass` or `draw`, not `plays`"),
    ("Ann stays", "a player's decision is `play`, `pass` or `draw`, not `stays`"),
    ("Up Ace of spades", "found `Ace`: write the rank as one letter or number, like `As` for the ace of spades"),
    ("Trick Ann 9hh, Ben 2h", "found `9hh`: one rank, then one suit letter, like `9h`"),
])
def test_a_mistake_in_words_gets_the_way_to_write_it(line, fix, tmp_path):
    f = tmp_path / "m.bhh"
    f.write_text(f"Hand 1\nDealer Ann\n{line}\n")
    p = run_cli("check", f)
    assert p.returncode == 2 and fix in p.stderr.decode(), p.stderr


def test_reversed_player_range_and_out_without_parquet_are_usage_errors(tmp_path):
    p = run_cli("generate", "--hands", "3", "--players", "5-3")
    assert p.returncode == 3 and "reversed; write 3-5" in p.stderr.decode()
    p = run_cli("check", "--out", tmp_path / "o", CORPUS / "01-spec-example.bhh")
    assert p.returncode == 3 and "--out DIR is for --format parquet" in p.stderr.decode()


def test_a_player_or_session_the_store_lacks_is_a_usage_error_not_a_finding(tmp_path):
    db = tmp_path / "s.duckdb"
    run_cli("import", CORPUS / "01-spec-example.bhh", "--db", db)
    p = run_cli("stats", "--player", "Nobody", "--db", db)
    assert p.returncode == 3 and "no hands stored for Nobody" in p.stderr.decode()
    p = run_cli("ledger", "--session", "nope", "--db", db)
    assert p.returncode == 3


def test_session_ids_as_shown_are_accepted_by_ledger(tmp_path):
    db = tmp_path / "s.duckdb"
    run_cli("import", ROOT / "samples" / "home-game.bhh", "--db", db)
    shown = out(run_cli("ledger", "--ids", "--db", db))
    ids = set(re.findall(r"^([0-9a-f]{16,})\s", shown, re.M))
    assert len(ids) == 1
    p = run_cli("ledger", "--session", ids.pop(), "--db", db, "--format", "csv")
    assert p.returncode == 0 and out(p).count("\n") == 7  # header and six players


def test_stats_columns_add_up(tmp_path):
    db = tmp_path / "s.duckdb"
    run_cli("import", ROOT / "samples" / "home-game.bhh", "--db", db)
    rows = json.loads(out(run_cli("stats", "--db", db, "--format", "json")))
    assert rows and all(r["chips_won"] - r["chips_paid"] - r["antes_paid"] == r["net"] for r in rows)
    table = out(run_cli("stats", "--db", db))
    assert "antes" in table and "bourres" in table


def _huge_session(tmp_path):
    hand = ("Hand {n}\nDealer {d}\n{pot}Trump s\nAnn play\nBen play\n"
            "Trick Ann As, Ben Ks\nTrick Ann Ah, Ben Kh\nTrick Ann Ad, Ben Kd\n"
            "Trick Ann Ac, Ben Kc\nTrick Ann Qh, Ben Jh\n\n")
    f = tmp_path / "huge.bhh"
    f.write_text('[Event "a long night"]\n[Seats "Ann Ben"]\n\n' + hand.format(n=1, d="Ann", pot=f"Pot {CHIPS // 3}\n"))
    return f


def test_chip_amounts_are_never_cut_at_80_columns(tmp_path):
    f = _huge_session(tmp_path)
    db = tmp_path / "s.duckdb"
    run_cli("import", f, "--db", db)
    whole = str(CHIPS // 3 - 1)  # Ann's net: the pot less her ante
    for args in (["ledger"], ["stats"], ["stats", "--player", "Ann"]):
        p = run_cli(*args, "--db", db)  # run_cli sets 200 columns: ask for 80
        import os
        import subprocess

        from .conftest import cli_command
        p = subprocess.run(cli_command() + args + ["--db", str(db)], capture_output=True,
                           env=dict(os.environ, COLUMNS="80", NO_COLOR="1"))
        assert whole in out(p) and "…" not in out(p), (args, out(p))


def test_json_keeps_every_rule_tag_and_numbers_sessions_from_one(tmp_path):
    f = tmp_path / "r.bhh"
    f.write_text('[Event "x"]\n[Rule "must-beat=previous"]\n[Rule "limit=25"]\n\nHand 1\nDealer Ann\n\n'
                 '[Event "y"]\n\nHand 1\nDealer Ann\n')
    doc = json.loads(out(run_cli("check", "--format", "json", f)))
    first, second = doc["sessions"]
    assert first["tags"]["Rule"] == ["must-beat=previous", "limit=25"]
    assert (first["session"], second["session"]) == (1, 2) and (first["index"], second["index"]) == (0, 1)


def test_json_output_follows_the_shipped_schema_on_the_corpus_and_the_samples(tmp_path):
    import jsonschema
    schema = json.loads((ROOT / "docs" / "check.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    # the 3,000-hand online log is checked where its audit already runs (test_generated)
    files = sorted(CORPUS.glob("*.bhh")) + [ROOT / "samples" / "home-game.bhh",
                                            ROOT / "samples" / "partial-from-memory.bhh", _huge_session(tmp_path)]
    doc = json.loads(out(run_cli("check", "--format", "json", *files)))
    jsonschema.validate(doc, schema)
    assert sum(len(s["hands"]) for s in doc["sessions"]) > 40
    # and the schema is not a formality: a wrong field fails it
    doc["sessions"][0]["hands"][0]["findings"].append({"kind": "cheating"})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def test_the_report_marks_leaders_and_winners_and_sets_verdicts_apart(tmp_path):
    f = ROOT / "samples" / "home-game.bhh"
    text = out(run_cli("check", f))
    assert "> led the trick, * won it" in text
    assert re.search(r"^\s+1\s+>\S+", text, re.M)  # the first trick's leader
    assert "UPHELD" in text and "REJECTED" in text
    quiet = out(run_cli("check", "--quiet", f))
    assert "Friday night at Boudreaux's (session 1)" in quiet  # the session header stays


def test_findings_come_grouped_play_record_claim(tmp_path):
    f = tmp_path / "g.bhh"
    f.write_text('[Seats "Ann Ben Cat"]\n\nHand 1\nDealer Cat\nTrump h\nAnte Ann\n'
                 'Trick Ann As, Ben 2h, Cat 3s\nTrick Ben Qs, Cat 4s, Ann Ks\nTrick Ann 5s, Bne 6s, Cat 7s\n')
    lines = [line.strip() for line in out(run_cli("check", f)).splitlines() if "(trick" in line or "(hand)" in line]
    assert lines[0].startswith("renege (trick 1)")
    assert lines[1].startswith("record error: unknown-player")
    assert lines[2].startswith("wrong claim: wrong-ante")


def test_a_run_over_several_files_names_the_file_of_each_hand(tmp_path):
    a, b = tmp_path / "a.bhh", tmp_path / "b.bhh"
    a.write_text("Hand 1\nDealer Ann\nTrump h\nTrick Ann As, Ben 2h\nTrick Ben Qs, Ann Ks\n")
    b.write_text("Hand 1\nDealer Ann\nTrump h\nTrick Ann As, Ben 3h\nTrick Ben Js, Ann Ks\n")
    text = out(run_cli("check", "--quiet", a, b))
    heads = [line for line in text.splitlines() if line.startswith("Hand 1")]
    assert len(heads) == 2 and heads[0].endswith(f"({a})") and heads[1].endswith(f"({b})")


def test_suits_show_as_symbols_only_where_asked():
    import io

    from rich.console import Console

    from booray_audit.notation import reader as notation
    from booray_audit.judge.audit import audit
    from booray_audit.report.text import TextReport
    text = (CORPUS / "01-spec-example.bhh").read_bytes()
    for symbols, want, unwanted in ((True, "A♠", "As*"), (False, "As", "♠")):
        buf = io.StringIO()
        report = TextReport(Console(file=buf, width=120), symbols=symbols)
        for item in audit(notation.read(io.BytesIO(text), "x.bhh")):
            report.add(item)
        shown = "\n".join(line for line in buf.getvalue().splitlines() if re.match(r"\s+\d\s+[ >]", line))
        assert want in shown and unwanted not in shown


def test_fmt_keeps_every_comment_where_it_was(tmp_path):
    f = tmp_path / "c.bhh"
    f.write_text("# top of the file\n[Seats \"Ann Ben\"]   # who sat\n[Event \"x\"]\n\n# before the hand\n"
                 "Hand 1\nDealer Ann        # she dealt\nTrump h\n  # about the tricks\n"
                 "Trick Ann As, Ben 2h { a note } # after the note\n# the end\n")
    p = run_cli("fmt", f)
    assert p.returncode == 0
    assert out(p) == ("# top of the file\n[Event \"x\"]\n[Seats \"Ann Ben\"]   # who sat\n\n"
                      "# before the hand\nHand 1\nDealer Ann        # she dealt\nTrump h\n# about the tricks\n"
                      "Trick 1: Ann As, Ben 2h { a note } # after the note\n# the end\n")
    g = tmp_path / "canon.bhh"
    g.write_bytes(p.stdout)
    assert run_cli("fmt", "--check", g).returncode == 0  # fmt of its own output changes nothing


def test_fmt_check_shows_the_differences(tmp_path):
    f = tmp_path / "d.bhh"
    f.write_text("Hand 1\nDealer Ann\nTrick Ann 10h, Ben 2h\n")
    p = run_cli("fmt", "--check", f)
    assert p.returncode == 1
    assert "-Trick Ann 10h, Ben 2h\n+Trick 1: Ann Th, Ben 2h\n" in out(p)
    assert "not in the tidy form" in p.stderr.decode()


def test_the_samples_and_generated_files_are_already_tidy(tmp_path):
    for f in sorted((ROOT / "samples").glob("*.bhh")):
        assert run_cli("fmt", "--check", f).returncode == 0, f
    g = tmp_path / "g.bhh"
    answers = tmp_path / "a.jsonl"
    assert run_cli("generate", "--hands", "60", "--seed", "4", "--violations", "0.2", "--out", g,
                   "--answers", answers).returncode == 0
    assert run_cli("fmt", "--check", g).returncode == 0
    assert '[Rule "limit=25"]' in g.read_text()  # a pot limit by default: readable demo pots
    sessions = {json.loads(line)["session"] for line in answers.read_text().splitlines()}
    assert min(sessions) == 1  # numbered from 1, as everywhere


def test_a_misspelt_name_in_a_later_trick_is_one_finding_not_a_missing_card_everywhere():
    text = ('[Seats "Ann Ben Cat"]\n\nHand 1\nDealer Cat\nTrump h\n'
            "Trick Ann As, Ben 2s, Cat 3s\nTrick Ann Ks, Ben 4s, Cat 5s\nTrick Ann Qs, Bne 6s, Cat 7s\n")
    assert findings(text) == [("unknown-player", None, "Bne")]
