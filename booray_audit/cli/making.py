"""`new`, `rules` and `generate`: a hand to start from, the rules in force, and generated games."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from ..rules.profiles import PROFILES, RulesError, TOGGLES, discards_text, profile, resolve, with_toggle
from .shared import CLEAN, UNREADABLE, UsageProblem, _err, _rules


def new():
    """Print a commented hand to start a record from (copy it into a .bhh file)."""
    from ..notation.template import TEMPLATE
    sys.stdout.write(TEMPLATE)
    return CLEAN


def rules_cmd(name: Optional[str] = typer.Argument(None, metavar="[NAME|FILE.toml]",
                                                   help="a profile or house file to show")):
    """List the rule profiles, or show one profile's house rules with their meaning."""
    if name is None:
        width = max(map(len, PROFILES))
        for key, (what, _) in PROFILES.items():
            print(f"{key:{width}} {what}")
        return CLEAN
    try:
        r = resolve(name)
    except RulesError as e:
        raise UsageProblem(str(e)) from None
    print(f"profile {r.profile}")
    for key, (field, _, _, meaning) in TOGGLES.items():
        value = getattr(r, field)
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif key == "max-discard":
            value = discards_text(value)
        elif key == "players":
            value = f"{value[0]}-{value[1]}"
        elif value is None:
            value = "none"
        print(f"  {key:28} {str(value):12} {meaning}")
    return CLEAN


def generate(hands: int = typer.Option(..., "--hands", min=1, metavar="N", help="how many hands"),
             players: str = typer.Option("4-6", "--players", metavar="N|LO-HI",
                                         help="players per session, 2 to 8"),
             seed: int = typer.Option(0, "--seed", metavar="N", help="the same seed gives the same file"),
             violations: float = typer.Option(0.0, "--violations", min=0.0, max=1.0, metavar="RATE",
                                              help="share of hands with one injected play violation"),
             rules: Optional[str] = typer.Option(None, "--rules", metavar="NAME|FILE.toml",
                                                 help="the rules to play by (default: standard with a pot "
                                                      "limit of 25)"),
             out: Optional[str] = typer.Option(None, "--out", metavar="FILE", help="write here instead of stdout"),
             answers: Optional[str] = typer.Option(None, "--answers", metavar="FILE",
                                                   help="write the injected violations here, as JSON lines")):
    """Random legal sessions for tests, demos and benchmarks; with a rate, known violations."""
    from ..generate import generate as gen
    lo, _, hi = players.partition("-")
    try:
        span = (int(lo), int(hi or lo))
    except ValueError:
        raise UsageProblem(f"--players takes N or LO-HI, like 4 or 2-8, not `{players}`") from None
    if span[0] > span[1]:
        raise UsageProblem(f"--players {players}: the range is reversed; write {span[1]}-{span[0]}")
    if not 2 <= span[0] <= span[1] <= 8:
        raise UsageProblem(f"--players {players}: a table has 2 to 8 players")
    # a pot limit by default: without one, pots double for ever and demo records are unreadable
    chosen = _rules(rules) or with_toggle(profile("standard"), "limit", "25")
    if chosen.lead != "winner" or chosen.trump_card != "dealer" or chosen.settle != "standard":
        raise UsageProblem("generate plays the winner's lead, the dealer's up-card and the standard settlement; "
                           f"it cannot play `{rules}` (a platform's own logs are read as they are)")
    try:
        stream = open(out, "w", encoding="utf-8") if out else sys.stdout
    except OSError as e:
        _err(f"{out}: cannot write: {e.strerror or e}")
        return UNREADABLE
    it = gen(hands, players=span, seed=seed, violations=violations, rules=chosen)
    bar = None
    if sys.stderr.isatty() and (out or not sys.stdout.isatty()):  # progress where it cannot mix with the hands
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
        from .shared import _console
        bar = Progress(TextColumn("generating", markup=False), BarColumn(), TextColumn("{task.completed:,} hands"),
                       TimeRemainingColumn(), console=_console(stderr=True), transient=True)
        task = bar.add_task("generate", total=hands)
        bar.start()
    try:
        while True:
            chunk = next(it)
            stream.write(chunk + "\n")
            if bar is not None and chunk.startswith("Hand "):
                bar.advance(task)
    except StopIteration as stop:
        injected = stop.value
    finally:
        if bar is not None:
            bar.stop()
        if out:
            stream.close()
    if answers:
        with open(answers, "w", encoding="utf-8") as f:
            for i in injected:
                f.write(json.dumps({"session": i.session + 1, "hand": i.hand, "trick": i.trick,
                                    "player": i.player, "kind": i.kind}) + "\n")
    return CLEAN
