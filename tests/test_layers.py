"""Imports point one way: the rules engine and the audit know nothing of text output,
databases or the command line, and a JSON check of plain records loads neither Lark
nor rich (each costs a few hundredths of a second at every start)."""

from __future__ import annotations

import json
import subprocess
import sys

from booray_audit.generate import generate_text

from .conftest import ROOT


def loaded(code: str) -> set[str]:
    """The top-level packages a fresh interpreter has loaded after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_the_engine_and_the_audit_import_no_output_store_or_command_line():
    mods = loaded("import booray_audit.audit, booray_audit.cinch, booray_audit.settle")
    assert not mods & {"lark", "rich", "duckdb", "typer"}, mods


def test_a_json_check_of_plain_records_loads_neither_lark_nor_rich(tmp_path):
    log = tmp_path / "log.bhh"
    log.write_text(generate_text(30, players=(2, 6), seed=5)[0])
    code = ("import sys\nfrom booray_audit import cli\n"
            f"sys.argv = ['booray-audit', 'check', '--format', 'json', {str(log)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass")
    mods = loaded(code)
    assert "booray_audit" in mods and not mods & {"lark", "rich"}, mods


def test_a_record_lark_must_read_still_reads(tmp_path):
    """The other side of the test above: a hand with an annotation goes to Lark."""
    log = tmp_path / "log.bhh"
    log.write_text(generate_text(2, players=(2, 2), seed=5)[0].replace("\nDealer ", "\n{typed late}\nDealer ", 1))
    code = ("from booray_audit import notation\n"
            f"items = list(notation.read({str(log)!r}))\n"
            "assert any(getattr(h, 'notes', ()) == ('typed late',) for h in items), items")
    assert "lark" in loaded(code)
