"""The mondaynightpoker server's game logs (docs/platforms.md): a game's chain of hands
read as one session, audited clean under its own rules with its money checked, its
departures from the written rules summed up per kind under `standard`, and bad documents
refused with their line, the rest of the file still read."""

from __future__ import annotations

import copy
import json
import random

from booray_audit.judge.audit import HandReport, audit
from booray_audit.notation import reader as notation

from .conftest import run_cli
from .mnp_games import game

RANK = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
SUIT = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def cards(text: str) -> list[dict]:
    return [{"rank": RANK[c[0]], "suit": SUIT[c[1]]} for c in text.split()]


def trick(number, winner, *plays):
    return {"number": number, "winnerId": winner,
            "plays": [{"playerId": p, "card": cards(c)[0]} for p, c in plays]}


def described() -> dict:
    """The format description's hand (3 players, spades trump, tricks 2-2-1), then its
    continuation dealt to P1 and P0 (P2, with one trick, sits out), P1 taking every trick."""
    first = {
        "options": {"Ante": 25, "InitialPot": 0}, "ante": 25, "initialPot": 75, "trumpCard": cards("As")[0],
        "seats": [{"playerId": 2, "startingHand": cards("2h 3h 4h 5h 6h")},  # not in seat order
                  {"playerId": 0, "startingHand": cards("2c 3c 4c 5c 6c")},
                  {"playerId": 1, "startingHand": cards("2d 3d 4d 5d 6d")}],
        "discards": [{"playerId": p, "discarded": [], "newCards": []} for p in (0, 1, 2)],
        "tricks": [trick(1, 0, (0, "2c"), (1, "2d"), (2, "2h")), trick(2, 1, (1, "3d"), (2, "3h"), (0, "3c")),
                   trick(3, 2, (2, "4h"), (0, "4c"), (1, "4d")), trick(4, 0, (0, "5c"), (1, "5d"), (2, "5h")),
                   trick(5, 1, (1, "6d"), (2, "6h"), (0, "6c"))],
        "result": {"PaidAnte": [], "PaidPot": [], "Winners": [{"PlayerID": 0}, {"PlayerID": 1}],
                   "Booted": [{"PlayerID": 2}], "WinningAmount": 0, "Ante": 25, "OldPot": 75, "NewPot": 75}}
    return {
        "parent": first, "options": {"Ante": 25, "InitialPot": 75}, "ante": 25, "initialPot": 75,
        "trumpCard": cards("7h")[0],
        "seats": [{"playerId": 0, "startingHand": cards("2c 3c 4c 5c 6c")},
                  {"playerId": 1, "startingHand": cards("Ah Kh Qh Jh Th")}],
        "discards": [{"playerId": 1, "discarded": [], "newCards": []},
                     {"playerId": 0, "discarded": cards("2c 3c"), "newCards": cards("2d 3d")}],
        "tricks": [trick(1, 1, (1, "Ah"), (0, "2d")), trick(2, 1, (0, "3d"), (1, "Kh")),
                   trick(3, 1, (1, "Qh"), (0, "4c")), trick(4, 1, (0, "5c"), (1, "Jh")),
                   trick(5, 1, (1, "Th"), (0, "6c"))],
        "result": {"PaidAnte": [], "PaidPot": [{"PlayerID": 0}], "Winners": [{"PlayerID": 1}], "Booted": [],
                   "WinningAmount": 75, "Ante": 25, "OldPot": 75, "NewPot": 75}}


def audited(path, rules=None) -> list[HandReport]:
    return [it for it in audit(notation.read(str(path)), rules) if isinstance(it, HandReport)]


def test_the_described_game_reads_as_one_session_in_seat_order(tmp_path):
    f = tmp_path / "game.json"
    f.write_text(json.dumps(described(), indent=2))
    first, second = audited(f)
    assert first.session == second.session == 0
    assert first.replay.seated == ["P0", "P1", "P2"] and first.replay.dealer == "P2"
    assert second.replay.seated == ["P1", "P0"] and second.replay.dealer == "P0"
    assert first.findings == second.findings == []
    assert first.replay.tricks == {"P0": 2, "P1": 2, "P2": 1}
    assert (first.settlement.winner, first.settlement.carry) == (None, 75)
    assert (second.settlement.pot, second.settlement.antes) == (75, {})  # a continuation: no antes
    assert (second.settlement.winner, second.settlement.net) == ("P1", {"P1": 75, "P0": -75})


def _games(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed)
    return [game(rng, list(range(10 * g, 10 * g + rng.randint(2, 8)))) for g in range(count)]


def test_games_played_by_its_rules_audit_clean_and_their_money_checks(tmp_path):
    """Random legal games, 2 to 8 players, folds, draws past the stock's end, continuation
    chains: no finding, nothing undecidable, every hand settled, and the platform's own
    pot, antes, trick counts and nets (written as its claims) all agree."""
    f = tmp_path / "games.json"
    games = _games(5, 150)
    f.write_text("\n".join(json.dumps(g) for g in games) + "\n")
    hands = audited(f)
    chained = sum(1 for g in games if "parent" in g)
    assert chained > 40 and len(hands) > 300
    assert [(h.session, f.kind, f.message) for h in hands for f in h.findings] == []
    assert [u for h in hands for u in h.replay.undecidable] == []
    assert all(h.settlement.net is not None for h in hands)
    claimed = [e for h in hands for e in h.hand.events if type(e).__name__ == "NetClaim"]
    assert len(claimed) == len(hands)  # every hand's money was checked against the platform's


def test_under_the_written_rules_each_departure_is_one_line(tmp_path):
    f = tmp_path / "games.json"
    f.write_text("\n".join(json.dumps(g) for g in _games(6, 40)) + "\n")
    p = run_cli("check", "--rules", "standard", "--by-kind", f)
    out = p.stdout.decode()
    assert p.returncode == 1, p.stderr
    lines = out.strip().splitlines()
    kinds = {line.split(":")[0] for line in lines[:-1] if line.strip()}
    assert {"bad-trump", "out-of-turn"} <= kinds  # the up-card not the dealer's; the lead going round
    assert all("hands; first hand" in line or line.endswith("hand; first hand") or ": 1 hand;" in line
               for line in lines[:-1] if line.strip())
    assert "trick  " not in out and "Hand 1" not in out  # no hand is printed
    clean = run_cli("check", "--by-kind", f)
    assert clean.returncode == 0 and clean.stdout.decode().split()[1:3] == ["hands,", "0"]


def test_two_jobs_give_the_same_report(tmp_path):
    f = tmp_path / "games.json"
    f.write_text("\n".join(json.dumps(g) for g in _games(7, 60)) + "\n")
    one = run_cli("check", "--format", "json", f)
    two = run_cli("check", "--format", "json", "--jobs", "2", f)
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_a_platform_that_pays_the_wrong_player_is_caught(tmp_path):
    doc = described()
    doc["result"]["WinningAmount"] = 50  # the server's result short-pays the winner
    f = tmp_path / "game.json"
    f.write_text(json.dumps(doc))
    (_, second) = audited(f)
    assert [f.kind for f in second.findings] == ["wrong-settlement"]


def test_a_five_suit_game_is_refused_clearly(tmp_path):
    doc = described()
    doc["options"]["FiveSuit"] = True
    f = tmp_path / "five.json"
    f.write_text(json.dumps(doc))
    p = run_cli("check", f)
    assert p.returncode == 2
    assert "five-suit game" in p.stderr.decode() and "Traceback" not in p.stderr.decode()
    star = described()
    star["tricks"][0]["plays"][0]["card"] = {"rank": 9, "suit": "stars"}
    f.write_text(json.dumps(star))
    p = run_cli("check", f)
    assert p.returncode == 2 and "fifth suit" in p.stderr.decode()


def test_truncated_and_garbled_documents_cost_only_their_game(tmp_path):
    good = json.dumps(described())
    whole = tmp_path / "cut.json"
    whole.write_text(json.dumps(described(), indent=1)[:900])  # a document cut short
    p = run_cli("check", whole)
    err = p.stderr.decode()
    assert p.returncode == 2 and "cut.json:" in err and "truncated" in err and "Traceback" not in err
    lines = tmp_path / "lines.json"
    broken = copy.deepcopy(described())
    broken["parent"]["discards"][1]["playerId"] = "Bob"
    lines.write_text("\n".join([good, good[:300], json.dumps(broken), "[1, 2]", good]) + "\n")
    p = run_cli("check", lines)
    err = p.stderr.decode().splitlines()
    assert p.returncode == 2
    assert [e.split(":")[1] for e in err] == ["2", "3", "4"]  # each bad line, by its number
    assert "hand 1, discards[1].playerId: expected a player id" in err[1]
    assert "expected a game log object" in err[2]
    assert p.stdout.decode().count("mondaynightpoker game") == 2  # the two good games audited
    store = tmp_path / "s.duckdb"
    imp = run_cli("import", lines, "--db", store)
    assert imp.returncode == 2 and "4 hands" in imp.stdout.decode()  # two games of two hands stored


def test_a_json_file_that_is_not_a_game_log_says_so(tmp_path):
    f = tmp_path / "report.json"
    f.write_text(json.dumps({"file": "x.bhh", "sessions": []}))
    p = run_cli("check", f)
    assert p.returncode == 2 and "expected a mondaynightpoker Bourré game log" in p.stderr.decode()


def test_fmt_writes_the_game_as_text_and_reads_it_back_the_same(tmp_path):
    f = tmp_path / "game.json"
    f.write_text(json.dumps(described()))
    text = run_cli("fmt", f)
    assert text.returncode == 0
    bhh = tmp_path / "game.bhh"
    bhh.write_bytes(text.stdout)
    assert "[Rules \"mondaynightpoker\"]" in text.stdout.decode() and "Seats P1 P0" in text.stdout.decode()
    a = run_cli("check", "--format", "json", f).stdout.decode().replace(str(f), "F")
    b = run_cli("check", "--format", "json", bhh).stdout.decode().replace(str(bhh), "F")
    assert a == b


def test_each_house_rule_of_the_profile_is_needed(tmp_path):
    """The same legal games judged with one house rule of the profile put back to the
    written one: the folded hands reshuffled before the discards, or the trump card taken
    for the dealer's, and the record shows cards coming back where they could not."""
    f = tmp_path / "games.json"
    f.write_text("\n".join(json.dumps(g) for g in _games(1, 300)) + "\n")
    for rule in ('reshuffle = "folded-first"', 'trump-card = "dealer"'):
        house = tmp_path / "house.toml"
        house.write_text(f'base = "mondaynightpoker"\n{rule}\n')
        p = run_cli("check", "--by-kind", "--rules", house, f)
        assert p.returncode == 1 and "duplicate-card:" in p.stdout.decode(), rule
    assert run_cli("check", "--by-kind", f).returncode == 0
    p = run_cli("check", "--by-kind", "--format", "json", f)
    assert p.returncode == 3 and "--by-kind is for the text report" in p.stderr.decode()


def test_a_line_past_the_bound_costs_only_that_line(tmp_path, monkeypatch):
    from booray_audit.notation import mondaynightpoker
    from booray_audit.record import SyntaxProblem
    monkeypatch.setattr(mondaynightpoker, "MOST_BYTES", 6000)
    good = json.dumps(described())
    f = tmp_path / "long.json"
    f.write_text("\n".join([good, "[" + "1, " * 5000 + "1]", good]) + "\n")
    items = list(notation.read(str(f)))
    problems = [i for i in items if isinstance(i, SyntaxProblem)]
    assert [(p.line, "more than" in p.message) for p in problems] == [(2, True)]
    assert sum(1 for i in items if type(i).__name__ == "Session") == 2


def test_a_mangled_game_log_never_crashes_the_reader_or_the_audit():
    """Values of the wrong type, missing keys, fifth-suit cards, huge numbers and
    escape codes put into real games (300 at a fixed seed): each game is audited or
    refused with a reason, never a traceback.  (A fuzz of 800 such games, 1 to 3 changes
    each, found 124 that raised a TypeError in the reader.)"""
    import io
    from booray_audit.notation.mondaynightpoker import MondayReader
    from booray_audit.record import SyntaxProblem
    rng = random.Random(11)
    values = [None, True, 0, -1, 2**70, 1.5, "", "x", [], {}, [1], {"rank": 99}, {"rank": 14, "suit": "stars"},
              {"rank": True, "suit": "spades"}, {"rank": {}, "suit": []}, "\x1b[31m", [None], {"playerId": None}]
    docs = [described()] + _games(12, 5)

    def places(o, at=()):
        yield at
        for k, v in (o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()):
            yield from places(v, at + (k,))
    refused = 0
    for _ in range(300):
        doc = copy.deepcopy(rng.choice(docs))
        for at in rng.sample(list(places(doc))[1:], 1):
            try:
                parent = doc
                for k in at[:-1]:
                    parent = parent[k]
                parent[at[-1]] = copy.deepcopy(rng.choice(values))
            except (KeyError, IndexError, TypeError):
                pass  # a place the first change removed
        items = list(audit(MondayReader("x.json").read(io.BytesIO(json.dumps(doc).encode()))))
        refused += any(isinstance(i, SyntaxProblem) for i in items)
    assert 0 < refused < 300
