"""Output for people: rich text, a hand at a time (the JSON for scripts is document.py)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Span, Text

from ..judge.audit import HandReport, SessionEnd, SessionStart
from ..cards import SUIT_LETTERS, card_str
from ..record import SyntaxProblem
from .document import annotations

SYMBOLS = dict(zip("shdc", "♠♥♦♣"))
VERDICT_STYLE = {"upheld": "bold red", "rejected": "bold green", "undecidable": "bold magenta"}
CLASS_LABEL = {"play": "", "record": "record error: ", "claim": "wrong claim: "}


class TextReport:
    """Rich text: per hand, the tricks (`>` led, `*` won), then the findings grouped by
    class (play, record, claim), the checks left undecidable, the rulings, the settlement.
    ``symbols``: suits as ♠♥♦♣ in the tricks; ``files``: name the file of each hand (a run
    over several files)."""

    def __init__(self, console: Console, quiet: bool = False, errors: Console | None = None,
                 symbols: bool = False, files: bool = False, by_kind: bool = False):
        self.console, self.quiet = console, quiet or by_kind
        # ``by_kind``: no hands; per kind of finding, the hands that show it and the first
        self.kinds: dict[str, list] | None = {} if by_kind else None
        self.errors_to = errors or console  # syntax errors: stderr
        self.symbols, self.files = symbols, files
        self.path = ""
        self.hands = self.findings = self.errors = self.undecidable = 0

    def start_file(self, path: str):
        self.path = path

    def _card(self, card: int) -> str:
        text = card_str(card)
        return text[0] + SYMBOLS[text[1]] if self.symbols and text[1] in SYMBOLS else text

    def add(self, item):
        c = self.console
        if isinstance(item, SyntaxProblem):
            self.errors += 1
            self.errors_to.print(Text(str(item), style="red"))
        elif isinstance(item, SessionStart):
            for p in item.problems:
                self.errors_to.print(Text(f"{item.session.line}: {p}", style="red"))
            if self.kinds is not None:
                return
            number = f"session {item.session.index + 1}"
            event = item.session.tag("Event")
            where = ", ".join(x for x in (self.path if self.files else "", number if event else "") if x)
            c.rule(Text.assemble((event or number, "bold"), f" ({where})" if where else "",
                                 f" — rules: {item.rules.profile}"
                                 + "".join(f" {k}={v}" for k, v in item.rules.overrides)))
            if not self.quiet:
                c.print("> led the trick, * won it", style="dim")
        elif isinstance(item, HandReport):
            self.hands += 1
            self.findings += len(item.findings)
            self.undecidable += len(item.replay.undecidable)
            if self.kinds is not None:
                self._tally(item)
            elif not self.quiet or item.findings or item.replay.undecidable or item.rulings:
                self._hand(item)
        elif isinstance(item, SessionEnd) and not self.quiet:
            if item.ledger:
                c.print("Ledger: " + ", ".join(f"{p} {n:+d}" for p, n in item.ledger.items())
                        + (f"; pot left on the table: {item.pot}" if item.pot is not None else
                           "; pot left: unknown"))

    def _hand(self, h: HandReport):
        """The hand as one print: rich lays out a table per hand slowly (a 3,000-hand log
        took 22 s of output for 10 s of audit), so the trick table is written here as rich
        would lay it out, and left to rich only when it is wider than the console."""
        rep, s, c = h.replay, h.settlement, self.console
        trump = SUIT_LETTERS[rep.trump] if rep.trump is not None else "?"
        if self.symbols and trump in SYMBOLS:
            trump = SYMBOLS[trump]
        lines = [Text.assemble("\n", (f"Hand {rep.number}", "bold"), f"  dealer {rep.dealer or '?'}  trump {trump}"
                               + (f"  pot {s.pot}" if s.pot is not None else "")
                               + (f"  ({self.path})" if self.files else ""))]
        if not self.quiet and rep.plays:
            rows = self._rows(rep)
            table = _table_lines(rep.active, rows, c.width)
            if table is None:
                c.print(Text("\n").join(lines))
                c.print(_table(rep.active, rows))
                lines = []
            else:
                lines += table
        order = {"play": 0, "record": 1, "claim": 2}
        for f in sorted(h.findings, key=lambda f: order.get(f.cls, 3)):
            where = f"trick {f.trick}" if f.trick else "hand"
            style = "bold yellow" if f.cls == "play" else "yellow"
            lines.append(Text(f"  {CLASS_LABEL.get(f.cls, '')}{f.kind} ({where}): {f.message} — {f.evidence}",
                              style=style))
        for u in rep.undecidable:
            lines.append(Text.assemble("  ", ("UNDECIDABLE", VERDICT_STYLE["undecidable"]),
                                       f" {u.kind} (trick {u.trick}): {u.reason}"))
        for what, note in annotations(h.hand):
            lines.append(Text(f"  note ({what}): {note}", style="italic"))
        for r in h.rulings:
            lines.append(Text.assemble(f"  dispute {r.player} {r.kind}" + (f" {r.trick}" if r.trick else "")
                                       + ": ", (r.ruling.upper(), VERDICT_STYLE.get(r.ruling, "bold")),
                                       f" — {r.evidence}"))
        if not self.quiet:
            if s.net is not None:
                parts = [f"{p} {n:+d}" for p, n in s.net.items()]
                who = f"{s.winner} takes {s.won}" if s.winner else "no winner: the pot carries"
                extra = f"; bourré: {', '.join(s.bourre)}" if s.bourre else ""
                lines.append(Text(f"  {who}{extra}; net " + ", ".join(parts) + f"; carry {s.carry}"))
                if s.reading:
                    lines.append(Text(f"  {s.reading}"))
            else:
                why = s.unknown or "the record does not finish this hand or its pot"
                lines.append(Text(f"  settlement unknown: {why}"))
        if lines:
            c.print(Text("\n").join(lines))

    def _rows(self, rep) -> list[tuple[int, dict[str, tuple[str, str]]]]:
        """Trick by trick, its number and each player's cell: (text, style).  A trick starts
        at its first play (two tricks the record gives one number stay two rows)."""
        rows: list[tuple[int, dict[str, tuple[str, str]]]] = []
        for t, seq, p, card, won in rep.plays:
            if seq == 0 or not rows:
                rows.append((t, {}))
            row = rows[-1][1]
            led = ">" if not row else " "
            row[p] = (led + self._card(card) + ("*" if won else ""), "bold green" if won else "")
        return rows

    def _tally(self, h: HandReport):
        where = f"hand {h.replay.number}" + (f" ({self.path})" if self.files else "")
        for kind in dict.fromkeys(f.kind for f in h.findings):
            f = next(f for f in h.findings if f.kind == kind)
            seen = self.kinds.setdefault(kind, [0, f"{where}: {f.message} — {f.evidence}"])
            seen[0] += 1

    def summary(self):
        for kind, (hands, first) in sorted((self.kinds or {}).items(), key=lambda kv: (-kv[1][0], kv[0])):
            self.console.print(Text(f"{kind}: {count(hands, 'hand')}; first {first}", style="yellow"))
        undecided = f", {count(self.undecidable, 'undecidable check')}" if self.undecidable else ""
        self.console.print(f"\n{count(self.hands, 'hand')}, {count(self.findings, 'finding')}{undecided}, "
                           f"{count(self.errors, 'syntax error')}")


def _table(players, rows):
    from rich.table import Table  # only for a trick table wider than the screen
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("trick", justify="right")
    for p in players:
        table.add_column(p)
    for t, row in rows:
        table.add_row(str(t), *[Text(*row.get(p, ("", ""))) for p in players])
    return table


def _table_lines(players, rows, width: int) -> list[Text] | None:
    """``_table`` laid out as rich lays it out when it fits in ``width`` (columns two
    spaces apart, the trick number right-justified, each cell padded in its own style,
    the header's padding bold); None when it does not fit (rich then shrinks and wraps
    the columns).  tests/test_report.py holds the two to each other."""
    header = ["trick", *players]
    body = [[(str(t), "")] + [row.get(p, ("", "")) for p in players] for t, row in rows]
    widths = [max([cell_len(header[i])] + [cell_len(r[i][0]) for r in body]) for i in range(len(header))]
    if sum(widths) + 2 * (len(widths) - 1) > width:
        return None
    out = []
    for row, cells in enumerate([[(h, "bold") for h in header]] + body):
        parts, spans, at = [], [], 0
        for i, (text, style) in enumerate(cells):
            pad = " " * (widths[i] - cell_len(text))
            if i:  # one space each side, as rich pads cells (the header's in bold)
                parts.append("  ")
                if not row:
                    spans += [Span(at, at + 1, "bold"), Span(at + 1, at + 2, "bold")]
                at += 2
            cell = pad + text if i == 0 else text + pad
            parts.append(cell)
            if style:
                spans.append(Span(at, at + len(cell), style))
            at += len(cell)
        out.append(Text("".join(parts), spans=spans))
    return out


def count(n: int, thing: str) -> str:
    """`1 hand`, `2 hands`, `1,000 hands`."""
    return f"{n:,} {thing}{'' if n == 1 else 's'}"
