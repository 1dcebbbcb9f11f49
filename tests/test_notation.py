"""The reader, the grammar and the canonical writer (NOTATION.md)."""

from __future__ import annotations

import io
import itertools

from booray_audit import notation, record as r
from booray_audit.cards import parse_card
from booray_audit.writer import write

from .conftest import CORPUS


def read(text: str):
    return notation.read_text(text)


def test_grammar_builds_with_strict_lalr():
    # strict=True rejects shift/reduce conflicts and colliding terminals (needs interegular)
    notation.parser.cache_clear()
    assert notation.parser(strict=True) is not None


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
    assert problems[0].message == "expected a card like `Qs` or `10h`, found `1h`"
    assert "unknown event `Trik`" in problems[1].message
    shown = str(problems[0]).splitlines()
    assert shown[0].endswith("12-syntax-errors.bhh:17:11: expected a card like `Qs` or `10h`, found `1h`")
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
