"""Rule profiles and house-rule toggles (docs/rules.md, profiles and house rules).

A ``Rules`` value is plain data; the engine reads its fields.  Shipped profiles
never change meaning once released: add a new one instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


class RulesError(ValueError):
    """An unknown profile, toggle or value."""


@dataclass(frozen=True, slots=True)
class Rules:
    profile: str = "standard"
    cards: int = 5
    players: tuple[int, int] = (2, 8)
    ante: int = 1
    double_ante: bool = False
    limit: int | None = None
    limit_caps_win: bool = False
    ace_up_dealer_plays: bool = True
    # (from this many players, at most, for the first this many seats from the dealer's left)
    max_discard: tuple[tuple[int, int, int], ...] = ((0, 5, 8),)
    must_follow: bool = True
    must_trump: bool = True
    must_beat: str = "winner"
    must_overtrump: bool = True
    trump_when_cannot_win: str = "must"
    cinch: str = "sure-tricks"
    cinch_last: bool = True
    lead_trump_when_others_void: bool = False
    renege_penalty: str = "pot"
    renege_forfeits: bool = True
    all_pass: str = "carry"
    declarations: str = "in-turn"
    recall: str = "forfeit"
    reshuffle: str = "discards"
    lead: str = "winner"
    trump_card: str = "dealer"
    settle: str = "standard"
    overrides: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def need(self) -> int:
        """Tricks that make a cinch: ``cards // 2 + 1`` (docs/rules.md, the cinch)."""
        return self.cards // 2 + 1

    def discard_limit(self, players: int, place: int | None = 0) -> int:
        """The most cards a player may discard at a table of ``players``, from the
        ``place``-th seat to declare (0: the dealer's left; None: not known, the most any
        seat may)."""
        if place is None:
            return max(self.discard_limit(players, k) for k in range(8))
        limit = 5
        for n, most, seats in self.max_discard:
            if players >= n and place < seats:
                limit = most
        return limit

    def describe(self) -> dict:
        return {"profile": self.profile, "overrides": dict(self.overrides)}


# key: (field, kind, choices or None, one-line meaning)
TOGGLES: dict[str, tuple[str, str, tuple[str, ...] | None, str]] = {
    "cards": ("cards", "int", ("4", "5"), "cards per hand"),
    "players": ("players", "range", None, "how many players may be dealt in"),
    "ante": ("ante", "int", None, "ante per player per hand, in chips"),
    "double-ante": ("double_ante", "bool", None, "a player who stays in pays a second ante; no exemptions then"),
    "limit": ("limit", "limit", None, "caps each penalty (chips, or none)"),
    "limit-caps-win": ("limit_caps_win", "bool", None, "the winner takes at most `limit`; the rest carries"),
    "ace-up-dealer-plays": ("ace_up_dealer_plays", "bool", None, "with an Ace up, the dealer may not pass"),
    "max-discard": ("max_discard", "discard", None,
                    "most cards a player may discard, or a table like 7:3,8:3 (from 7 players, 3); "
                    "6:3@5 limits only the first 5 seats from the dealer's left"),
    "must-follow": ("must_follow", "bool", ("yes",), "a player holding the led suit must follow it (always yes)"),
    "must-trump": ("must_trump", "bool", None, "void in the led suit and holding trump: must trump"),
    "must-beat": ("must_beat", "choice", ("winner", "previous", "none"),
                  "following suit: beat the winning card (winner), the card just played (previous), or no duty"),
    "must-overtrump": ("must_overtrump", "bool", None, "when trumping, beat the highest trump in the trick if able"),
    "trump-when-cannot-win": ("trump_when_cannot_win", "choice", ("must", "may"),
                              "void, holding only trumps that cannot win: must still trump, or may play any card"),
    "cinch": ("cinch", "choice", ("sure-tricks", "top-trumps", "off"),
              "how a cinch is judged: exact sure tricks, the top-trumps count, or not at all"),
    "cinch-last": ("cinch_last", "bool", None, "a cinch player who plays last must win the trick if able"),
    "lead-trump-when-others-void": ("lead_trump_when_others_void", "bool", None,
                                    "on lead, holding trump, when the others are known to hold no trump: "
                                    "lead trump (Wikipedia's play to win)"),
    "renege-penalty": ("renege_penalty", "choice", ("pot", "none"), "a play violation pays like a bourré (pot)"),
    "renege-forfeits": ("renege_forfeits", "bool", None, "a player with a play violation cannot win the pot"),
    "all-pass": ("all_pass", "choice", ("carry",), "if everyone passes, the pot carries"),
    "declarations": ("declarations", "choice", ("in-turn", "simultaneous"),
                     "pass or play in turn from the dealer's left, or shown by everyone at once"),
    "recall": ("recall", "choice", ("forfeit", "penalty", "free"),
               "a card taken back before the next player played: no penalty but no pot and no next "
               "deal (forfeit), paid like the violation itself (penalty), or nothing (free)"),
    "reshuffle": ("reshuffle", "choice", ("discards", "folded-first", "together"),
                  "when the stock runs out: the discards (not the drawing player's own) are shuffled, "
                  "or first the hands of the players who passed, then the discards, or the passed hands "
                  "and the discards together"),
    "lead": ("lead", "choice", ("winner", "rotate"),
             "who leads each trick after the first: its winner, or the next player round the table "
             "from the last leader (the cinch is then not judged)"),
    "trump-card": ("trump_card", "choice", ("dealer", "stock"),
                   "the up-card is the dealer's last card, or a card turned from the stock that is in "
                   "nobody's hand (then only its suit counts)"),
    "settle": ("settle", "choice", ("standard", "continue"),
               "standard, or the game continues: while nobody takes the pot alone, losers pay an ante "
               "at the end of the hand, and the next hand has no antes"),
}

PROFILES: dict[str, tuple[str, dict[str, str]]] = {
    "standard": ("the common written rules: follow suit, trump when void, beat when you can, play out a cinch", {}),
    "wikipedia": ("standard plus Wikipedia's lead-to-win rule, discard limits, 2 to 7 players, "
                  "and the folded hands dealt before the discards when the stock runs out",
                  {"lead-trump-when-others-void": "yes", "max-discard": "7:3,8:3", "players": "2-7",
                   "reshuffle": "folded-first"}),
    "basic": ("follow suit and trump when void only, as most simple card-game apps enforce",
              {"must-beat": "none", "must-overtrump": "no", "cinch": "off"}),
    "mondaynightpoker": ("the mondaynightpoker server's game: the lead rotates, the trump card is turned "
                         "from the stock, no cinch, draws of 4 (3 for the first five seats past five "
                         "players), and the game continues while the pot stays",
                         {"lead": "rotate", "trump-card": "stock", "cinch": "off", "ace-up-dealer-plays": "no",
                          "max-discard": "4,6:3@5", "settle": "continue", "reshuffle": "together"}),
}


MOST = {"ante": 2**31 - 1, "limit": 2**63 - 1}  # what the store's columns hold


def _value(key: str, text: str):
    if key not in TOGGLES:
        raise RulesError(f"unknown rule `{key}` (see `booray-audit rules`)")
    _, kind, choices, _ = TOGGLES[key]
    t = str(text).strip().lower()
    if choices and t not in choices and kind != "int":
        raise RulesError(f"rule `{key}` takes {', '.join(choices)}, not `{text}`")
    try:
        if kind == "bool":
            if t not in ("yes", "no", "true", "false"):
                raise ValueError
            return t in ("yes", "true")
        if kind == "int":
            n = int(t) if len(t) <= 40 else -1
            if n < 0 or (choices and t not in choices):
                raise ValueError
            if n > MOST.get(key, n):
                raise RulesError(f"rule `{key}` can be at most {MOST[key]:,}")
            return n
        if kind == "limit":
            n = None if t == "none" else _positive(t) if len(t) <= 40 else -1
            if n is not None and not 0 < n <= MOST["limit"]:
                raise RulesError(f"rule `limit` takes a number of chips from 1 to {MOST['limit']:,}, or none")
            return n
        if kind == "range":
            lo, _, hi = t.partition("-")
            lo, hi = int(lo), int(hi or lo)
            if not 2 <= lo <= hi <= 8:
                raise ValueError
            return (lo, hi)
        if kind == "discard":
            return _discards(t)
    except RulesError:
        raise
    except (ValueError, TypeError):
        raise RulesError(f"rule `{key}` cannot be `{str(text)[:60]}`") from None
    return t


def _discards(t: str) -> tuple[tuple[int, int, int], ...]:
    """``4``, ``7:3,8:3`` or ``4,6:3@5``: at most (a bare number: at any table), from so
    many players, for the first so many seats (``@``; every seat without it)."""
    out = [(0, 5, 8)]
    for piece in t.split(","):
        when, colon, rest = piece.strip().rpartition(":")
        most, _, seats = rest.partition("@")
        entry = (int(when) if colon else 0, int(most), int(seats) if seats else 8)
        if not (entry[0] == 0 or 2 <= entry[0] <= 8) or not 0 <= entry[1] <= 5 or not 1 <= entry[2] <= 8:
            raise ValueError
        out.append(entry)
    return tuple(sorted(out, key=lambda e: e[0]))


def discards_text(table: tuple[tuple[int, int, int], ...]) -> str:
    """A ``max-discard`` table as it is written (``_discards`` reads it back)."""
    parts = [(f"{n}:" if n else "") + str(most) + (f"@{seats}" if seats < 8 else "") for n, most, seats in table[1:]]
    return ",".join(parts) or str(table[0][1])


def _positive(t: str) -> int:
    n = int(t)
    if n <= 0:
        raise ValueError
    return n


def with_toggle(rules: Rules, key: str, value: str) -> Rules:
    """The rules with one toggle changed; the change is listed in ``overrides``."""
    key = key.strip().lower()
    new = replace(rules, **{TOGGLES.get(key, (key,))[0]: _value(key, value)})
    return replace(new, overrides=rules.overrides + ((key, str(value).strip()),))


def profile(name: str) -> Rules:
    key = name.strip().lower()
    if key not in PROFILES:
        raise RulesError(f"unknown rule profile `{name}` (known: {', '.join(PROFILES)})")
    rules = Rules(profile=key)
    for k, v in PROFILES[key][1].items():
        rules = with_toggle(rules, k, v)
    return replace(rules, overrides=())


def check_tag(name: str, value: str) -> None:
    """Raise ``RulesError`` when a session tag that sets the rules has a value they cannot use
    (checked once, when the tag is read)."""
    key = name.lower()
    if key == "rules":
        profile(value)
    elif key == "rule":
        toggle, eq, v = value.partition("=")
        if not eq:
            raise RulesError(f"a [Rule] tag is written `key=value`, like `must-beat=previous`, not `{value}`")
        _value(toggle.strip().lower(), v)
    elif key in ("ante", "limit", "cards"):
        _value(key, value)  # bounded by what the store's columns hold (``MOST``)
    elif key == "pot":
        t = value.strip()
        if not t.isdigit() or len(t) > 40 or int(t) > 10**38 - 1:
            raise RulesError(f"[Pot] takes a number of chips up to {10**38 - 1:,}, not `{value[:50]}`")


HOUSE_MOST = 1_000_000  # bytes: a house file is a few lines


def load_house(path: str) -> Rules:
    """A house profile from TOML: ``base = "standard"`` then ``key = value`` toggles."""
    import os
    import stat
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # before opening: a FIFO would block the open
            raise RulesError(f"{path}: not a regular file (a house file is a small TOML text)")
        with open(path, "rb") as f:
            raw = f.read(HOUSE_MOST + 1)
    except OSError as e:
        raise RulesError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(raw) > HOUSE_MOST:
        raise RulesError(f"{path}: more than {HOUSE_MOST // 1000:,} KB: not a house file")
    import tomllib  # only for a house file
    try:
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))  # a byte-order mark is no statement
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None
    except RecursionError:
        raise RulesError(f"{path}: not a house file: tables or lists nested too deep") from None
    except ValueError:  # a number of more digits than Python converts
        raise RulesError(f"{path}: not a house file: a number too long to read") from None
    if "base" in data and "profile" in data:
        raise RulesError(f"{path}: give the profile once, as `base` (it also has `profile`)")
    base = data.pop("base", data.pop("profile", "standard"))
    table = data.pop("rules", {})
    if not isinstance(base, str) or not isinstance(table, dict):
        raise RulesError(f"{path}: `base` is a profile name and `rules` a table of toggles, "
                         'like base = "standard" and [rules] must-beat = "previous"')
    rules = profile(base)
    for k, v in (table | data).items():
        if isinstance(v, bool):
            v = "yes" if v else "no"
        if not isinstance(v, (str, int)):
            raise RulesError(f"{path}: rule `{k}` takes a word or a number, not {type(v).__name__} `{v}`")
        try:
            rules = with_toggle(rules, k, str(v))
        except RulesError as e:
            raise RulesError(f"{path}: {e}") from None
    return replace(rules, profile=f"{rules.profile}+{path.rsplit('/', 1)[-1]}")


def resolve(name_or_file: str) -> Rules:
    if name_or_file.endswith(".toml"):
        return load_house(name_or_file)
    return profile(name_or_file)
