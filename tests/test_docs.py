"""The user's guide and the README as a reader meets them: every example runs, in a
fresh folder per page, and prints what the page shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT
from .docs_examples import matches, run_page, steps

PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_prints_what_the_page_shows(page: Path, tmp_path):
    results = run_page(page, tmp_path)
    for step, got in results:
        shown = list(step.shown)
        while shown and not shown[-1].strip():
            shown.pop()
        assert matches(shown, got), (f"{page.name}:{step.where}: $ {step.text}\n--- shown\n"
                                     + "\n".join(shown) + "\n--- printed\n" + "\n".join(got))


def test_the_guide_has_examples_and_links_every_page():
    index = (ROOT / "docs" / "README.md").read_text()
    for page in PAGES[:-1]:
        if page.name != "README.md":
            assert f"({page.name})" in index, page.name
    assert "(docs/README.md)" in (ROOT / "README.md").read_text()
    commands = [s for p in PAGES for s in steps(p.read_text()) if s.kind == "command"]
    assert len(commands) >= 20
