"""`generate` shows its progress on a terminal (as `import` does), and only there: the
hands it writes to a file or a pipe carry nothing of it."""

from __future__ import annotations

import os
import pty
import subprocess

from .conftest import cli_command


def test_generate_shows_progress_on_a_terminal_and_writes_clean_hands(tmp_path):
    out = tmp_path / "g.bhh"
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="80", TERM="xterm")
    p = subprocess.Popen(cli_command() + ["generate", "--hands", "300", "--seed", "3", "--out", str(out)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert p.wait(timeout=300) == 0
    assert b"generating" in seen and b"hands" in seen
    text = out.read_text()
    assert text.count("\nHand ") == 300 and "\x1b" not in text
    quiet = subprocess.run(cli_command() + ["generate", "--hands", "5", "--seed", "3"], capture_output=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == b""
