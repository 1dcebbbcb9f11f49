"""`booray-audit replay`: one hand trick by trick, with each player's duty and why."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..judge.audit import HandReport
from ..cards import card_str, cards_of, cards_text
from ..rules.engine import legal


def duties(report: HandReport):
    """(trick, player, card, won, duty in words) for every play of the hand."""
    rep, hand, rules = report.replay, report.hand, report.rules
    know = rep.know
    rows = []
    won_by = _winners(rep.plays)
    for t, (written, trick) in enumerate(zip(know.recorded, know.tricks), 1):
        prior: list[int] = []
        for (p, c), (_, shown) in zip(trick.plays, written.plays):
            whole = know.whole_hand(p, t)
            won = won_by.get(t) == p
            if rep.trump is None:
                duty = "trump unknown: no duty can be checked"
            elif not all(x & 15 for x in prior):
                duty = "an unknown card was played before: the duty cannot be known"
            elif whole is None:
                held, suits, _ = know.held_besides(p, t)
                duty = ("hand not fully known" + (f"; held at least {cards_text(cards_of(held))}" if held else ""))
            else:
                lg = legal(whole, prior, rep.trump, rules)
                led = prior[0] >> 4 if prior else None
                duty = f"held {cards_text(cards_of(whole))}: {lg.explain(led)}"
                if lg.cards != whole:
                    duty += f" ({cards_text(cards_of(lg.cards))})"
            rows.append((know.numbered(t), p, shown, won, duty))
            prior.append(c)
    return rows


def _winners(plays) -> dict[int, str]:
    """Each trick's winner, by the trick's place in the record (a trick starts at its first
    play: its number may repeat or skip where the record errs)."""
    out: dict[int, str] = {}
    place = 0
    for _, seq, p, _, won in plays:
        place += seq == 0
        if won:
            out[place] = p
    return out


def explain_hand(report: HandReport, console: Console) -> None:
    rep, s = report.replay, report.settlement
    trump = "shdc"[rep.trump] if rep.trump is not None else "unknown"
    console.print(Text.assemble((f"Hand {rep.number}", "bold"), f"  dealer {rep.dealer or 'unknown'}  trump {trump}  "
                                f"rules {report.rules.profile}" + "".join(f" {k}={v}" for k, v in report.rules.overrides)))
    console.print(f"active: {', '.join(rep.active)}" + (f"; passed: {', '.join(rep.passed)}" if rep.passed else ""))
    table = Table(box=None, header_style="bold")
    for col in ("trick", "player", "card", "duty", "finding"):
        table.add_column(col)
    notes = {(f.trick, f.player): Text(f"{f.kind}: {f.message}", "yellow") for f in report.findings if f.trick}
    for u in rep.undecidable:
        notes.setdefault((u.trick, u.player), Text(f"undecidable {u.kind}: {u.reason}", "magenta"))
    for t, p, c, won, duty in duties(report):
        table.add_row(str(t), p, card_str(c) + (" *" if won else ""), duty, notes.get((t, p), ""))
    console.print(table)
    for f in report.findings:
        if not f.trick:
            console.print(Text.assemble((f.kind, "yellow"), f": {f.message} — {f.evidence}"))
    for ruling in report.rulings:
        console.print(Text.assemble((f"dispute {ruling.player} {ruling.kind}" + (f" {ruling.trick}" if ruling.trick else "")
                                     + f": {ruling.ruling.upper()}", "cyan"), f" — {ruling.evidence}"))
    if s.net is not None:
        console.print(f"pot {s.pot}; " + (f"{s.winner} takes {s.won}" if s.winner else "no winner, the pot carries")
                      + "; net " + ", ".join(f"{p} {n:+d}" for p, n in s.net.items()) + f"; carry {s.carry}")
