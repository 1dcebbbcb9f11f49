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
    mods = loaded("import booray_audit.judge.audit, booray_audit.cinch.judge, booray_audit.rules.settle")
    assert not mods & {"lark", "rich", "duckdb", "typer"}, mods


def test_a_json_check_of_plain_records_loads_neither_lark_nor_rich(tmp_path):
    log = tmp_path / "log.bhh"
    log.write_text(generate_text(30, players=(2, 6), seed=5)[0])
    code = ("import sys\nfrom booray_audit.cli import main as cli\n"
            f"sys.argv = ['booray-audit', 'check', '--format', 'json', {str(log)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass")
    mods = loaded(code)
    assert "booray_audit" in mods and not mods & {"lark", "rich"}, mods


def test_a_record_lark_must_read_still_reads(tmp_path):
    """The other side of the test above: a hand with an annotation goes to Lark."""
    log = tmp_path / "log.bhh"
    log.write_text(generate_text(2, players=(2, 2), seed=5)[0].replace("\nDealer ", "\n{typed late}\nDealer ", 1))
    code = ("from booray_audit.notation import reader as notation\n"
            f"items = list(notation.read({str(log)!r}))\n"
            "assert any(getattr(h, 'notes', ()) == ('typed late',) for h in items), items")
    assert "lark" in loaded(code)


# the packages, lowest first: a module may import its own package and those below it
# (``record`` and ``cards``, the record itself, are at the bottom; ``generate``, the bots
# that play generated games, stands beside the judge)
LAYERS = {"record": 0, "cards": 0, "rules": 1, "notation": 2, "cinch": 2, "judge": 3, "generate": 4,
          "report": 4, "store": 5, "cli": 6}


def _imports(path):
    """The booray_audit packages (or top-level modules) a module imports."""
    import ast
    tree = ast.parse(path.read_text())
    parts = path.relative_to(ROOT / "booray_audit").with_suffix("").parts
    here = list(parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - node.level + 1]
            target = [*base, *(node.module.split(".") if node.module else [])]
            if target:
                yield target[0]
            else:  # from .. import record
                yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("booray_audit."):
            yield node.module.split(".")[1]
        elif isinstance(node, ast.Import):
            yield from (a.name.split(".")[1] for a in node.names if a.name.startswith("booray_audit."))


def test_every_package_imports_only_its_own_and_those_below():
    wrong = []
    modules = sorted((ROOT / "booray_audit").rglob("*.py"))
    assert len(modules) > 30
    for path in modules:
        parts = path.relative_to(ROOT / "booray_audit").with_suffix("").parts
        if parts == ("__init__",):
            continue
        mine = parts[0]
        assert mine in LAYERS, f"{path}: a package the layers do not name"
        for other in set(_imports(path)):
            if other == "__version__" or other == mine:
                continue
            if LAYERS.get(other, 99) >= LAYERS[mine]:
                wrong.append(f"{path.relative_to(ROOT)} imports {other}")
    assert wrong == []


def test_the_readme_lays_out_the_packages_as_they_are():
    """docs/design.md's "How the code is laid out" names every package and top-level
    module, and nothing else."""
    import re
    text = (ROOT / "docs" / "design.md").read_text()
    section = text.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    named = {name for line in section.splitlines() if line.startswith("- ")
             for name in re.findall(r"`([a-z_]+)(?:/|\.py)`", line.split(":", 1)[0])}
    here = {p.name for p in (ROOT / "booray_audit").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    here |= {p.stem for p in (ROOT / "booray_audit").glob("*.py") if p.stem != "__init__"}
    assert named == here
