"""The reader, the grammar and the canonical writer (docs/writing-hands.md)."""

from __future__ import annotations

import io
import itertools

from booray_audit.notation import reader as notation
from booray_audit import record as r
from booray_audit.notation import syntax
from booray_audit.cards import parse_card
from booray_audit.notation.writer import write

from .conftest import CORPUS


def read(text: str):
    return notation.read_text(text)


def test_grammar_builds_with_strict_lalr():
    # strict=True rejects shift/reduce conflicts and colliding terminals (needs interegular)
    syntax.parser.cache_clear()
    assert syntax.parser(strict=True) is not None


def test_every_corpus_file_parses():
    for path in CORPUS.glob("*.bhh"):
        sessions, problems = notation.collect(notation.read(str(path)))
        assert sessions, path
        if path.name != "12-syntax-errors.bhh":
            assert problems == [], path


def test_syntax_errors_spoil_only_their_hand():
    sessions, problems = notation.collect(notation.read(str(CORPUS / "12-syntax-errors.bhh")))
    assert [h.number for h in sessions[0].hands] == [1, 3]
    assert [(p.line, p.column) for p in problems] == [(17, 11), (18, 1)]
    assert problems[0].message == "expected a card like `Qs` or `10h`, found `1h`: a ten is `T` or `10` (`Th` or `10h`)"
    assert "unknown event `Trik`" in problems[1].message
    shown = str(problems[0]).splitlines()
    assert shown[0].endswith("12-syntax-errors.bhh:17:11: expected a card like `Qs` or `10h`, found `1h`: "
                             "a ten is `T` or `10` (`Th` or `10h`)")
    assert shown[1].strip() == "Trick Ben 1h, Cal 2h, Ann 3h"
    assert shown[2].index("^") == shown[1].index("1h")


def test_messages_in_card_player_words():
    cases = {
        "Hand 1\nTrump x\n": "expected a suit (`s`, `h`, `d` or `c`), found `x`",
        "Hand 1\nPot many\n": "expected a number, found `many`",
        "Hand 1\nDispute Ann 3\n": "expected a finding kind like `renege` or `failed-trump`, found `3`",
        "Hand 1\nUp\n": "expected a card like `Qs` or `10h`, found the end of the line",
        "Hand 1\nNet Ann lots\n": "expected a chip amount like `+4` or `-6`, found `lots`",
        '[Event "unclosed\n': "expected",
        "Hand 1\nAnn play 2h 3h > 4s 5s\n": "the cards drawn follow `->` (a hyphen, then `>`), not `>`",
        "Hand 1\nAnn play 2h \u2192 4s\n": "the cards drawn follow `->` (a hyphen, then `>`), not `\u2192`",
        # a word's hint only where the parser expected what the word stands for
        "Hand 1\nTricks Ann three\n": "expected a number, found `three`: write it in digits, like `3`",
        "Hand 1\nNet Ann five\n": "expected a chip amount, found `five`: write it in digits, like `5`",
        "Hand 1\nDeal Ann hearts\n": "expected a card like `Qs` or `10h`, found `hearts`: a card is its rank",
        "Hand 1\nTricks Ann 1 Ben plays\n": "expected a number, found `plays`",
        "Hand 1\nTrump hearts\n": "a suit is one letter: write `h` (s h d c), not `hearts`",
        "Hand 1\nAnn plays 2h\n": "a player's decision is `play`, `pass` or `draw`, not `plays`",
        "Hand 1\nAnn play ace\n": "expected a card like `Qs` or `10h`, found `ace`: write the rank",
    }
    for text, message in cases.items():
        _, problems = read(text)
        assert problems and problems[0].message.startswith(message), (text, problems)


def test_every_spelling_of_a_card():
    for text in ("10h", "Th", "th", "T\u2665", "t\u2661", "TH"):
        assert parse_card(text) == parse_card("Th")
    sessions, problems = read("Hand 1\nTrick Ann 10h, Bob T\u2665, Cal ?h, Dee ??\n")
    assert not problems
    trick = sessions[0].hands[0].events[0]
    assert [c for _, c in trick.plays] == [parse_card(x) for x in ("Th", "Th", "?h", "??")]


def test_bom_crlf_comments_and_annotations():
    text = "\ufeff# a comment\r\n[Event \"A \\\"quoted\\\" game\"]\r\n\r\nHand 1 { late start }\r\n" \
           "Trump s # comment\r\n{ on its own line }\r\nTrick Ann As, Bob 2s\r\n"
    sessions, problems = read(text)
    assert problems == []
    s = sessions[0]
    assert s.tags == (("Event", 'A "quoted" game'),)
    hand = s.hands[0]
    assert hand.notes == ("late start",)
    assert hand.events[0].note == "on its own line"


def test_seat_order_tricks_resolve_clockwise_among_active_players():
    text = ('[Seats "Ann Ben Cal Dee"]\nHand 1\nAnn play\nBen pass\nCal play\nDee play\n'
            "Trick 1: Cal: 2h 3h 4h\n")
    sessions, problems = read(text)
    assert not problems
    trick = sessions[0].hands[0].events[-1]
    assert [p for p, _ in trick.plays] == ["Cal", "Dee", "Ann"]


def test_seat_order_without_seats_is_an_error():
    _, problems = read("Hand 1\nTrick Ann: 2h 3h\n")
    assert problems and "seat-order" in problems[0].message


def test_hand_numbers_count_on_and_must_increase():
    sessions, problems = read("Hand\nTrump s\nHand\nTrump h\nHand 7\nTrump d\nHand 3\nTrump c\n")
    assert [h.number for h in sessions[0].hands] == [1, 2, 7]
    assert "must increase" in problems[0].message


def test_tags_after_hands_start_a_new_session_and_tags_inside_a_hand_stay():
    text = ('[Event "one"]\nHand 1\nTrump s\n[Ante "2"]\nTrick Ann As\n'
            '[Event "two"]\nHand 1\nTrump h\n')
    sessions, problems = read(text)
    assert not problems
    assert [s.tag("Event") for s in sessions] == ["one", "two"]
    assert r.TagChange("Ante", "2") in sessions[0].hands[0].events


def test_events_before_any_hand_are_reported():
    _, problems = read("Trump s\n")
    assert problems and "`Hand`" in problems[0].message


def test_non_utf8_line_is_reported_with_its_line():
    data = b"Hand 1\nTrump s\nTrick Ann \xff\xfe\n"
    _, problems = notation.collect(notation.read(io.BytesIO(data), "x.bhh"))
    assert [(p.line, p.message) for p in problems] == [(3, "this line is not UTF-8 text")]


def test_round_trip_of_the_corpus():
    for path in CORPUS.glob("*.bhh"):
        sessions, _ = notation.collect(notation.read(str(path)))
        again, problems = read(write(sessions))
        assert problems == [] and again == sessions, path


def test_canonical_form_is_stable():
    sessions, _ = notation.collect(notation.read(str(CORPUS / "14-spellings.bhh")))
    text = write(sessions)
    assert "Trick 3: \"Big Ben\" 4h, Cal 9h, Ann Qh" in text
    assert write(read(text)[0]) == text


class _Endless(io.RawIOBase):
    """A stream of hands that never ends; counts how many bytes were read."""

    def __init__(self):
        self.lines = itertools.chain([b'[Event "endless"]\n'], itertools.cycle(
            [b"Hand\n", b"Trump s\n", b"Trick Ann As, Bob 2s\n"]))
        self.served = 0

    def readable(self):
        return True

    def readline(self, size=-1):
        line = next(self.lines)
        self.served += len(line)
        return line

    def __iter__(self):
        return self

    def __next__(self):
        return self.readline()


def test_reader_streams_one_hand_at_a_time():
    stream = _Endless()
    items = notation.read(stream, "endless")
    got = list(itertools.islice((i for i in items if isinstance(i, r.Hand)), 1000))
    assert got[-1].number == 1000
    # it read only about what it yielded, not ahead into the endless file
    assert stream.served < 1010 * 40


# -- round trip of random records (hypothesis) ------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from booray_audit.cards import DECK  # noqa: E402

NAMES = st.one_of(st.from_regex(r"[A-Za-z][A-Za-z0-9_'.\-]{0,8}", fullmatch=True),
                  st.sampled_from(["Big Al", "pass", "Hand", 'Say "hi"', "Ti-Jean", "Élodie"]))
CARDS = st.sampled_from(list(DECK) + [parse_card("??"), parse_card("?h")])
NOTE = st.none() | st.from_regex(r"[a-z][a-z ,.']{0,20}[a-z]", fullmatch=True)
COUNTS = st.integers(0, 5)
LISTS = st.lists(CARDS, min_size=1, max_size=5).map(tuple)


def _events(draw):
    kinds = st.sampled_from(["seats", "dealer", "ante", "pot", "deal", "up", "trump", "decision",
                             "trick", "tricks", "net", "dispute", "tag"])
    events, tricks = [], 0
    for kind in draw(st.lists(kinds, min_size=1, max_size=12)):
        note = draw(NOTE)
        if kind == "seats":
            e = r.Seats(tuple(draw(st.lists(NAMES, min_size=1, max_size=4))), note=note)
        elif kind == "dealer":
            e = r.Dealer(draw(NAMES), note=note)
        elif kind == "ante":
            e = r.Ante(draw(st.sampled_from(["all", "none"]) | st.lists(NAMES, min_size=1, max_size=3).map(tuple)),
                       note=note)
        elif kind == "pot":
            e = r.PotClaim(draw(st.integers(0, 10 ** 6)), note=note)
        elif kind == "deal":
            e = r.Deal(draw(NAMES), draw(LISTS), note=note)
        elif kind == "up":
            e = r.Up(draw(CARDS), note=note)
        elif kind == "trump":
            e = r.Trump(draw(st.integers(0, 3)), note=note)
        elif kind == "decision":
            action = draw(st.sampled_from(["pass", "play", "draw"]))
            if action == "pass":
                e = r.Decision(draw(NAMES), "pass", None, None, note=note)
            else:
                discards = draw(LISTS | COUNTS) if action == "draw" else draw(LISTS | COUNTS)
                draws = draw(st.none() | LISTS | COUNTS)
                e = r.Decision(draw(NAMES), action, discards, draws, note=note)
        elif kind == "trick":
            tricks += 1
            plays = tuple(draw(st.lists(st.tuples(NAMES, CARDS), min_size=1, max_size=4)))
            e = r.Trick(tricks, plays, note=note)
        elif kind == "tricks":
            e = r.TricksClaim(tuple(draw(st.lists(st.tuples(NAMES, st.integers(0, 5)), min_size=1, max_size=4))),
                              note=note)
        elif kind == "net":
            e = r.NetClaim(tuple(draw(st.lists(st.tuples(NAMES, st.integers(-999, 999)), min_size=1, max_size=4))),
                           note=note)
        elif kind == "dispute":
            e = r.Dispute(draw(NAMES), draw(st.sampled_from(["renege", "failed-trump", "cinch-lead"])),
                          draw(st.none() | st.integers(1, 5)), note=note)
        else:
            name = draw(st.sampled_from(["Ante", "Limit", "Note"]))
            e = r.TagChange(name, draw(_tag_value(name, r'[a-z0-9 "\\]{0,8}')), note=note)
        events.append(e)
    while events and isinstance(events[-1], r.TagChange):  # tags after a hand's last event
        events.pop()                                         # start a new session
    return tuple(events)


def _tag_value(name: str, free: str):
    """Tags that set the rules take values the rules can use (others are errors at the tag)."""
    if name == "Ante":
        return st.integers(0, 99).map(str)
    if name == "Limit":
        return st.sampled_from(["none", "25", "1000"])
    return st.from_regex(free, fullmatch=True)


@st.composite
def sessions(draw):
    out = []
    for _ in range(draw(st.integers(1, 3))):
        names = draw(st.lists(st.sampled_from(["Event", "Site", "Date", "Ante", "X-Seen"]),
                              min_size=1, max_size=3, unique=True))
        tags = r.ordered_tags((n, draw(_tag_value(n, r'[A-Za-z0-9 ,"\\]{0,12}'))) for n in names)
        hands, number = [], 0
        for _ in range(draw(st.integers(1, 3))):
            number += draw(st.integers(1, 3))
            events = _events(draw)
            if not events:
                continue
            notes = tuple(draw(st.lists(st.from_regex(r"[a-z][a-z ]{0,10}[a-z]", fullmatch=True), max_size=1)))
            hands.append(r.Hand(number, events, notes))
        out.append((tags, tuple(hands)))
    # A session with no hands cannot be told from the next one's tags (docs/writing-hands.md, events:
    # only tags after a hand start a new session), so only the last may be empty.
    out = [s for s in out[:-1] if s[1]] + out[-1:]
    return [r.Session(tags, hands, index=i) for i, (tags, hands) in enumerate(out)]


@settings(max_examples=200, deadline=None)
@given(sessions())
def test_random_records_round_trip(recorded):
    text = write(recorded)
    again, problems = read(text)
    assert problems == [], (text, problems)
    assert again == recorded, text


def test_parser_tables_loaded_from_the_cache_read_every_file_as_fresh_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    files = sorted(CORPUS.glob("*.bhh"))
    syntax.parser.cache_clear()
    try:
        fresh = [notation.collect(notation.read(str(f))) for f in files]  # builds, and writes the cache
        assert len(list((tmp_path / "booray-audit").glob("grammar-*.lark-cache"))) == 1
        syntax.parser.cache_clear()
        cached = [notation.collect(notation.read(str(f))) for f in files]  # loads it
        assert cached == fresh and any(problems for _, problems in cached)
    finally:
        syntax.parser.cache_clear()


def test_an_error_at_the_end_of_a_line_that_ends_in_a_comment():
    """Found by the fuzz test: the parser's column lay past the line's last character."""
    import io
    data = b'Trick\xef\xbb\xbf# a comment after a stray byte-order mark\r\n[Event "x"]\r\n'
    problems = [it for it in notation.read(io.BytesIO(data), "f.bhh") if isinstance(it, r.SyntaxProblem)]
    assert problems and str(problems[0]).startswith("f.bhh:1:")
    assert "expected a number or a player's name, found the end of the line" in str(problems[0])


def _problems(data: bytes) -> list:
    return [it for it in notation.read(io.BytesIO(data), "f.bhh") if isinstance(it, r.SyntaxProblem)]


def test_a_carriage_return_inside_a_line_is_an_error_at_its_place_never_a_blank_line():
    """A line break of another system (a lone `\\r`, `\\n\\r`, `\\r\\r\\n`) is no line end to
    the grammar.  A line that began with one was once taken for a blank line and dropped, its
    deal or trick with it, without a word; a stray one inside a line read as a space."""
    hand = b"Hand 1\nDealer Cal\nDeal Ann 2h 3h 4h 5h 6h\n%sTrick 1: Ann 2h, Cal 2s\n"
    for line, column, data in ((4, 1, hand % b"\r"),  # `\n\r` line ends
                               (3, 21, b"Hand 1\nDealer Cal\nDeal Ann 2h 3h 4h 5h\r6h\n"),
                               (3, 24, b"Hand 1\r\nDealer Cal\r\nDeal Ann 2h 3h 4h 5h 6h\r\r\n")):
        problems = _problems(data)
        assert [(p.line, p.column) for p in problems] == [(line, column)], data
        shown = str(problems[0])
        assert shown.startswith(f"f.bhh:{line}:{column}: a carriage return inside the line"), shown
        assert "␍" in shown.splitlines()[1] and "\r" not in shown  # seen, and no cursor sent home
        assert shown.splitlines()[2].index("^") == shown.splitlines()[1].index("␍")
    # what the grammar reads as line ends still is: \r\n, blank and comment lines, a comment
    # holding a carriage return, and a last line ending in \r alone (taken as a line end)
    sessions, problems = notation.read_text("Hand 1\r\n  \r\n# c\r\nDealer Cal # a \r b\r\n\r\nTrump s\r")
    assert problems == [] and [type(e).__name__ for e in sessions[0].hands[0].events] == ["Dealer", "Trump"]


def test_a_file_the_grammar_refuses_is_never_read_without_a_problem():
    """The grammar over the whole file against the reader (hand by hand, the fast reader
    first): randomly edited files that the grammar refuses must give a syntax problem, never
    a quiet reading with lines left out (how the lines begun with a carriage return went)."""
    import random

    from .test_strict import FILES, WORDS
    rng = random.Random(7)
    bases = [p.read_text(encoding="utf-8") for p in FILES if p.stat().st_size < 20_000]
    words = WORDS + ["\r", "\t", "\ufeff", "[", "]", "{", "}", '"', "#x", "hand 3"]
    refused = 0
    for _ in range(1500):
        lines = rng.choice(bases).split("\n")
        a = rng.randrange(max(1, len(lines) - 30))
        lines = lines[:6] + lines[a:a + 30]
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            if rng.random() < 0.2:
                lines[i] = rng.choice(words) + lines[i]
                continue
            line = lines[i].split(" ")
            line.insert(rng.randrange(len(line) + 1), rng.choice(words))
            lines[i] = " ".join(line)
        text = "\n".join(lines) + "\n"
        try:
            syntax.parser().parse(text)
            continue
        except (syntax.UnexpectedInput, syntax.TooBig, syntax.CardError, ValueError):
            refused += 1
        assert _problems(text.encode("utf-8")), text
    assert refused > 300


def test_an_invisible_character_is_named_where_it_is():
    """Text copied from a web page or a chat carries no-break and zero-width spaces; the
    grammar reads them as no space.  The message names the character at its column instead
    of "found the end of the line" at what looks like a space."""
    data = "Hand 1\nDealer Cal\nDeal Ann\u00a02h 3h 4h 5h 6h\nTrick 1: Ann 2h,\u200b Cal 3s\nDeal Cal 2s\x013s\n"
    problems = _problems(data.encode("utf-8"))
    assert [(p.line, p.column) for p in problems] == [(3, 9), (4, 17), (5, 12)]
    assert "invisible character here (no-break space, U+00A0)" in problems[0].message
    assert "invisible character here (zero width space, U+200B)" in problems[1].message
    assert problems[2].message == "a control character here (U+0001), which no record holds: delete it"
