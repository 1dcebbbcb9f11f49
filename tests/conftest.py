"""Shared helpers: the corpus, a CLI runner, and small record builders."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from booray_audit.notation import reader as notation
from booray_audit.judge.audit import HandReport, audit
from booray_audit.cinch.compiled import NODES
from booray_audit.rules.profiles import profile

HERE = Path(__file__).parent
CORPUS = HERE / "conformance"
ROOT = HERE.parent


def cli_command() -> list[str]:
    """The installed console script when there is one, else the module."""
    script = Path(sys.executable).with_name("booray-audit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "booray_audit.cli"]


def run_cli(*args, input: bytes | None = None, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    return subprocess.run(cli_command() + [str(a) for a in args], input=input, capture_output=True,
                          cwd=cwd, env=env, timeout=300)


def reports(text: str, rules=None, cinch_nodes: int = NODES) -> list[HandReport]:
    """Audit a BHH text; return the hand reports."""
    items = audit(notation.read(io.BytesIO(text.encode("utf-8")), "<test>"), rules, cinch_nodes)
    return [it for it in items if isinstance(it, HandReport)]


def findings(text: str, rules=None) -> list[tuple]:
    """(kind, trick, player) of every finding in a BHH text."""
    return [(f.kind, f.trick, f.player) for h in reports(text, rules) for f in h.findings]


@pytest.fixture
def standard():
    return profile("standard")
