"""The compiled search (_search.c) beside the Python one, its reference: built wherever
a C compiler works, the same answers as the oracle and as Python (tests/test_cinch.py
runs every oracle check on both), and the judge's answers unchanged on a corpus but
for undecidable checks it now settles."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import random
import subprocess
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from booray_audit.cards import FULL_DECK
from booray_audit.cinch import compiled as cinch_compiled
from booray_audit.cinch import judge as cinch
from booray_audit.cinch.judge import judge
from booray_audit.cinch.position import Position
from booray_audit.cinch.solver import Solver, Undecided, Unsettled
from booray_audit.judge import audit as audit_module
from booray_audit.report import document
from booray_audit.notation import strict
from booray_audit.rules.profiles import profile

from .conftest import ROOT
from .oracle import VARIANTS, oracle_value, random_position

STD = profile("standard")
compiled = pytest.mark.skipif(cinch._search is None, reason="the compiled search is not built here")


def _compiler_works(tmp_path, cc: list[str]) -> bool:
    src = tmp_path / "probe.c"
    src.write_text("int probe(void) { return 0; }\n")
    try:
        return subprocess.run(cc + ["-c", str(src), "-o", str(tmp_path / "probe.o")],
                              capture_output=True).returncode == 0
    except OSError:
        return False


def _build(files, module: str = "_search") -> tuple[list[Path], list[Path]]:
    """Among ``files``, the compiled ``module``'s builds and the notes a build leaves where it
    could not compile it (setup.py)."""
    files = [Path(f) for f in files]
    modules = [f for f in files if f.name.startswith(module + ".") and f.name.endswith(tuple(EXTENSION_SUFFIXES))]
    return [f for f in modules if f.exists()], [f for f in files if f.name == module + ".unbuilt" and f.exists()]


def test_built_wherever_the_installs_compiler_works(tmp_path):
    """An install whose C compiler works builds the search (CI has one); one whose compiler
    does not (none on the machine, or ``CC=false``) runs the pure-Python search, and
    `--version` says so.  The build names the compiler it could not build with in
    ``_search.unbuilt`` (setup.py): that compiler must not work, or the C file is broken.
    The install is read where the tests import the package from (an editable install)
    and in the installed files (``pip install .``, the tests run from a checkout)."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        pytest.skip("the pure-Python search was asked for")
    here = Path(cinch.__file__).parent
    # every copy on the path: a checkout's own metadata (egg-info) may come first
    installed = [f.locate() for d in importlib.metadata.distributions(name="booray-audit") for f in d.files or ()]
    modules, notes = _build([*here.iterdir(), *installed])
    assert modules or notes, "no build of the compiled search: neither its module nor a note of why not"
    for note in notes:
        cc = note.read_text().split()
        assert not cc or not _compiler_works(tmp_path, cc), f"{' '.join(cc)} works, but the search was not built"
    beside, _ = _build(here.iterdir())
    if not beside:  # the package imported is one the compiled search was not built into
        assert cinch._search is None and cinch_compiled.SOLVER == "pure Python"
    elif cinch._search is None:  # built, but not importable: only a CPU without popcnt may refuse it
        with pytest.raises(ImportError, match="popcnt"):
            importlib.import_module("booray_audit.cinch._search")
    else:
        assert cinch_compiled.SOLVER == "compiled"


def test_the_reader_built_wherever_the_installs_compiler_works(tmp_path):
    """The compiled fast reader (notation/_strict.c) likewise: built where the install's
    compiler works, else a note naming the compiler that did not, and the Python reader."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        pytest.skip("the pure-Python code was asked for")
    here = Path(strict.__file__).parent
    installed = [f.locate() for d in importlib.metadata.distributions(name="booray-audit") for f in d.files or ()]
    modules, notes = _build([*here.iterdir(), *installed], "_strict")
    assert modules or notes, "no build of the compiled reader: neither its module nor a note of why not"
    for note in notes:
        cc = note.read_text().split()
        assert not cc or not _compiler_works(tmp_path, cc), f"{' '.join(cc)} works, but the reader was not built"
    beside, _ = _build(here.iterdir(), "_strict")
    assert (strict.COMPILED is not None) == bool(beside)
    assert strict.read is (strict.COMPILED or strict.items)


@pytest.mark.parametrize("what", ["settlement", "JSON"])
def test_the_plain_hands_settlement_and_json_built_wherever_the_installs_compiler_works(what, tmp_path):
    """The compiled settlement (judge/_settle.c) and JSON (report/_document.c) of plain
    hands likewise."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        pytest.skip("the pure-Python code was asked for")
    package, name, compiled = ((audit_module, "_settle", audit_module.PLAIN_SETTLE) if what == "settlement"
                               else (document, "_document", document.PLAIN_JSON))
    here = Path(package.__file__).parent
    installed = [f.locate() for d in importlib.metadata.distributions(name="booray-audit") for f in d.files or ()]
    modules, notes = _build([*here.iterdir(), *installed], name)
    assert modules or notes, f"no build of the compiled {what}: neither its module nor a note of why not"
    for note in notes:
        cc = note.read_text().split()
        assert not cc or not _compiler_works(tmp_path, cc), f"{' '.join(cc)} works, but the {what} was not built"
    beside, _ = _build(here.iterdir(), name)
    assert (compiled is not None) == bool(beside)


def test_the_pure_python_search_can_be_asked_for():
    env = dict(os.environ, BOORAY_AUDIT_PURE="1")
    out = subprocess.run([os.sys.executable, "-m", "booray_audit.cli", "--version"], env=env,
                         capture_output=True, text=True)
    assert ("(cinch search: pure Python; reader: pure Python; settlement: pure Python; JSON: pure Python)"
            in out.stdout), out.stderr


@compiled
@pytest.mark.parametrize("seed", range(2))
def test_wider_decks_more_players_and_the_up_card_agree_with_the_oracle(seed):
    rng = random.Random(900 + seed)
    checked = 0
    for players, hand_size, ranks, suits, count in ((3, 4, 6, 2, 2), (5, 3, 5, 3, 1), (4, 3, 5, 4, 1),
                                                     (2, 5, 6, 2, 6), (3, 3, 5, 3, 14)):
        for i in range(count):
            rules = VARIANTS[(seed + i) % len(VARIANTS)]
            pos, facts = random_position(rng, rules, suits=suits, ranks=ranks, hand_size=hand_size,
                                         players=(players, players), upcard=i % 2 == 0)
            value = oracle_value(facts, rules)
            for k in range(1, pos.hand.bit_count() + 1):
                assert Solver(rules, compiled=True).solve(pos, k) == (value >= k), (pos, k, value)
                checked += 1
    assert checked >= 40


@compiled
def test_the_compiled_judge_gives_the_python_judges_cinch_and_reason():
    """The compiled judge asks the counting bound only of a cinch (for the count its reason
    gives) and skips it otherwise: the whole answer, the reason's count included, is the
    Python judge's, on positions both settle.  Each won count from 0 to 2 is asked."""
    rng = random.Random(4242)
    cinches = 0
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, _ = random_position(rng, rules, ranks=5, hand_size=4, players=(2, 3), upcard=i % 3 == 0)
        for won in range(3):
            python = judge(pos, won, rules, Solver(rules, None, compiled=False))
            c = judge(pos, won, rules, Solver(rules, None, compiled=True))
            assert c == python, (pos, won, c, python)
            cinches += bool(c)
    assert cinches >= 50


def test_an_opponent_short_of_cards_is_a_record_that_contradicts_itself():
    """The spade lead is the last card of the seat that played it, while P and the others
    still hold two: no deal reaches that, and the two searches once differed on who leads
    the next trick.  Both judges now call the position contradicted, never a cinch."""
    from booray_audit.cards import mask_of, parse_card
    from booray_audit.cinch.position import Contradicted

    def cards(text: str) -> int:
        return mask_of(parse_card(c) for c in text.split())

    pos = Position(cards("Jd Kd"), cards("Ks Js Ts Th"), 1, ("p0", "p1", "p2", "p3"), "p0", (0, 2, 2, 0),
                   (0, cards("Th"), 0, 0), ((3, parse_card("As")),))
    for compiled in (False, True):
        assert isinstance(judge(pos, 2, STD, Solver(STD, None, compiled=compiled)), Contradicted)
    whole = Position(pos.hand, pos.unseen | cards("Qs"), 1, pos.seats, "p0", (0, 2, 2, 1), pos.forbidden, pos.trick)
    for compiled in (False, True):  # with its other card unseen, the position is judged
        assert judge(whole, 2, STD, Solver(STD, None, compiled=compiled)) is None


@compiled
def test_the_adversarys_cards_are_canons():
    """The compiled search's adversary tries the cards canon._choices gives, in its order
    (the ends of runs), on random states: each card gone, P's or in the trick, or unseen;
    each seat void in some suits or lacking some cards, counts of cards left, a card a seat
    is known to hold."""
    from booray_audit.cinch.canon import _choices
    from booray_audit.cinch.position import HOLD
    rng = random.Random(5)
    cards = [s * 16 + r for s in range(4) for r in range(2, 15)]
    for i in range(4000):
        n = rng.randint(2, 10)
        gone_share, fixed_share = rng.random(), rng.random() * 0.5
        unseen = fixed = 0
        for c in cards:
            x = rng.random()
            if x < gone_share * 0.8:
                continue
            if x < gone_share * 0.8 + fixed_share * 0.3:
                fixed |= 1 << c
            else:
                unseen |= 1 << c
        forb, holds, counts = [], [], []
        for _ in range(n):
            f = 0
            for suit in range(4):
                if rng.random() < 0.25:
                    f |= 0x7FFC << (16 * suit)  # void
                elif rng.random() < 0.3:
                    f |= rng.getrandbits(16) << (16 * suit) & 0x7FFC << (16 * suit)  # lacks some
            may = [c for c in cards if unseen >> c & 1 and not f >> c & 1]
            held = 1 << rng.choice(may) if may and rng.random() < 0.3 else 0
            forb.append(f)
            holds.append(held)
            counts.append(rng.randint(0, 3))
        seat = rng.randrange(n)
        pool = unseen & ~forb[seat]
        expected = _choices(pool, fixed, unseen, [f | h << HOLD for f, h in zip(forb, holds)], counts, seat)
        assert cinch._search.choices(pool, fixed, unseen, counts, forb, holds, seat) == expected, i


def _small_positions(rng, count, upcard=False):
    """Random positions of 4 ranks under the rule variants (the up-card held in a third
    of them with ``upcard``), with each need k: (rules, position, k, the oracle's answer)."""
    for i in range(count):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, facts = random_position(rng, rules, ranks=4, upcard=upcard and i % 3 == 0)
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            yield rules, pos, k, value >= k


@compiled
@pytest.mark.parametrize("shares", [(0, 0, 10**5), (1, 1, 10**5), (0, 1, 3), (3, 5, 7)])
def test_every_step_agrees_with_the_oracle(shares):
    """Each step's node share made tiny (the restricted adversaries, the probed search) so
    that the later ones run on small positions too: the relaxed game (which may only show
    a cinch) on every position with ``(0, 0, ...)``; answers as the oracle's, the
    up-card held in a third of them."""
    rng = random.Random(sum(shares))
    old = cinch._search.shares(*shares)
    try:
        for rules, pos, k, sure in _small_positions(rng, 240, upcard=True):
            assert Solver(rules, None, compiled=True).solve(pos, k) == sure, (pos, k)
    finally:
        cinch._search.shares(*old)


@compiled
def test_a_memo_that_forgets_gives_the_same_answers():
    rng = random.Random(8)
    try:
        assert cinch._search.memory(0) == 16  # the smallest memo: forgotten every 16 positions
        for rules, pos, k, sure in _small_positions(rng, 150):
            assert Solver(rules, None, compiled=True).solve(pos, k) == sure, (pos, k)
    finally:
        assert cinch._search.memory() == 400_000  # the default again


@compiled
def test_a_search_past_the_first_try_goes_on_from_it_as_from_the_start():
    """The judge's first try (FIRST_NODES) stops inside the probed search; its next call on
    the same position, with the whole budget, goes on from there with the memo kept: the
    answer and the node count are those of a search from the start."""
    # 7 seats, P on lead with the Qs 8s 7s Kc (spades trump) after winning a trick, needing 2
    # more: no cinch, shown past 40,000 positions
    pos = Position(hand=2305843009213698432, unseen=6916543850189949448, trump=0,
                   seats=("Sybil", "Rupert", "Victor", "Alice", "Ivan", "Frank", "Carol"), me="Sybil",
                   counts=(0, 4, 4, 4, 4, 4, 4), forbidden=(0,) * 7, trick=(), holds=(0,) * 7)

    def search(nodes):
        return cinch._search.solve(pos.hand, pos.unseen, pos.trump, 0, pos.counts, pos.forbidden, pos.holds,
                                   pos.trick, 2, 1, True, True, False, nodes)
    first = search(cinch.FIRST_NODES)
    assert first[0] == -1  # undecided within the first try
    resumed = search(cinch.NODES)
    fresh = search(cinch.NODES)  # the call before did not stop in its first try: from the start
    assert resumed == fresh and resumed[0] == 0 and resumed[1] > cinch.FIRST_NODES, (resumed, fresh)
    again = search(cinch.FIRST_NODES)
    assert again == first
    assert search(cinch.FIRST_NODES) == first  # a first try after a first try: from the start


@compiled
def test_a_hand_asked_again_keeps_the_memo_its_stopped_first_try_left():
    """The plain walk (_walk.c) hands a hand whose first try at a position stops to the
    Python judge, which asks the hand's positions again in order, that one last: those
    answered before are answered again without a search (their node counts too), the
    first try that stopped stops again at its count without one, and the whole budget
    goes on from its memo: every answer and count as from the start."""
    pos = Position(hand=2305843009213698432, unseen=6916543850189949448, trump=0,
                   seats=("Sybil", "Rupert", "Victor", "Alice", "Ivan", "Frank", "Carol"), me="Sybil",
                   counts=(0, 4, 4, 4, 4, 4, 4), forbidden=(0,) * 7, trick=(), holds=(0,) * 7)

    def search(p, k, rules, nodes):
        return cinch._search.solve(p.hand, p.unseen, p.trump, p.seats.index(p.me), p.counts, p.forbidden,
                                   p.holds or (0,) * len(p.counts), p.trick, k, *cinch._duties(rules), nodes)
    earlier = [(p, k, rules) for rules, p, k, _ in _small_positions(random.Random(5), 4)][:8]
    before = [search(p, k, rules, cinch.FIRST_NODES) for p, k, rules in earlier]
    assert all(answer >= 0 for answer, _ in before)
    first = search(pos, 2, STD, cinch.FIRST_NODES)
    assert first[0] == -1
    runs = cinch._search.searches()
    assert [search(p, k, rules, cinch.FIRST_NODES) for p, k, rules in earlier] == before
    assert search(pos, 2, STD, cinch.FIRST_NODES) == first
    assert cinch._search.searches() == runs  # no search: answered as before
    resumed = search(pos, 2, STD, cinch.NODES)
    assert cinch._search.searches() == (runs[0], runs[1] + 1)  # the whole budget went on from the stop
    fresh = search(pos, 2, STD, cinch.NODES)
    assert cinch._search.searches() == (runs[0] + 1, runs[1] + 1)
    assert resumed == fresh and resumed[0] == 0, (resumed, fresh)
    # a position not answered lately is searched: the memo goes, and the whole budget starts afresh
    search(pos, 2, STD, cinch.FIRST_NODES)
    other = Position(hand=pos.hand, unseen=pos.unseen, trump=1, seats=pos.seats, me=pos.me, counts=pos.counts,
                     forbidden=pos.forbidden, trick=(), holds=pos.holds)
    search(other, 2, STD, cinch.FIRST_NODES)
    runs = cinch._search.searches()
    assert search(pos, 2, STD, cinch.NODES) == fresh
    assert cinch._search.searches() == (runs[0] + 1, runs[1])


@compiled
def test_past_its_budget_it_is_undecided_and_without_one_it_answers():
    """The budget bounds the full search (the restricted adversaries have their own
    shares, as in Python): past it, Undecided and the judge's Unsettled; with none, the
    oracle's answer."""
    rng = random.Random(4)
    undecided = 0
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, facts = random_position(rng, rules, ranks=4)
        for k in range(1, pos.hand.bit_count() + 1):
            solver = Solver(rules, 2, compiled=True)
            try:
                solver.solve(pos, k)
            except Undecided:
                undecided += 1
                assert solver.decided_by == "compiled search" and solver.nodes > 2
                assert Solver(rules, None, compiled=True).solve(pos, k) == (oracle_value(facts, rules) >= k)
    assert undecided >= 5
    (pos, won) = _needs_the_search()
    assert isinstance(judge(pos, won, STD, Solver(STD, 1, compiled=True), deal_nodes=0), Unsettled)
    # played out double dummy (within its own nodes, not the budget's one), one of the
    # refuter's deals shows it is no cinch
    assert judge(pos, won, STD, Solver(STD, 1, compiled=True), deal_nodes=cinch.DEAL_NODES) is None


def _needs_the_search():
    """Victor on lead at trick 2 with K♠ J♠ 6♠ 5♥ (spades trump), one trick won, his
    discards T♦ 9♥ out of play (as in tests/test_undecidable.py): no cinch, but neither
    the bounds nor a few deals played by the refuter's policies show it."""
    from booray_audit.cards import mask_of, parse_card

    def cards(text):
        return mask_of(parse_card(c) for c in text.split())
    hand = cards("6s Ks Js 5h")
    unseen = FULL_DECK & ~hand & ~cards("5d 9d Td 9h")
    return Position(hand, unseen, 0, ("Mallory", "Victor"), "Victor", (4, 0), (0, 0), ()), 1


@compiled
def test_a_table_wider_than_it_takes_goes_to_the_python_search():
    seats = tuple(f"p{i}" for i in range(11))
    hand = 1 << 14 | 1 << 13  # As Ks, trump spades
    pos = Position(hand, FULL_DECK & ~hand, 0, seats, "p0", (0,) + (2,) * 10, (0,) * 11, ())
    assert cinch._search.solve(pos.hand, pos.unseen, 0, 0, pos.counts, pos.forbidden, (), (), 2,
                               1, 1, 1, 0, 0) == (-2, 0)
    solver = Solver(STD, compiled=True)
    assert solver.solve(pos, 2) is True and solver.decided_by != "compiled search"


def _open_lead() -> Position:
    """P on lead with A♠ Q♠ T♠ 2♥ 3♥ (spades trump), four opponents: not a cinch of 3."""
    from booray_audit.cards import mask_of, parse_card
    hand = mask_of(parse_card(c) for c in "As Qs Ts 2h 3h".split())
    seats = ("p0", "p1", "p2", "p3", "p4")
    return Position(hand, FULL_DECK & ~hand, 0, seats, "p0", (0, 5, 5, 5, 5), (0,) * 5, ())


@compiled
@pytest.mark.parametrize("sides, seed", [("compiled", 70), ("double-dummy", 80)])
def test_the_judge_answers_as_before(sides, seed):
    """A/B on every decision seeded 6- and 8-player corpora meet.  ``compiled``: the
    pure-Python judge (A, its 3,000-node budget) and the compiled search (B, its own
    default budget); ``double-dummy``: both compiled, the refuter with its policies only
    (A) and with each deal played out double dummy first (B, as it ships).  The same
    answer wherever A gave one; a check A left undecidable may be settled by B.
    (`python bench/ab.py [--b double-dummy]` runs this on 20,000+ decisions.)"""
    spec = importlib.util.spec_from_file_location("ab", ROOT / "bench" / "ab.py")
    ab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ab)
    for players, hands in ((6, 150), (8, 90)):
        seen = ab.decisions(players, hands, seed + players)
        assert len(seen) >= 150
        result = ab.compare(seen, *ab.SIDES[sides])
        assert result["differ"] == []
        assert result["identical"] + result["newly_settled"] == result["decisions"]


@compiled
def test_the_step_in_growing_shares_settles_what_the_budget_left_and_agrees_with_the_oracle():
    """Where the full search stops at its budget, the step in growing shares (the search
    again, each turn's moves in growing shares, a share of its own) goes on: with no
    share it leaves the position undecided; with a small one it answers as the oracle or
    stops; with a large one it answers as the oracle."""
    rng = random.Random(13)
    old = cinch._search.shares(0, 1, 1, 0)
    counts = {"undecided": 0, "small share": 0, "settled": 0}
    try:
        for rules, pos, k, sure in _small_positions(rng, 240, upcard=True):
            cinch._search.shares(0, 1, 1, 0)
            try:  # a budget of 2 stops the full search; no share for the step
                Solver(rules, 2, compiled=True).solve(pos, k)
                continue
            except Undecided:
                counts["undecided"] += 1
            cinch._search.shares(0, 1, 1, 3)
            try:
                assert Solver(rules, 2, compiled=True).solve(pos, k) == sure, (pos, k)
            except Undecided:
                counts["small share"] += 1
            cinch._search.shares(0, 1, 1, 10**6)
            assert Solver(rules, 2, compiled=True).solve(pos, k) == sure, (pos, k)
            counts["settled"] += 1
    finally:
        cinch._search.shares(*old)
    assert counts["settled"] == counts["undecided"] >= 50 and counts["small share"] >= 5, counts


def _solve_within(rules, pos, k, budget, deep):
    """(the compiled search's answer within ``budget`` with ``deep`` positions for the
    step in growing shares, or None past it; the positions it visited)"""
    cinch._search.shares(0, 1, 1, deep)
    solver = Solver(rules, budget, compiled=True)
    try:
        return solver.solve(pos, k), solver.nodes
    except Undecided:
        return None, solver.nodes


@compiled
@pytest.mark.parametrize("seats", [6, 7])
def test_the_step_in_growing_shares_comes_first_at_seven_seats_and_loses_nothing(seats):
    """At 7 seats or more the step in growing shares runs before the full search in order
    (which still has its whole budget after it), at fewer only where that search stops.
    Either way every answer is the exact one (the Python search's, without a budget),
    and every position the search settles without the step it settles with it: at 6
    seats node for node; at 7 some in other counts (the step ran first), and some only
    with the step."""
    rng = random.Random(seats)
    old = cinch._search.shares(0, 1, 1, 0)
    counts = {"without": 0, "with": 0, "other nodes": 0}
    try:
        for i in range(150):
            rules = VARIANTS[i % len(VARIANTS)]
            pos, _ = random_position(rng, rules, suits=4, ranks=7, hand_size=4, players=(seats, seats),
                                     tricks_first=0)
            for k in range(1, pos.hand.bit_count() + 1):
                exact = Solver(rules, None, compiled=False).solve(pos, k)
                without, plain_nodes = _solve_within(rules, pos, k, 300, 0)
                with_step, nodes = _solve_within(rules, pos, k, 300, 100)
                assert without in (None, exact) and with_step in (None, exact), (pos, k)
                if without is not None:
                    assert with_step is not None, (pos, k)
                    if seats < 7:
                        assert nodes == plain_nodes, (pos, k)
                    counts["other nodes"] += nodes != plain_nodes
                counts["without"] += without is not None
                counts["with"] += with_step is not None
    finally:
        cinch._search.shares(*old)
    assert counts["without"] >= 150, counts
    if seats >= 7:
        assert counts["with"] > counts["without"] and counts["other nodes"] > 0, counts
    else:
        assert counts["other nodes"] == 0, counts


# Two positions of the 8-player benchmark corpus (bench/bench.py) that the full search
# leaves undecided within its budget and the step in growing shares settles: the search
# in order spends its budget on adversary moves the policies put first (P wins after them).
# Sybil at trick 1 with 4d 9d Td Jd Ad (diamonds trump), 7s 6s As played before her, the
# Qd out of play: no cinch (the full search in order shows it past 17,000,000 positions;
# the step in growing shares within about 1,000 of its own)
_NO_CINCH = Position(hand=85830626443264, unseen=9222301028777213756, trump=2,
                     seats=("Ivan", "Sybil", "Eve", "Bob", "Carol", "Frank", "Victor"), me="Sybil",
                     counts=(4, 0, 5, 5, 5, 4, 4),
                     forbidden=(17592186044416, 17592186044416, 17592186044416, 17592186044416, 0,
                                17592186044416, 17592186060544),
                     trick=((5, 7), (6, 6), (0, 14)), holds=(0,) * 7)
# Victor on lead at trick 2 with 7s 9s Ts As (spades trump), one trick won, Peggy holding the
# up-card 8s: a cinch (the full search shows it too, past 350,000 positions)
_CINCH = Position(hand=18048, unseen=9221246322248259948, trump=0,
                  seats=("Rupert", "Walter", "Oscar", "Peggy", "Trent", "Victor", "Sybil", "Bob"), me="Victor",
                  counts=(4, 4, 4, 4, 4, 0, 4, 4),
                  forbidden=(256, 126083059941632, 126083059947884, 0, 256, 256, 256, 256), trick=(),
                  holds=(0, 0, 0, 256, 0, 0, 0, 0))

# Grace on lead at trick 2 with 7s Ts Ad 9c (spades trump), one trick won, nothing known of
# the others' hands: no cinch (the full search in order shows it past 800,000 positions;
# the step in growing shares only when it tries first the adversary's killer moves, which
# the earlier steps note: without them it stops at 1,000,000 positions of its own)
_KILLER = Position(hand=144185556820034688, unseen=9078201302583607876, trump=0,
                   seats=("Sybil", "Peggy", "Trent", "Grace", "Oscar", "Mallory", "Heidi", "Alice"), me="Grace",
                   counts=(4, 4, 4, 0, 4, 4, 4, 4), forbidden=(0,) * 8, trick=(), holds=(0,) * 8)


@compiled
@pytest.mark.parametrize("pos, won, cinch_expected", [(_NO_CINCH, 0, False), (_CINCH, 1, True),
                                                      (_KILLER, 1, False)])
def test_eight_player_positions_the_step_in_growing_shares_settles(pos, won, cinch_expected):
    old = cinch._search.shares(0, 0, 0)  # the default shares, read
    try:
        cinch._search.shares(*old[:3], 0)
        assert isinstance(judge(pos, won, STD, Solver(STD, compiled=True)), Unsettled)
        cinch._search.shares(*old)
        answer = judge(pos, won, STD, Solver(STD, compiled=True))
        assert bool(answer) is cinch_expected and not isinstance(answer, Unsettled), answer
    finally:
        cinch._search.shares(*old)


@compiled
def test_ctrl_c_stops_the_compiled_search_at_once():
    """The compiled search asks Python for pending signals every so many nodes: a Ctrl-C
    (here a timer whose handler raises KeyboardInterrupt, as SIGINT's does) stops a long
    search long before it would end.  The position is one the 6-player benchmark corpus
    leaves undecided within the default budget: searched here within 1,000,000 positions
    (about half a second; the search without a budget takes far longer)."""
    import signal
    import time

    def search():
        cinch._search.solve(4800, 3436386688383323452, 0, 5, (4, 4, 4, 4, 4, 0),
                            (4, 4, 3436246515683688448, 4, 4, 4), (0,) * 6, (), 2, 1, True, True, False, 1_000_000)
    t0 = time.perf_counter()
    search()
    whole = time.perf_counter() - t0
    if whole < 0.01:
        pytest.skip(f"the search takes {whole:.3f} s here: too short to interrupt")

    def ring(*_):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, whole / 10)
        t0 = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            search()
        assert time.perf_counter() - t0 < whole / 2
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    search()  # the next search runs as usual


@compiled
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak from /proc")
def test_the_memo_takes_memory_by_the_positions_it_stores():
    """The keys are kept one after another, apart from the table's slots: checking the
    3,000-hand sample (up to 8 players) peaked at 292 MB when the keys sat in a half-empty
    table, about 107 MB now (the interpreter, the reader and DuckDB's library included).
    The answers are the same (the conformance and sample tests).  The peak is the child's
    own (VmHWM, read at its end): its rusage would count the pytest process it forked from."""
    peak = ("import sys\nfrom booray_audit.cli.main import main\ntry:\n    main()\nexcept SystemExit as e:\n"
            "    code = e.code\nsys.stderr.write(next(line for line in open('/proc/self/status') "
            "if line.startswith('VmHWM')) + str(code))")
    child = subprocess.run([os.sys.executable, "-c", peak, "check", "--quiet", str(ROOT / "samples" / "online-log.bhh")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    hwm, code = child.stderr.decode().splitlines()[-2:]
    assert code == "1"  # findings
    kilobytes = int(hwm.split()[1])
    assert kilobytes < 150_000, hwm
