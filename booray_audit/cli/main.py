"""The entry point: every command on one app, in the order `--help` lists them."""

from __future__ import annotations

import gc
import inspect
import sys

import typer

from . import check, importing, making, records, sql
from .shared import USAGE, UsageError, UsageProblem, _err, app

for name, command in (("check", check.check), ("fmt", check.fmt), ("new", making.new), ("rules", making.rules_cmd),
                      ("generate", making.generate), ("replay", check.replay), ("import", importing.import_cmd),
                      ("stats", records.stats), ("ledger", records.ledger), ("alias", records.alias),
                      ("find", records.find), ("forget", records.forget), ("sql", sql.sql)):
    # a docstring's paragraphs as one line each, for the help to wrap at the terminal's width
    # (kept as written, its line ends left single words on lines of their own)
    doc = inspect.cleandoc(command.__doc__ or "")
    app.command(name, help="\n\n".join(" ".join(p.split()) for p in doc.split("\n\n")))(command)


def main() -> None:
    """Entry point: maps usage errors to exit 3 and keeps tracebacks away from users."""
    # The modules' objects, made once, are set aside from the cyclic collector, and it runs
    # after every 50,000 new objects rather than 700: the records a hand makes hold no
    # cycles, and a `check` of 10,000 2-player hands takes about 3% less CPU.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        code = app(standalone_mode=False)
        if code == 130:  # typer's word for a Ctrl-C it caught (it returns the code, silently)
            _err("interrupted")
    except UsageError as e:
        e.show()
        code = USAGE
    except UsageProblem as e:
        _err(str(e))
        code = USAGE
    except typer.Exit as e:
        code = e.exit_code
    except typer.Abort:
        _err("interrupted")
        code = 130
    except KeyboardInterrupt:
        _err("interrupted")
        code = 130
    except Exception as e:  # noqa: BLE001 - DuckDB's ways to say Ctrl-C reached it mid-statement
        if type(e).__name__ != "InterruptException" and not (
                isinstance(e, RuntimeError) and "interrupt" in str(e).lower()):
            raise
        _err("interrupted")
        code = 130
    except BrokenPipeError:
        code = 0
    sys.exit(code if isinstance(code, int) else 0)

