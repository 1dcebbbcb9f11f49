"""BHH-JSON (docs/bhh-json.md): the record as JSON Lines, both ways.  Text -> JSON -> record
is the same record, audited the same way (findings, settlement, store rows); JSON ->
text -> JSON is the same JSON; the docs' example validates against the shipped schema;
a bad line is a problem at its line naming the field, and the rest of the file is read."""

from __future__ import annotations

import io
import json
import random
import re

import jsonschema
import pytest

from booray_audit import record as r
from booray_audit.generate import generate_text
from booray_audit.judge.audit import HandReport, audit
from booray_audit.notation import jsonl
from booray_audit.notation import reader as notation
from booray_audit.notation.writer import write as write_text
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import CORPUS, ROOT, run_cli
from .test_mutants import mutate

SCHEMA = json.loads((ROOT / "docs" / "bhh-json.schema.json").read_text())
FILES = sorted(CORPUS.glob("*.bhh")) + sorted((ROOT / "samples").glob("*.bhh"))


def read(data: bytes, path: str):
    return notation.collect(notation.read(io.BytesIO(data), path))


def as_json(sessions) -> bytes:
    return jsonl.write(sessions).encode()


def verdicts(data: bytes, path: str):
    """Everything the audit says of each hand that a reader could see differ."""
    out = []
    for item in audit(notation.read(io.BytesIO(data), path)):
        if isinstance(item, HandReport):
            s = item.settlement
            out.append((item.session, item.hand.number, item.replay.tricks,
                        sorted((f.kind, f.trick or 0, f.player or "", f.message, f.evidence) for f in item.findings),
                        sorted((u.kind, u.trick, u.player, u.reason) for u in item.replay.undecidable),
                        [(x.player, x.kind, x.ruling, x.evidence) for x in item.rulings],
                        s.net, s.carry, s.pot))
    return out


def _same_records(a, b):
    assert [(s.tags, s.hands) for s in a] == [(s.tags, s.hands) for s in b]
    for sa, sb in zip(a, b):  # and what the record equality leaves out: how tricks were written
        for ha, hb in zip(sa.hands, sb.hands):
            ta = [(t.written, t.by_seat) for t in ha.events if isinstance(t, r.Trick)]
            assert ta == [(t.written, t.by_seat) for t in hb.events if isinstance(t, r.Trick)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_shipped_file_goes_to_json_and_back_the_same_and_audits_the_same(path):
    data = path.read_bytes()
    sessions, _ = read(data, str(path))
    back, problems = read(as_json(sessions), "x.jsonl")
    assert problems == []
    _same_records(sessions, back)
    # JSON -> text -> JSON: the same lines, for the JSON of a tidy record (the tidy text
    # numbers every trick, so a trick written without a number in JSON gets one there)
    tidy, _ = read(write_text(sessions).encode(), "t.bhh")
    again, _ = read(write_text(read(as_json(tidy), "t.jsonl")[0]).encode(), "y.bhh")
    assert as_json(again) == as_json(tidy)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for line in as_json(back).decode().splitlines()[:40]:  # the schema's validator is slow: a file's first lines
        validator.validate(json.loads(line))
    if b"Trick" in data and not problems:
        tidy = write_text(sessions).encode()  # without the unreadable parts, as JSON holds them
        assert verdicts(as_json(sessions), "x.jsonl") == verdicts(tidy, "x.bhh")


VARIANTS = [("standard", ()), ("wikipedia", ()), ("basic", ("recall=penalty",)),
            ("standard", ("declarations=simultaneous", "reshuffle=folded-first"))]


@pytest.mark.parametrize("seed", range(len(VARIANTS)))
def test_generated_sessions_go_to_json_and_back_and_audit_the_same(seed):
    name, toggles = VARIANTS[seed]
    rules = profile(name)
    for t in toggles:
        rules = with_toggle(rules, *t.split("="))
    text, _ = generate_text(200, players=(2, 8), seed=seed, rules=rules, violations=0.3, recalls=0.5,
                            forfeits=0.2, throw_trumps=0.1)
    sessions, problems = read(text.encode(), "g.bhh")
    assert problems == []
    data = as_json(sessions)
    back, problems = read(data, "g.jsonl")
    assert problems == []
    _same_records(sessions, back)
    assert verdicts(data, "g.jsonl") == verdicts(text.encode(), "g.bhh")


def test_mutated_files_round_trip_whatever_part_reads():
    rng = random.Random(46)
    bases = [p.read_bytes() for p in FILES]
    for _ in range(150):
        data = mutate(rng.choice(bases), rng)
        sessions, _ = read(data, "m.bhh")
        back, problems = read(as_json(sessions), "m.jsonl")
        assert problems == [], problems[:1]
        _same_records(sessions, back)


def test_extension_fields_are_ignored_everywhere():
    line = {"type": "hand", "number": 1, "_id": 9, "events": [
        {"event": "dealer", "player": "Ann", "_ts": "2026-01-01T00:00"},
        {"event": "trick", "number": 1, "plays": [{"player": "Ann", "card": "As", "_ms": 3}]}]}
    data = (json.dumps({"type": "session", "tags": [], "_site": "x"}) + "\n" + json.dumps(line) + "\n").encode()
    [s], problems = read(data, "e.jsonl")
    assert problems == [] and s.hands[0].events == (r.Dealer("Ann"), r.Trick(1, (("Ann", 14),)))
    jsonschema.validate(line, SCHEMA)


@pytest.mark.parametrize("line, field", [
    ('{"type": "hand", "number": 1, "events": [{"event": "deal", "player": "Ann", "cards": ["As", "Xs"]}]}',
     "events[0].cards[1]"),
    ('{"type": "hand", "number": 1, "events": [{"event": "trick", "number": 1, "plays": [{"player": 3, "card": "As"}]}]}',
     "events[0].plays[0].player"),
    ('{"type": "hand", "number": 1, "events": [{"event": "dance", "player": "Ann"}]}', "events[0].event"),
    ('{"type": "hand", "number": 1, "events": [{"claim": "net", "amounts": [["Ann", "+3"]]}]}',
     "events[0].amounts[0][1]"),
    ('{"type": "hand", "number": 1, "events": [{"event": "play", "player": "Ann", "draws": ["As"]}]}',
     "events[0].discards"),
    ('{"type": "hand", "number": 0, "events": []}', "number"),
    ('{"type": "hand", "number": 1, "events": {}}', "events"),
    ('{"type": "round"}', "type"),
    ('{"type": "hand", "number": 1, "events": [{"event": ["deal"]}]}', "events[0].event"),
    ('{"type": "hand", "number": 1, "events": [{"claim": "trick", "plays": []}]}', "events[0].claim"),
    ('{"type": "hand", "number": 1, "events": [{"claim": "pot", "amount": 1e3}]}', "events[0].amount"),
])
def test_a_bad_line_names_its_field_and_the_rest_of_the_file_is_read(line, field):
    data = (f'{{"type": "session", "tags": [["Event", "x"]]}}\n{line}\n'
            '{"type": "hand", "number": 2, "events": [{"event": "dealer", "player": "Ann"}]}\n').encode()
    items = list(notation.read(io.BytesIO(data), "bad.jsonl"))
    [problem] = [i for i in items if isinstance(i, r.SyntaxProblem)]
    assert problem.line == 2 and field in problem.message, problem.message
    assert [h.number for h in items if isinstance(h, r.Hand)] == [2]


@pytest.mark.parametrize("text, column", [
    ('{"type": "hand", "number": 1, "events": [}', 42),
    ('{"type": "hand", "number": 1, "events": [', 42),
    ("not json", 1),
])
def test_bad_json_is_a_problem_at_its_line_and_column(text, column):
    items = list(notation.read(io.BytesIO(f"{text}\n".encode()), "b.jsonl"))
    [problem] = items
    assert (problem.line, problem.column) == (1, column) and "not valid JSON" in problem.message


def test_a_bad_tag_spoils_its_session_only():
    data = ('{"type": "session", "tags": [["Rules", "nope"]]}\n'
            '{"type": "hand", "number": 1, "events": []}\n'
            '{"type": "session", "tags": [["Event", "ok"]]}\n'
            '{"type": "hand", "number": 1, "events": [{"event": "dealer", "player": "Ann"}]}\n').encode()
    items = list(notation.read(io.BytesIO(data), "t.jsonl"))
    problems = [i for i in items if isinstance(i, r.SyntaxProblem)]
    assert len(problems) == 1 and "tags[0]" in problems[0].message and "not checked" in problems[0].message
    assert [h.number for h in items if isinstance(h, r.Hand)] == [1]


def _docs_example() -> str:
    page = (ROOT / "docs" / "bhh-json.md").read_text()
    return re.search(r"```bhh night\.jsonl\n(.*?)```", page, re.S).group(1)


def test_the_docs_example_follows_the_schema_and_audits_clean():
    text = _docs_example()
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for line in text.splitlines():
        jsonschema.validate(json.loads(line), SCHEMA)
    [h] = [i for i in audit(notation.read(io.BytesIO(text.encode()), "night.jsonl")) if isinstance(i, HandReport)]
    assert h.findings == [] and h.settlement.net == {"Ann": -1, "Ben": -1, "Cat": 2}


def test_the_schema_refuses_what_the_reader_refuses():
    bad = [{"type": "hand", "number": 1, "events": [{"event": "deal", "player": "Ann", "cards": ["1h"]}]},
           {"type": "hand", "number": 1, "events": [{"event": "dance"}]},
           {"type": "session", "tags": [["Event"]]},
           {"type": "hand", "number": 1, "events": [], "extra": 1}]
    for obj in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(obj, SCHEMA)


def test_fmt_converts_both_ways_and_check_and_import_read_jsonl(tmp_path):
    src = ROOT / "samples" / "home-game.bhh"
    j = tmp_path / "home.jsonl"
    p = run_cli("fmt", "--to", "jsonl", src)
    assert p.returncode == 0
    j.write_bytes(p.stdout)
    text = run_cli("fmt", j)
    assert text.returncode == 0 and text.stdout.startswith(b'[Event "Friday night')
    assert run_cli("fmt", "--to", "xml", src).returncode == 3  # a usage error
    one = json.loads(run_cli("check", "--format", "json", src).stdout)
    two = json.loads(run_cli("check", "--format", "json", j).stdout)
    for doc in (one, two):
        doc.pop("files")
        for s in doc["sessions"]:
            s.pop("file", None), s.pop("path", None)
    assert one == two
    # folders are searched for both kinds of file, and the store gets the same rows
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "home.bhh").write_bytes(src.read_bytes())
    (tmp_path / "b" / "home.jsonl").write_bytes(j.read_bytes())
    rows = []
    for folder in ("a", "b"):
        db = tmp_path / f"{folder}.duckdb"
        assert run_cli("import", tmp_path / folder, "--db", db).returncode in (0, 1)
        q = ("SELECT h.number, f.kind, f.player, f.trick, f.message FROM findings f JOIN hands h USING (hand_id) "
             "UNION ALL SELECT h.number, p.player, p.status, p.tricks, CAST(p.net AS VARCHAR) "
             "FROM hand_players p JOIN hands h USING (hand_id) ORDER BY ALL")
        rows.append(run_cli("sql", "--db", db, "--format", "csv", q).stdout)
    assert rows[0] == rows[1] and rows[0].count(b"\n") > 20
