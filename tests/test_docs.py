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


def test_the_readme_fits_a_page_and_the_quick_reference_a_screen():
    """The README is what the tool is, the two commands, a short tour and links (at most
    1,200 words); writing-hands.md opens with a quick reference of every line (at most 800)."""
    assert len((ROOT / "README.md").read_text().split()) <= 1200
    page = (ROOT / "docs" / "writing-hands.md").read_text()
    quick = page[page.index("## Quick reference"):page.index("\n## ", page.index("## Quick reference") + 5)]
    assert len(quick.split()) <= 800
    for line in ("Hand", "Seats", "Dealer", "Ante", "Pot", "Deal", "Up", "Trump", "pass", "play", "draw", "Trick",
                 "Tricks", "Net", "Dispute", "Recall", "forfeits deal"):
        assert f"`{line}" in quick or f"NAME {line}" in quick, line
