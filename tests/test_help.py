"""The help as a person meets it: paragraphs wrapped at the terminal's width (no word
left alone on a line of its own), and shell completion on offer."""

from __future__ import annotations

import pytest

from .conftest import run_cli

COMMANDS = ["check", "fmt", "new", "rules", "generate", "replay", "import", "stats", "ledger", "alias", "find",
            "forget", "sql"]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_word_is_left_alone_on_a_line_of_the_help(command):
    import os
    import subprocess
    from .conftest import cli_command
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80")
    out = subprocess.run(cli_command() + [command, "--help"], capture_output=True, env=env, timeout=60)
    assert out.returncode == 0
    text = out.stdout.decode().split("╭")[0]  # the description, above the boxes of options
    lines = [line.strip() for line in text.splitlines()]
    for here, after in zip(lines, lines[1:]):
        assert not (len(here.split()) == 1 and after), (command, here, text)


def test_shell_completion_is_on_offer():
    p = run_cli("--show-completion", "bash")
    assert p.returncode == 0 and "complete" in p.stdout.decode()
    assert "--install-completion" in run_cli("--help").stdout.decode()
