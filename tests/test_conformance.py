"""The conformance corpus (a copy of ../shared/conformance) through the library and the CLI."""

from __future__ import annotations

import json

import pytest

from booray_audit.cli.shared import run_check
from booray_audit.report.document import JsonDocument

from .conftest import CORPUS, run_cli
from .conformance.compare import compare

CASES = sorted(p for p in CORPUS.glob("*.bhh"))


def test_corpus_is_complete():
    assert len(CASES) == 14


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case(case):
    doc = JsonDocument()
    run_check([str(case)], None, doc)
    expect = json.loads(case.with_suffix("").with_suffix(".expect.json").read_text())
    assert compare(expect, doc.value()) == []


def test_cli_json_on_the_whole_corpus():
    p = run_cli("check", "--format", "json", CORPUS)
    assert p.returncode == 2  # 12-syntax-errors.bhh has syntax errors
    out = json.loads(p.stdout)
    assert len(out["files"]) == 14
    assert p.stderr == b""
