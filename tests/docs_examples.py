"""Run the examples of a Markdown page, as a reader would type them, in a fresh folder.

A ```bhh NAME``` (or ```json NAME```) block writes the file NAME; a ```console``` block holds commands
(lines starting with `$ `, run by bash with the tool on PATH) each followed by the
output it must print (stdout then stderr, at 80 columns, no colour).  A line `...`
in a shown output stands for any number of lines.  Blocks of other languages
(```sh``` for installing) are not run.  Files and commands run in page order, in
one folder per page, so a page can build on its own earlier steps.

`python -m tests.docs_examples PAGE.md...` rewrites the shown outputs from a run
(to review by eye before committing).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parent.parent
FENCE = re.compile(r"^```(\S*)[ \t]*(\S*)[ \t]*$")


@dataclass
class Step:
    kind: str        # "file" | "command"
    text: str        # the file's text, or the command line
    shown: list[str]  # the output shown under a command
    where: int       # line of the page, 1-based
    block: int       # which block it belongs to


def steps(page: str) -> list[Step]:
    out: list[Step] = []
    lines = page.split("\n")
    i, block = 0, 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        lang, name, start = m.group(1), m.group(2), i + 1
        j = start
        while j < len(lines) and lines[j] != "```":
            j += 1
        body = lines[start:j]
        block += 1
        if lang in ("bhh", "json") and name:
            out.append(Step("file", name + "\n" + "\n".join(body) + "\n", [], start, block))
        elif lang == "console":
            for k, line in enumerate(body):
                if line.startswith("$ "):
                    out.append(Step("command", line[2:], [], start + k + 1, block))
                elif out and out[-1].kind == "command" and out[-1].block == block:
                    out[-1].shown.append(line)
        i = j + 1
    return out


def run_command(command: str, folder: Path) -> list[str]:
    bin_dir = str(Path(sys.executable).parent)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), COLUMNS="80",
               NO_COLOR="1", TERM="dumb")
    p = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, timeout=300)
    text = (p.stdout + p.stderr).decode()
    return [line.rstrip() for line in text.rstrip("\n").split("\n")] if text.strip() else []


def matches(shown: list[str], got: list[str]) -> bool:
    """``shown`` equals ``got``, a `...` line standing for any number of lines."""
    if not shown:
        return not got
    if shown[0] == "...":
        return any(matches(shown[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and shown[0].rstrip() == got[0] and matches(shown[1:], got[1:])


def run_page(path: Path, folder: Path) -> list[tuple[Step, list[str]]]:
    """Every command of the page with what it printed, files written as the page goes."""
    results = []
    page = path.read_text()
    if "samples/" in page:  # the README's tour runs on the shipped samples
        shutil.copytree(ROOT / "samples", folder / "samples")
    for step in steps(page):
        if step.kind == "file":
            name, text = step.text.split("\n", 1)
            (folder / name).write_text(text)
        else:
            results.append((step, run_command(step.text, folder)))
    return results


def update(path: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        results = run_page(path, Path(folder))
    lines = path.read_text().split("\n")
    # replace each command's shown output, from the bottom up so line numbers hold
    for step, got in reversed(results):
        start = step.where  # the line after the command (0-based index of the next line)
        end = start + len(step.shown)
        lines[start:end] = got
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        update(Path(name))
