"""A seeded mutator over real records, run through the commands in process: no traceback,
a documented exit code, valid JSON, the same answer with --jobs 2, and `fmt` output that
reads back to the same records.  Bounded in time (it stops early and says how far it got)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import time

import pytest

from booray_audit import cli, notation

from .conftest import CORPUS, ROOT

BASES = sorted(CORPUS.glob("*.bhh")) + [ROOT / "samples" / "partial-from-memory.bhh"]
NOISE = ["[", "]", "{", "}", '"', "#", "?", "??", "->", ":", ",", "♠", "10", "Trick", "Hand", "pass",
         "play", "[bold]", "[/]", "\\", "-", "+", "0", "99999999999", "9" * 50, "\t", " ", "\r"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(8)
        line = lines[i]
        if op == 0 and line:
            j = rng.randrange(len(line))
            lines[i] = line[:j] + line[j + 1:]
        elif op == 1:
            j = rng.randrange(len(line) + 1)
            lines[i] = line[:j] + rng.choice(NOISE).encode() + line[j:]
        elif op == 2:
            lines.insert(i, line)
        elif op == 3 and len(lines) > 1:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        elif op == 4:
            del lines[i]
            if not lines:
                lines = [b""]
        elif op == 5:
            lines.insert(i, rng.choice([b'[Rule "max-discard=7:3:1"]', b'[Rules "nope"]', b'[Ante "x"]',
                                        b'[Event "[/]"]', b"Dispute Ann reneged 1", b"Dispute Zed renege",
                                        b"\xff\xfe", b"Seats Ann Bob", b"Tricks Ann 9"]))
        elif op == 6:
            lines = lines[:rng.randrange(1, len(lines) + 1)]
        else:
            words = line.split(b" ")
            j = rng.randrange(len(words))
            words[j] = rng.choice([b"1h", b"Xs", b"-3", b"bea", b"4294967296", b"?x", b"Ks"])
            lines[i] = b" ".join(words)
    return b"\n".join(lines)


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["booray-audit", *map(str, args)]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 0
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("seed", range(4))
def test_mutated_records_never_crash_and_agree_across_commands(seed, tmp_path):
    rng = random.Random(seed)
    deadline = time.monotonic() + 25
    done = 0
    while done < 300 and time.monotonic() < deadline:
        base = rng.choice(BASES)
        f = tmp_path / f"m{done}.bhh"
        f.write_bytes(mutate(base.read_bytes(), rng))
        code, out, err = run("check", "--format", "json", f)
        assert code in (0, 1, 2, 3), err
        doc = json.loads(out)  # valid JSON whatever the input
        text_code, _, _ = run("check", "--quiet", f)
        assert text_code == code
        fmt_code, canon, _ = run("fmt", f)
        assert fmt_code in (0, 2)
        if fmt_code == 0:  # the round trip holds for every record the reader accepts
            sessions, problems = notation.read_text(canon)
            assert problems == [], (f.read_bytes(), problems)
            original, _ = notation.collect(notation.read(str(f)))
            assert sessions == original
        if done % 10 == 0:
            two = run("check", "--format", "json", "--jobs", "2", f)
            assert (two[0], two[1]) == (code, out)
            assert run("replay", f, "--hand", "1")[0] in (0, 1, 2, 3)
            assert run("import", f, "--db", tmp_path / "s.duckdb", "--quiet")[0] in (0, 1, 2, 3)
            hands = sum(len(s["hands"]) for s in doc["sessions"])
            assert hands >= 0
        done += 1
    assert done >= 60, done
