"""Importing into a store that already holds hands: sessions kept apart, logs that grow,
copies stored once, edited files reported and replaced only when asked (real DuckDB files)."""

from __future__ import annotations

import sys

import duckdb
import pytest

from .conftest import CORPUS, ROOT, run_cli

HOME = ROOT / "samples" / "home-game.bhh"
HAND_12 = 266  # home-game.bhh: the lines before hand 12

# what a session's audit amounts to, by hand number: the pot chain, every net, every finding
CONTENT = """
SELECT 'hand', h.number, h.pot::VARCHAR, h.carry::VARCHAR, h.winner, NULL FROM hands h {w}
UNION ALL SELECT 'net', h.number, hp.player, hp.net::VARCHAR, hp.status, hp.tricks::VARCHAR
    FROM hand_players hp JOIN hands h USING (hand_id) {w}
UNION ALL SELECT 'finding', h.number, f.player, f.kind, f.trick::VARCHAR, f.message
    FROM findings f JOIN hands h USING (hand_id) {w}
UNION ALL SELECT 'play', h.number, p.player, p.card, p.trick::VARCHAR, p.won::VARCHAR
    FROM plays p JOIN hands h USING (hand_id) {w}
ORDER BY ALL"""


def query(db, sql, params=()):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def content(db, session_id=None):
    w = "WHERE h.session_id = ?" if session_id else ""
    return query(db, CONTENT.format(w=w), [session_id] * 4 if session_id else [])


def _sorted(rows):
    """Rows in order, an unknown (NULL) value first."""
    return sorted(rows, key=lambda row: tuple((x is not None, str(x)) for x in row))


def sessions(db):
    return query(db, "SELECT session_id, count(*) FROM hands GROUP BY ALL ORDER BY ALL")


def fresh(tmp_path, text: bytes, name: str):
    """The store a fresh import of ``text`` alone makes."""
    where = tmp_path / f"fresh-{name}"
    where.mkdir()
    (where / "x.bhh").write_bytes(text)
    run_cli("import", where / "x.bhh", "--db", where / "f.duckdb")
    return where / "f.duckdb"


@pytest.fixture
def replays(monkeypatch):
    """Counts the hands replayed by imports run in this process."""
    from booray_audit.judge import audit
    calls = []
    real = audit.replay_hand

    def counted(hand, table, *rest):
        calls.append(hand.number)
        return real(hand, table, *rest)

    monkeypatch.setattr(audit, "replay_hand", counted)
    return calls


def run_here(monkeypatch, capsys, *args) -> tuple[int, str, str]:
    from booray_audit.cli import main as cli
    monkeypatch.setattr(sys, "argv", ["booray-audit", *map(str, args)])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


EVENING = """[Event "Thursday game"]
[Seats "Ann Ben Cal"]
[Ante "1"]

Hand 1
Dealer Ann
Ben pass
Cal pass
Ann pass

Hand 2
Dealer Ben
Deal Cal 2c 3c 4c 5c 6c
Deal Ann 2d 3d 4d 5d 6d
Deal Ben 2h 3h 4h 5h 6h
Up 7h
Cal play
Ann pass
Ben pass
Tricks Cal 5
"""
OTHER_EVENING = EVENING.replace("Tricks Cal 5", "Tricks Cal 5\nNet Cal +6 Ann -1 Ben -1").replace(
    "Ann pass\nBen pass\nTricks", "Ann pass\nBen play\nTrick Cal 2c, Ben 2h\nTrick Cal 3c, Ben 3h\n"
    "Trick Cal 4c, Ben 4h\nTrick Cal 5c, Ben 5h\nTrick Cal 6c, Ben 6h\nTricks")


def test_two_evenings_that_open_alike_stay_two_sessions(tmp_path):
    """Same tags, no date, the same all-pass first hand: neither evening loses a hand to the
    other, whether they come in two files or in one."""
    assert EVENING != OTHER_EVENING
    for layout in ("two files", "one file"):
        db = tmp_path / f"{layout}.duckdb"
        if layout == "two files":
            (tmp_path / "week1.bhh").write_text(EVENING)
            (tmp_path / "week2.bhh").write_text(OTHER_EVENING)
            run_cli("import", tmp_path / "week1.bhh", tmp_path / "week2.bhh", "--db", db)
        else:
            (tmp_path / "both.bhh").write_text(EVENING + "\n" + OTHER_EVENING)
            run_cli("import", tmp_path / "both.bhh", "--db", db)
        assert [n for _, n in sessions(db)] == [2, 2], layout
        alone = [content(fresh(tmp_path, t.encode(), f"{layout}{i}")) for i, t in enumerate((EVENING, OTHER_EVENING))]
        assert _sorted(content(db)) == _sorted(alone[0] + alone[1]), layout


def test_a_renamed_or_respelt_copy_stores_nothing_and_audits_nothing(tmp_path, monkeypatch, capsys, replays):
    db = tmp_path / "b.duckdb"
    code, out, _ = run_here(monkeypatch, capsys, "import", HOME, "--db", db)
    assert len(replays) == 24 and code == 1
    before = (sessions(db), content(db))
    # the same hands typed otherwise: comments, lower case, extra spaces; another name
    text = HOME.read_text().replace("\nHand ", "\n# typed again\nhand ").replace(" play ", "  play  ")
    (tmp_path / "copy.bhh").write_text(text)
    replays.clear()
    code, out, _ = run_here(monkeypatch, capsys, "import", tmp_path / "copy.bhh", "--db", db)
    assert "24 hands, 0 new, 24 already stored, 5 findings" in out and code == 1
    assert replays == []  # not one hand audited again
    assert (sessions(db), content(db)) == before


def test_a_log_that_grew_adds_its_new_hands_to_its_session(tmp_path, monkeypatch, capsys, replays):
    db = tmp_path / "b.duckdb"
    log = tmp_path / "tonight.bhh"
    lines = HOME.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:HAND_12]))
    run_here(monkeypatch, capsys, "import", log, "--db", db)
    [(session, _)] = sessions(db)
    first_ids = query(db, "SELECT hand_id FROM hands ORDER BY number")
    log.write_text("".join(lines))
    replays.clear()
    code, out, _ = run_here(monkeypatch, capsys, "import", log, "--db", db)
    assert "24 hands, 13 new, 11 already stored" in out
    assert replays == list(range(12, 25))  # only the new hands were audited, resuming the pot chain
    assert sessions(db) == [(session, 24)]  # the same session, grown; its old hands keep their ids
    assert query(db, "SELECT hand_id FROM hands ORDER BY number")[:11] == first_ids
    whole = content(fresh(tmp_path, HOME.read_bytes(), "whole"))
    assert content(db) == whole
    # the same with the hands replayed by two processes (the parent resumes the chain)
    db2 = tmp_path / "jobs.duckdb"
    log.write_text("".join(lines[:HAND_12]))
    run_cli("import", log, "--db", db2, "--jobs", "2")
    log.write_text("".join(lines))
    p = run_cli("import", log, "--db", db2, "--jobs", "2")
    assert b"24 hands, 13 new, 11 already stored" in p.stdout and content(db2) == whole


# where hand 12 was cut (lines, then characters into the next line): inside its deals; after
# some of its tricks; after its last trick (its `Tricks`, `Net` and `Dispute` lines to come);
# inside its `Tricks` line (a claim cut short, wrong as read); between its `Tricks` and `Net`
CUTS = {"deals": 8 * 1000, "tricks": 16 * 1000, "last trick": 20 * 1000, "claims": 20 * 1000 + 22,
        "net": 21 * 1000}


@pytest.mark.parametrize("where", CUTS)
def test_a_log_imported_while_a_hand_was_being_written_grows_without_replace(tmp_path, monkeypatch, capsys,
                                                                          where):
    """An online game's log imported from cron can be read while a hand is half written: that
    hand is stored cut off, finished or not (cut after its last trick, its claims are still to
    come).  When the log has grown, the hand going on is no edit: the session is stored again
    (keeping its id), as a whole fresh import stores it, without --replace."""
    db = tmp_path / "b.duckdb"
    log = tmp_path / "tonight.bhh"
    lines = HOME.read_text().splitlines(keepends=True)
    whole = "".join(lines)
    start = len("".join(lines[:HAND_12 + CUTS[where] // 1000]))
    cut = whole[:start + CUTS[where] % 1000]  # whole lines, or into the next one
    assert lines[HAND_12 + 20].startswith("Tricks ") and lines[HAND_12 + 21].startswith("Net ")
    log.write_text(cut)
    run_here(monkeypatch, capsys, "import", log, "--db", db)
    [(session, _)] = sessions(db)
    finished = query(db, "SELECT complete FROM hands WHERE number = 12") == [(True,)]
    assert finished == (where not in ("deals", "tricks"))
    log.write_text(whole)
    code, out, err = run_here(monkeypatch, capsys, "import", log, "--db", db)
    assert code == 1 and err == "", err  # findings, nothing refused
    assert ("hand 12 went on (lines were added after its last trick since the file was imported)" if finished
            else "hand 12 went on (it was cut off when the file was imported before)") in out
    assert "24 hands, 24 new, 0 already stored, 12 replaced" in out  # as --replace counts
    assert sessions(db) == [(session, 24)]
    assert content(db) == content(fresh(tmp_path, HOME.read_bytes(), "whole"))
    # a line added at the end of the file (a dispute written in the next day) goes on too
    log.write_text(whole.rstrip("\n") + "\nDispute Alice renege 2\n")
    code, out, err = run_here(monkeypatch, capsys, "import", log, "--db", db)
    assert "hand 24 went on" in out and err == "", err
    assert sessions(db) == [(session, 24)]
    assert query(db, "SELECT kind, ruling FROM rulings JOIN hands USING (hand_id) WHERE number = 24") == [
        ("renege", "rejected")]
    # an edit of that hand (not lines added to it) is still refused, and so is a change before it
    log.write_text(whole)
    run_here(monkeypatch, capsys, "import", log, "--db", db, "--replace")
    before = content(db)
    last = whole.rstrip("\n").rsplit("\n", 1)[1]
    assert last.startswith("Net ")
    for edited in (whole.replace("Deal Sybil Kh 7h Th 3h 2d", "Deal Sybil Kh 7h Th 2h 3d"),
                   cut.replace("Dealer Alice", "Dealer Judy"),
                   whole.replace(last, last.replace("+", "+1", 1)),  # the last hand's claim changed
                   whole.replace(last, "Dispute Alice renege 2\n" + last)):  # a line inserted, not added
        log.write_text(edited)
        code, _, err = run_here(monkeypatch, capsys, "import", log, "--db", db)
        assert code == 4 and "not imported, the database is unchanged" in err, err
        assert content(db) == before


def test_a_stored_session_then_new_ones_in_one_file_keep_their_order(tmp_path, monkeypatch, capsys,
                                                                        replays):
    """The hands of a stored session wait for the store's answer; the sessions after it
    must not overtake them (a new session's hands were once audited in the stored one)."""
    db = tmp_path / "b.duckdb"
    run_here(monkeypatch, capsys, "import", HOME, "--db", db)
    both = HOME.read_text() + "\n" + EVENING + "\n" + OTHER_EVENING
    (tmp_path / "more.bhh").write_text(both)
    replays.clear()
    code, out, _ = run_here(monkeypatch, capsys, "import", tmp_path / "more.bhh", "--db", db)
    assert "28 hands, 4 new, 24 already stored" in out
    assert sorted(replays) == [1, 1, 2, 2]  # the two evenings' hands only
    assert content(db) == content(fresh(tmp_path, both.encode(), "both"))


def test_an_edited_hand_is_reported_and_replaced_only_when_asked(tmp_path):
    db = tmp_path / "b.duckdb"
    log = tmp_path / "friday.bhh"
    log.write_bytes(HOME.read_bytes())
    run_cli("import", log, "--db", db)
    [(session, _)] = sessions(db)
    before = content(db)
    edited = HOME.read_text().replace("Net Carol -1 Heidi -7 Alice -1 Eve -7 Sybil +5 Judy -1",
                                      "Net Carol -1 Heidi -7 Alice -1 Eve -7 Sybil +4 Judy -1")
    log.write_text(edited + "\nHand 25\nDealer Carol\nHeidi pass\nAlice pass\nEve pass\nSybil pass\n"
                   "Judy pass\nCarol pass\n")
    p = run_cli("import", log, "--db", db)
    assert p.returncode == 4, p.stderr
    err = p.stderr.decode()
    assert f"session 1 differs from the stored session {session}: hand 1 changed, hand 25 new, 23 unchanged" in err
    assert "not imported, the database is unchanged (--replace replaces that session)" in err
    assert content(db) == before
    p = run_cli("import", log, "--db", db, "--replace")
    assert p.returncode == 1, p.stderr  # findings: the wrong net claim among them
    assert f"session 1 replaced the stored session {session} (hand 1 changed, hand 25 new, 23 unchanged)" in p.stdout.decode()
    assert sessions(db) == [(session, 25)]  # no hand stored twice, the session keeps its id
    assert content(db) == content(fresh(tmp_path, log.read_bytes(), "edited"))
    assert ("wrong-settlement",) in query(db, "SELECT kind FROM findings JOIN hands USING (hand_id) "
                                             "WHERE number = 1")


def test_an_edited_tag_replaces_the_session_instead_of_adding_one(tmp_path):
    db = tmp_path / "b.duckdb"
    log = tmp_path / "chain.bhh"
    text = (CORPUS / "09-session-chain.bhh").read_text()
    log.write_text(text)
    run_cli("import", log, "--db", db)
    [(session, n)] = sessions(db)
    log.write_text(text.replace('[Event "Session chain"]', '[Event "Session chain, Thursday"]'))
    p = run_cli("import", log, "--db", db)
    assert p.returncode == 4 and b"the session's tags changed, 4 unchanged" in p.stderr, p.stderr
    run_cli("import", log, "--db", db, "--replace")
    assert sessions(db) == [(session, n)]
    assert query(db, "SELECT event FROM sessions") == [("Session chain, Thursday",)]


def test_other_rules_or_cinch_budget_replace_the_findings_only_when_asked(tmp_path):
    db = tmp_path / "b.duckdb"
    log = tmp_path / "cinch.bhh"
    log.write_bytes((CORPUS / "07-cinch-lead.bhh").read_bytes())
    run_cli("import", log, "--db", db)
    before = content(db)
    p = run_cli("import", log, "--db", db, "--rules", "basic")
    assert p.returncode == 4, p.stderr  # not skipped as "imported before": other rules
    assert b"stored as audited with rules=(the tags); cinch-nodes=" in p.stderr
    assert content(db) == before
    p = run_cli("import", log, "--db", db, "--rules", "basic", "--replace")
    assert p.returncode in (0, 1), p.stderr
    assert query(db, "SELECT DISTINCT settings FROM sessions")[0][0].startswith("rules=basic")
    assert content(db) != before and not query(db, "SELECT * FROM findings WHERE kind LIKE 'cinch%'")
    assert len(sessions(db)) == 1


# ---- the questions players and leagues ask -------------------------------------------------

@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """The home game and the conformance corpus in one store."""
    where = tmp_path_factory.mktemp("league")
    db = where / "league.duckdb"
    run_cli("import", HOME, CORPUS, "--db", db)
    return db


def as_json(p):
    import json
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_stats_scoped_grouped_and_sorted(league):
    everyone = as_json(run_cli("stats", "--db", league, "--format", "json"))
    friday = as_json(run_cli("stats", "--db", league, "--format", "json", "--event", "friday night at boudreaux's"))
    assert {r["player"] for r in friday} == {"Carol", "Heidi", "Alice", "Eve", "Sybil", "Judy"}
    assert sum(r["hands"] for r in friday) == 24 * 6
    by_event = as_json(run_cli("stats", "--db", league, "--format", "json", "--by", "event"))
    # the groups add up to the whole record, player by player
    for field in ("hands", "net", "bourres", "violations"):
        totals: dict = {}
        for r in by_event:
            totals[r["player"]] = totals.get(r["player"], 0) + r[field]
        assert totals == {r["player"]: r[field] for r in everyone}, field
    friday_rows = [{k: v for k, v in r.items() if k != "event"} for r in by_event
                   if r["event"] == "Friday night at Boudreaux's"]
    assert friday_rows == friday
    by_bourres = as_json(run_cli("stats", "--db", league, "--format", "json", "--sort", "bourres"))
    assert [r["bourres"] for r in by_bourres] == sorted((r["bourres"] for r in everyone), reverse=True)
    source = as_json(run_cli("stats", "--db", league, "--format", "json", "--source", HOME))
    assert source == friday
    [session] = {r["session"] for r in as_json(run_cli("stats", "--db", league, "--format", "json", "--by",
                                                       "session", "--event", "Friday night at Boudreaux's"))}
    assert as_json(run_cli("stats", "--db", league, "--format", "json", "--session", session[:8])) == friday
    months = as_json(run_cli("stats", "--db", league, "--format", "json", "--by", "month"))
    assert {r["month"] for r in months} <= {"2026-11", "(no date)"}


def test_relative_dates(league):
    from datetime import date, timedelta
    days = (date.today() - date(2026, 11, 27)).days
    inside = as_json(run_cli("stats", "--db", league, "--format", "json", "--since", f"{days + 1}d",
                             "--until", "today"))
    outside = as_json(run_cli("stats", "--db", league, "--format", "json", "--since", f"{max(days - 1, 0)}d"))
    assert any(r["player"] == "Sybil" for r in inside)  # the home game, 2026-11-27
    if days >= 1:
        assert not any(r["player"] == "Sybil" for r in outside)
    p = run_cli("stats", "--db", league, "--since", "last-fortnight")
    assert p.returncode == 3 and b"30d, 4w, today" in p.stderr


def test_aliases_count_every_spelling_as_one_player(tmp_path):
    db = tmp_path / "a.duckdb"
    text = (CORPUS / "09-session-chain.bhh").read_text()
    (tmp_path / "a.bhh").write_text(text)
    (tmp_path / "b.bhh").write_text(text.replace("Session chain", "Session chain 2").replace("Ann", "ann"))
    run_cli("import", tmp_path / "a.bhh", tmp_path / "b.bhh", "--db", db)
    before = {r["player"]: r for r in as_json(run_cli("stats", "--db", db, "--format", "json"))}
    assert run_cli("alias", "Ann", "ann", "A. Thibodeaux", "--db", db).returncode == 0
    after = {r["player"]: r for r in as_json(run_cli("stats", "--db", db, "--format", "json"))}
    assert "ann" not in after and after["Ann"]["hands"] == before["Ann"]["hands"] + before["ann"]["hands"]
    assert after["Ann"]["net"] == before["Ann"]["net"] + before["ann"]["net"]
    assert as_json(run_cli("stats", "--player", "ann", "--db", db, "--format", "json"))[0]["player"] == "Ann"
    overall = {r["player"] for r in as_json(run_cli("ledger", "--db", db, "--format", "json"))}
    assert "ann" not in overall and "Ann" in overall
    views = as_json(run_cli("sql", "SELECT DISTINCT player FROM ledger UNION SELECT player FROM player_stats",
                            "--db", db, "--format", "json"))
    assert {"player": "ann"} not in views and {"player": "Ann"} in views
    listed = run_cli("alias", "--db", db, "--format", "csv").stdout.decode().splitlines()
    assert listed == ["player,alias", "Ann,A. Thibodeaux", "Ann,ann"]
    p = run_cli("alias", "ann", "Ann", "--db", db)  # Ann is the name kept: not an alias of itself
    assert p.returncode == 3 and b"cannot be an alias of itself" in p.stderr
    assert run_cli("alias", "--remove", "ann", "--db", db).returncode == 0
    back = {r["player"]: r["hands"] for r in as_json(run_cli("stats", "--db", db, "--format", "json"))}
    assert back == {k: v["hands"] for k, v in before.items()}


def test_find_writes_the_hands_asked_for_as_bhh(league, tmp_path):
    p = run_cli("find", "--kind", "renege", "--db", league)
    assert p.returncode == 0 and p.stdout.startswith(b"[Event ")
    (tmp_path / "reneges.bhh").write_bytes(p.stdout)
    import json
    p = run_cli("check", tmp_path / "reneges.bhh", "--format", "json")
    assert p.returncode == 1, p.stderr  # findings, no syntax error
    check = json.loads(p.stdout)
    hands = [h for s in check["sessions"] for h in s["hands"]]
    stored = query(league, "SELECT count(DISTINCT hand_id) FROM findings WHERE kind = 'renege'")[0][0]
    assert len(hands) == stored and all(any(f["kind"] == "renege" for f in h["findings"]) for h in hands)
    # split: a file per session; every disputed hand, once
    run_cli("find", "--disputed", "--split", tmp_path / "out", "--db", league)
    files = sorted((tmp_path / "out").iterdir())
    disputed = query(league, "SELECT count(DISTINCT hand_id), count(DISTINCT session_id) FROM rulings "
                             "JOIN hands USING (hand_id)")[0]
    assert len(files) == disputed[1]
    assert sum(f.read_text().count("\nDispute ") for f in files) >= disputed[0]
    p = run_cli("find", "--kind", "renage", "--db", league)
    assert p.returncode == 3 and b"did you mean renege" in p.stderr


def test_replay_by_id_shows_the_stored_hand_as_the_file_does(league):
    [(hand_id,)] = query(league, """SELECT hand_id FROM hands JOIN sessions USING (session_id)
                                    WHERE number = 12 AND event = 'Friday night at Boudreaux''s'""")
    from_file = run_cli("replay", HOME, "--hand", "12")
    from_store = run_cli("replay", "--id", hand_id[:10], "--db", league)
    assert from_store.returncode == from_file.returncode == 1
    assert from_store.stdout == from_file.stdout and b"trick" in from_store.stdout
    p = run_cli("replay", "--id", "nosuchhand", "--db", league)
    assert p.returncode == 3 and b"no stored hand has the id nosuchhand" in p.stderr
