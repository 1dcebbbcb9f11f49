"""BHH's syntax: the Lark grammar (the definition of the notation), the events it
builds from a parse, and syntax errors in card-player words (docs/writing-hands.md, cards and common mistakes).

notation.py reads most hands with the fast reader (strict.py) and comes here, importing
Lark only then, for every hand that reader does not take and for every error message.
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterable

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from .. import record as r
from ..cards import CardError, parse_card, parse_suit  # CardError: for notation.py's reading


def grammar_text() -> str:
    """The grammar shipped in the package; in a source checkout, grammar/booray.lark."""
    try:
        return resources.files("booray_audit.grammar").joinpath("booray.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parents[2] / "grammar" / "booray.lark").read_text("utf-8")


@lru_cache(maxsize=None)
def parser(strict: bool = False) -> Lark:
    """The LALR parser with the record-building transformer inlined.  Building its tables
    takes ~0.45 s, so they are kept in the user's cache folder (private to the user:
    Lark's cache is a pickle) and rebuilt when the grammar or Lark changes."""
    options = dict(parser="lalr", lexer="contextual", strict=strict, maybe_placeholders=False,
                   transformer=_Build())
    cache = None if strict else _cache_file()
    if cache:
        try:
            return Lark(grammar_text(), cache=cache, **options)
        except OSError:  # a cache folder that cannot be written: build as usual
            pass
    return Lark(grammar_text(), **options)


def _cache_file() -> str | None:
    """Where the parser tables are kept, in a folder only the user can write; None when
    there is no such folder (then nothing is cached)."""
    import hashlib
    import lark
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "booray-audit")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
    except OSError:
        return None
    if st.st_mode & 0o022 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        return None  # others could write there: never load a pickle from it
    key = hashlib.sha256((grammar_text() + lark.__version__).encode()).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{key}.lark-cache")


def _name(tok: str) -> str:
    if tok.startswith('"'):
        return tok[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return str(tok)


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


INT32 = 2**31 - 1   # the store's INTEGER columns (hand numbers, counts)
CHIPS = r.CHIPS


class TooBig(ValueError):
    """A number past what the store can hold: refused alike by `check` and `import`."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.column = column


def _signed(tok: Token) -> int:
    digits = tok.lstrip("+-")
    if len(digits) > 40 or int(digits) > CHIPS:
        raise TooBig(f"a chip amount can be at most {CHIPS:,} either way", tok.column)
    return int(tok)


def _number(tok: Token, most: int, what: str) -> int:
    if len(tok) > 40 or int(tok) > most:
        raise TooBig(f"{what} can be at most {most:,}", tok.column)
    return int(tok)


class _Build(Transformer):
    """Parse tree → record events, applied while parsing (no tree is built)."""

    def start(self, items):
        return items

    def tag(self, c):
        return r.TagChange(str(c[0]), _unquote(c[1]), line=c[0].line, column=c[1].column + 1)

    def hand_head(self, c):
        return ("hand", _number(c[1], INT32, "a hand number") if len(c) > 1 else None, c[0].line)

    def note(self, c):
        return c[0]

    def seats(self, c):
        return r.Seats(tuple(_name(t) for t in c[1:]), line=c[0].line)

    def dealer(self, c):
        return r.Dealer(_name(c[1]), line=c[0].line)

    def ante(self, c):
        if len(c) == 2 and c[1].type in ("ALL", "NONE"):
            return r.Ante(c[1].lower(), line=c[0].line)
        return r.Ante(tuple(_name(t) for t in c[1:]), line=c[0].line)

    def pot(self, c):
        return r.PotClaim(_number(c[1], CHIPS, "a pot"), line=c[0].line)

    def deal(self, c):
        return r.Deal(_name(c[1]), tuple(parse_card(t) for t in c[2:]), line=c[0].line)

    def up(self, c):
        return r.Up(parse_card(c[1]), line=c[0].line)

    def trump(self, c):
        return r.Trump(parse_suit(c[1]), line=c[0].line)

    def cards(self, c):
        return tuple(parse_card(t) for t in c)

    def count(self, c):
        return _number(c[0], INT32, "a count of cards")

    def discards(self, c):
        return ("discards", c[0])

    def draws(self, c):
        return ("draws", c[0])

    def decision(self, c):
        action = c[1].lower()
        parts = dict(c[2:])
        discards = parts.get("discards", 0 if action == "play" else None)
        return r.Decision(_name(c[0]), action, discards, parts.get("draws"), line=c[0].line)

    def by_player(self, c):
        return tuple((_name(c[i]), parse_card(c[i + 1])) for i in range(0, len(c), 2))

    def by_seat(self, c):
        return ("seat", _name(c[0]), tuple(parse_card(t) for t in c[1:]))

    def trick(self, c):
        number = _number(c[1], INT32, "a trick number") if len(c) > 2 else None
        plays = c[-1]
        if plays[0] == "seat":
            _, leader, cards = plays
            return r.Trick(number, ((leader, cards[0]),), cards[1:], line=c[0].line)
        return r.Trick(number, plays, line=c[0].line)

    def trick_counts(self, c):
        return r.TricksClaim(tuple((_name(c[i]), _number(c[i + 1], INT32, "a trick count"))
                                   for i in range(1, len(c), 2)), line=c[0].line)

    def net(self, c):
        return r.NetClaim(tuple((_name(c[i]), _signed(c[i + 1])) for i in range(1, len(c), 2)),
                          line=c[0].line)

    def dispute(self, c):
        trick = _number(c[3], INT32, "a trick number") if len(c) > 3 else None
        return r.Dispute(_name(c[1]), str(c[2]).lower(), trick, line=c[0].line)

    def recall(self, c):
        trick = _number(c[3], INT32, "a trick number") if len(c) > 3 else None
        return r.Recall(_name(c[1]), parse_card(c[2]), trick, line=c[0].line)

    def forfeit(self, c):
        return r.Forfeit(_name(c[0]), line=c[0].line)


# -- error messages -------------------------------------------------------

_WORDS = {
    "CARD": "a card like `Qs` or `10h`",
    "NAME": "a player's name",
    "INT": "a number",
    "SIGNED": "a chip amount like `+4` or `-6`",
    "SUIT": "a suit (`s`, `h`, `d` or `c`)",
    "KIND": "a finding kind like `renege` or `failed-trump`",
    "TEXT": 'a quoted value like "Thursday game"',
    "TAG_NAME": "a tag name like `Event`",
    "PASS": "`pass`", "PLAY": "`play`", "DRAW": "`draw`", "FORFEITS": "`forfeits`", "DEAL": "`deal`",
    "ALL": "`all`", "NONE": "`none`",
    "COLON": "`:`", "RSQB": "`]`", "_ARROW": "`->`", "COMMA": "`,`",
    "ANNOTATION": "an annotation `{...}`",
}
_LINE_START = {"HAND", "SEATS", "DEALER", "DEAL", "UP", "TRUMP", "TRICK", "TRICKS", "NET",
               "DISPUTE", "RECALL", "POT", "LSQB"}


def _describe(expected: Iterable[str]) -> str:
    exp = set(expected)
    if "CARD" in exp:
        return _WORDS["CARD"]
    if exp & _LINE_START and exp != {"DEAL"}:  # `DEAL` alone: after `NAME forfeits`
        return "an event like `Deal`, `Trick`, `Tricks`, `Net`, or a player's `play`/`pass`"
    words = [_WORDS[t] for t in sorted(exp) if t in _WORDS]
    if exp & {"_NL", "$END"}:
        words.append("the end of the line")
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _word_at(text: str, column: int) -> str:
    rest = text[column - 1:]
    m = re.match(r"[^\s,]+", rest)
    return m.group(0) if m else "the end of the line"


_CARD_TYPO = re.compile(r"((?:10|[2-9AKQJTakqjt?])[shdcSHDC\u2660-\u2667])[^\s,]+$")
_SUIT_WORDS = {"spade": "s", "heart": "h", "diamond": "d", "club": "c"}
_DECISION_WORDS = {"plays", "played", "playing", "stays", "stay", "stayed", "in", "passes", "passed",
                   "out", "fold", "folds", "folded", "draws", "drew", "drawn", "stand", "stands", "pat"}
_RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "nine": "9", "eight": "8",
               "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "two": "2"}


def _whole_word(text: str, column: int) -> tuple[int, str]:
    """The word (no spaces or commas) around ``column``, and the column where it starts;
    ``column`` may point past the line's end (the parser expected more)."""
    start = max(0, min(column - 1, len(text)))
    while start > 0 and not text[start - 1].isspace() and text[start - 1] != ",":
        start -= 1
    m = re.match(r"[^\s,]*", text[start:])
    return start + 1, m.group(0) if m else ""


_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10}
_ARROWS = (">", "=>", "→", "-->", "—>", "–>", "->>")


def _hint(word: str, expected: set | None) -> str | None:
    """How to write what a person typed in words (`hearts`, `plays`, `Ace`, `1h`, `three`)
    where the parser expected what the words stand for (``expected``: its token names; None
    where it stopped inside the word, having read its start as something: `plays` as `play`)."""
    w = word.lower().strip(".:;!")
    anything = expected is None
    expected = expected or set()
    card = anything or "CARD" in expected
    suit = _SUIT_WORDS.get(w.rstrip("s"))
    if suit and (anything or "SUIT" in expected):
        return f"a suit is one letter: write `{suit}` (s h d c), not `{word}`"
    if suit and card:
        return (f"expected a card like `Qs` or `10h`, found `{word}`: a card is its rank then one suit "
                f"letter, like `A{suit}` or `10{suit}`")
    if w in _DECISION_WORDS and (anything or expected & {"PASS", "PLAY", "DRAW"}):
        return f"a player's decision is `play`, `pass` or `draw`, not `{word}`"
    if w in _RANK_WORDS and card:
        return (f"expected a card like `Qs` or `10h`, found `{word}`: write the rank as one letter or "
                f"number, like `{_RANK_WORDS[w]}s` for the {w} of spades")
    if w in _NUMBER_WORDS and expected & {"INT", "SIGNED"}:
        n = _NUMBER_WORDS[w]
        return (f"expected {'a number' if 'INT' in expected else 'a chip amount'}, found `{word}`: write it "
                f"in digits, like `{n}`" + ("" if "INT" in expected else f" (`+{n}` won, `-{n}` lost)"))
    if word in _ARROWS and (anything or "_ARROW" in expected):
        return f"the cards drawn follow `->` (a hyphen, then `>`), not `{word}`"
    if re.fullmatch(r"1[shdc]", w) and card:
        return f"expected a card like `Qs` or `10h`, found `{word}`: a ten is `T` or `10` (`T{w[1]}` or `10{w[1]}`)"
    return None


def _expected(err: UnexpectedInput) -> set:
    """The token names the parser could have taken where it stopped."""
    if isinstance(err, UnexpectedToken):
        return set(err.accepts or err.expected or ())
    if isinstance(err, UnexpectedCharacters):
        return set(err.allowed or ())
    return set(getattr(err, "expected", None) or ())


def explain(err: UnexpectedInput, line_text: str) -> tuple[int, str]:
    """(column, message) for a Lark error on one line, in card-player words."""
    column, message = _explain(err, line_text)
    at = line_text[column - 1:column]
    if at == "\r":  # a line end of another system, or of two mixed
        return column, ("a carriage return inside the line (shown as ␍): the file mixes line ends; "
                        "save it with ordinary ones")
    kind = unicodedata.category(at) if at and at not in " \t" else ""
    if kind == "Cc":
        return column, f"a control character here (U+{ord(at):04X}), which no record holds: delete it"
    if kind in ("Zs", "Cf"):  # a no-break or zero-width space, say
        return column, (f"an invisible character here ({unicodedata.name(at, 'unnamed').lower()}, "
                        f"U+{ord(at):04X}) where a plain space or a word belongs: retype the spaces around "
                        "it (text copied from a web page or a chat often carries them)")
    cr = line_text.find("\r", column - 1)
    close = {'"': '"', "{": "}"}.get(at)
    if close and cr > 0 and close not in line_text[column:cr]:  # inside quotes or braces
        inside = "quoted text" if close == '"' else "a note"
        return cr + 1, (f"a carriage return inside {inside} (shown as ␍), which no record holds: "
                        "delete it (the file may mix line ends)")
    start, word = _whole_word(line_text, column)
    words = line_text.split()
    if message.startswith("unknown event") and len(words) > 1 and words[1].lower() in _DECISION_WORDS:
        start, word = line_text.index(words[1], start - 1 + len(words[0])) + 1, words[1]
    hint = _hint(word, _expected(err) if start == column else None) if word else None
    if hint is None:  # at a comma or the line's end: a card typed with a letter too many (`9hh`)
        before = line_text[:column - 1].rstrip(" \t,")
        prev = before.split()[-1] if before.split() else ""
        typo = _CARD_TYPO.match(prev)
        if typo:
            start = len(before) - len(prev) + 1
            hint = (f"expected a card like `Qs` or `10h`, found `{prev}`: one rank, then one suit letter, "
                    f"like `{typo.group(1)}`")
    return (start, hint) if hint else (column, message)


def _explain(err: UnexpectedInput, line_text: str) -> tuple[int, str]:
    if isinstance(err, UnexpectedEOF):
        return len(line_text.rstrip()) + 1, f"the line ends too soon: expected {_describe(err.expected)}"
    column = getattr(err, "column", 1) or 1
    if isinstance(err, UnexpectedToken):
        expected = err.accepts or err.expected
        prev = [t for t in (err.token_history or []) if t is not None]
        first = line_text.split(None, 1)[0] if line_text.split() else ""
        if expected <= {"PASS", "PLAY", "DRAW", "FORFEITS"} and prev and prev[-1].type == "NAME" \
                and prev[-1].column == len(line_text) - len(line_text.lstrip()) + 1:
            return prev[-1].column, (f"unknown event `{first}`: expected an event like `Trick` or "
                                     f"`Deal`, or a player's name then `play`, `pass` or `draw`")
        found = "the end of the line" if err.token.type in ("_NL", "$END") else f"`{_word_at(line_text, column)}`"
        return column, f"expected {_describe(expected)}, found {found}"
    if isinstance(err, UnexpectedCharacters):
        return column, f"expected {_describe(err.allowed)}, found `{_word_at(line_text, column)}`"
    return column, str(err).splitlines()[0]
