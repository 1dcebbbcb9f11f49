"""A scope that matches nothing in the store is a usage error, command by command: exit
3, one line naming the part of the scope that matches nothing, and the stored names
close to what was typed."""

from __future__ import annotations

import pytest

from .conftest import ROOT, run_cli


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    db = tmp_path_factory.mktemp("scopes") / "league.duckdb"
    p = run_cli("import", "--db", db, ROOT / "samples" / "home-game.bhh", ROOT / "samples" / "partial-from-memory.bhh")
    assert p.returncode in (0, 1), p.stderr
    return db


NOTHING = [
    (["stats", "--player", "Nobody"], "no hands stored for Nobody"),
    (["stats", "--player", "judy"], "did you mean Judy?"),
    (["stats", "--session", "zzzz"], "no stored session has an id starting zzzz"),
    (["stats", "--event", "Friday nite at Boudreaux's"], "did you mean Friday night at Boudreaux's?"),
    (["stats", "--source", "nope.bhh"], "no stored session was imported from nope.bhh"),
    (["ledger", "--session", "zzzz"], "no stored session has an id starting zzzz"),
    (["ledger", "--event", "Nope"], "no stored session of the event Nope"),
    (["ledger", "--settle", "--event", "Nope"], "no stored session of the event Nope"),
    (["find", "--player", "Nobody"], "no hands stored for Nobody"),
    (["find", "--session", "zzzz"], "no stored session has an id starting zzzz"),
    (["find", "--event", "Nope"], "no stored session of the event Nope"),
    (["forget", "--event", "Nope", "--yes"], "no stored session matches"),
    (["stats", "--player", "Alice", "--since", "2026-11-27", "--until", "2026-11-27", "--source", "x"],
     "no stored session was imported from x"),
    (["stats", "--event", "Friday night at Boudreaux's", "--session", "zz"],
     "no stored session has an id starting zz"),
    (["stats", "--player", "Marcel", "--event", "Friday night at Boudreaux's"],
     "each part of it matches, but not all together"),
]


@pytest.mark.parametrize("command,said", NOTHING, ids=[" ".join(c) for c, _ in NOTHING])
def test_a_scope_that_matches_nothing_exits_3_and_says_which_part(store, command, said):
    p = run_cli(*command, "--db", store)
    err = p.stderr.decode()
    assert p.returncode == 3, (p.returncode, err)
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_dates_with_no_game_are_an_answer_not_a_mistake(store):
    for command in (["stats", "--since", "2099-01-01"], ["stats", "--player", "Judy", "--until", "2000-01-01"],
                    ["ledger", "--since", "2099-01-01"], ["find", "--player", "Judy", "--since", "2099-01-01"],
                    ["stats", "--event", "Friday night at Boudreaux's", "--since", "2099-01-01"]):
        p = run_cli(*command, "--db", store)
        assert p.returncode == 0, (command, p.stderr)


def test_a_scope_that_matches_still_exits_0_when_a_filter_leaves_no_hand(store):
    p = run_cli("find", "--player", "Judy", "--kind", "recall", "--db", store)
    assert p.returncode == 0 and "no stored hand matches" in p.stderr.decode()
    assert run_cli("stats", "--event", "friday night at boudreaux's", "--db", store).returncode == 0
