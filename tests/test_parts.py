"""`check --format json --jobs N` cuts a file where sessions start cleanly and has each part
read and audited apart: the document is byte for byte the one a single process writes,
however the file is written (noise, bad tags, tags inside hands, unreadable lines)."""

from __future__ import annotations

import io
import os
import random
import signal

import pytest

from booray_audit.cinch.compiled import NODES
from booray_audit.generate import generate_text
from booray_audit.judge import parallel
from booray_audit.judge.audit import audit
from booray_audit.notation import reader as notation
from booray_audit.report.document import JsonStream, rendered

from .conftest import CORPUS, ROOT, run_cli


def document(items) -> str:
    out = io.StringIO()
    doc = JsonStream(out)
    doc.start_file("x.bhh")
    for item in items:
        doc.add(item)
    doc.close()
    return out.getvalue()


def whole(path) -> str:
    return document(audit(notation.read(str(path))))


def in_parts(path, size: int, shares: int = 0) -> tuple[str, int]:
    """The document made part by part as the workers make it (here, in this process)."""
    with open(path, "rb") as f:
        starts = [s for s in notation.session_starts(f, size, str(path), shares) if s[0] is not None]
    items, before = [], 0
    for (begin, line), end in zip(starts, [s[0] for s in starts[1:]] + [None]):
        got, sessions = parallel._audit_part((str(path), begin, end, line, None, NODES, rendered))
        items += [parallel._counted_on(it, before) for it in got]
        before += sessions
    return document(items), len(starts)


NOISE = ["# a comment\n", "\n", "   \n", '[Event "Inserted"]\n', '[Ante "x"]\n', "[Seats\n", "junk line here\n",
         "Dispute Ann renege 2\n", "Hand\n", "{ a note }\n", '[Rule "limit=5"]\n']


def noisy(seed: int, too_long: bool = True) -> bytes:
    """A generated night of short sessions, with lines inserted, hands unnumbered, bytes
    that are no UTF-8, a line too long, CRLF line ends: every way a cut could go wrong.
    (A line too long is 100 KB: past it no place to cut is looked for.)"""
    rng = random.Random(seed)
    text, _ = generate_text(120, players=(2, 6), seed=seed, session_hands=rng.choice([1, 3, 7]))
    lines = text.splitlines(keepends=True)
    out: list[bytes] = [b"\xef\xbb\xbf"] if rng.random() < 0.3 else []
    for line in lines:
        if rng.random() < 0.03:
            out.append(rng.choice(NOISE).encode())
        if rng.random() < 0.005:
            out.append(b"\xff\xfe not utf-8\n")
        if too_long and rng.random() < 0.002:
            out.append(b"x" * 100_001 + b"\n")
        if line.startswith("Hand ") and rng.random() < 0.05:
            line = "Hand\n"
        data = line.encode()
        out.append(data.replace(b"\n", b"\r\n") if rng.random() < 0.02 else data)
    return b"".join(out)


@pytest.mark.parametrize("seed", range(8))
def test_parts_read_apart_make_the_document_of_the_whole_file(tmp_path, seed):
    for too_long in (True, False):
        path = tmp_path / f"night-{too_long}.bhh"
        path.write_bytes(noisy(seed, too_long))
        one = whole(path)
        for size in (300, 2_000, 20_000):
            got, parts = in_parts(path, size)
            assert got == one, (seed, size)
    assert in_parts(path, 300)[1] > 5  # cut often: the test is not one part compared with itself


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.bhh")) + sorted((ROOT / "samples").glob("*.bhh")),
                         ids=lambda p: p.name)
def test_the_corpus_and_samples_in_parts(path):
    assert in_parts(path, 500)[0] == whole(path)


def test_a_cut_only_where_a_session_starts_cleanly(tmp_path):
    """Tags inside a hand, tags that cannot be used, tags before the first hand: no cut."""
    path = tmp_path / "x.bhh"
    path.write_text('[Event "A"]\n\nHand 1\nDealer Ann\n[Event "inside"]\nAnn pass\n\n[Ante "x"]\n\nHand 2\n'
                    'Dealer Ann\n\n[Event "B"]\n# between\n[Seats "Ann Ben"]\n\nHand 1\nDealer Ann\n')
    with open(path, "rb") as f:
        starts = list(notation.session_starts(f, 1, str(path)))
    text = path.read_bytes()
    assert starts == [(0, 1), (text.index(b'[Event "B"]'), 13)]


def test_jobs_two_writes_the_document_one_job_writes(tmp_path, monkeypatch):
    """Short sessions in parts, then a session too long to find a place to cut near
    (past 64 KB): from there the hands are replayed as one long session's, in batches."""
    monkeypatch.setenv("BOORAY_AUDIT_PART", "4000")
    long, _ = generate_text(400, players=(2, 2), seed=4, session_hands=400)
    path = tmp_path / "night.bhh"
    path.write_bytes(noisy(11, too_long=False) + (ROOT / "samples" / "online-log.bhh").read_bytes() + b"\n"
                     + long.encode() + b"\n" + noisy(12))
    with open(path, "rb") as f:
        starts = list(notation.session_starts(f, 4000, str(path)))
    assert len(starts) > 20 and starts[-1] == (None, None)
    one = run_cli("check", "--format", "json", path)
    two = run_cli("check", "--format", "json", "--jobs", "2", path)
    assert one.returncode == two.returncode == 2  # the noise's syntax errors
    assert one.stdout == two.stdout and one.stderr == two.stderr


def test_the_last_parts_are_smaller_and_still_cut_cleanly(tmp_path):
    """With ``shares``, a part near the end is at most the bytes left over ``shares`` (16 KB
    at least), so that the workers end near together; the places are clean starts still."""
    text, _ = generate_text(1500, players=(2, 6), seed=5, session_hands=3)
    path = tmp_path / "night.bhh"
    path.write_text(text)
    size, total = 64 * 1024, path.stat().st_size
    with open(path, "rb") as f:
        plain = [b for b, _ in notation.session_starts(f, size, str(path))]
        shared = list(notation.session_starts(f, size, str(path), shares=8))
    offsets = [b for b, _ in shared] + [total]
    lengths = [b - a for a, b in zip(offsets, offsets[1:])]
    assert len(shared) > len(plain) + 3
    for begin, length in zip(offsets, lengths[:-1]):  # each ends at the first clean start past its share
        assert length <= max(notation.SMALLEST_PART, min(size, (total - begin) // 8)) + 4096
    assert lengths[0] >= size and max(lengths[-4:]) < size // 2
    got, parts = in_parts(path, size, shares=8)
    assert parts == len(shared) and got == whole(path)


_PARTS_RENDERED = 0


def _dies_at_its_second_part(items):
    """A render that kills its worker (as the kernel does one out of memory) at its second part."""
    global _PARTS_RENDERED
    _PARTS_RENDERED += 1
    if _PARTS_RENDERED == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return rendered(items)


def _fails_at_its_second_part(items):
    global _PARTS_RENDERED
    _PARTS_RENDERED += 1
    if _PARTS_RENDERED == 2:
        raise ValueError("the second part")
    return rendered(items)


class _Unpicklable(Exception):
    def __init__(self):
        super().__init__("holds a lambda")
        self.why = lambda: None


def _fails_unpicklably(items):
    raise _Unpicklable()


@pytest.fixture
def night(tmp_path):
    path = tmp_path / "night.bhh"
    path.write_bytes(noisy(3, too_long=False) * 4)
    return path


def _run_parts(path, render):
    """The items of ``audit_parts`` on ``path`` with two workers, in a minute at most."""
    def late(*_):
        raise AssertionError("the parent waited a minute for its workers")
    old = signal.signal(signal.SIGALRM, late)
    signal.alarm(60)
    try:
        return list(parallel.audit_parts(str(path), parallel.parts(str(path), 2), 2, None, NODES, render))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_a_worker_killed_is_said_so_at_once(night, monkeypatch):
    monkeypatch.setenv("BOORAY_AUDIT_PART", "2000")
    with pytest.raises(notation.ReadError, match=r"night\.bhh: a worker process auditing it stopped "
                                                 r"\(killed by signal 9\)"):
        _run_parts(night, _dies_at_its_second_part)


def test_a_workers_exception_is_raised_in_the_parent(night, monkeypatch):
    monkeypatch.setenv("BOORAY_AUDIT_PART", "2000")
    with pytest.raises(ValueError, match="the second part"):
        _run_parts(night, _fails_at_its_second_part)
    with pytest.raises(RuntimeError, match="_Unpicklable"):
        _run_parts(night, _fails_unpicklably)
    assert len(_run_parts(night, rendered)) > 10  # the same file, rendered as it should be


def test_ctrl_c_ends_a_parallel_check_and_its_workers(tmp_path):
    import subprocess
    import time
    from .conftest import cli_command
    text, _ = generate_text(1000, players=(8, 8), seed=9)
    f = tmp_path / "big.bhh"
    f.write_text(text * 8)  # a few seconds' work
    p = subprocess.Popen(cli_command() + ["check", "--format", "json", "--jobs", "2", str(f)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children, deadline = [], time.monotonic() + 20
    while len(children) < 2 and time.monotonic() < deadline:  # until the workers are at work
        time.sleep(0.05)
        children = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    time.sleep(0.5)
    assert len(children) == 2 and p.poll() is None, "the run ended before it was interrupted: give it more hands"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130 and err.decode().strip() == "booray-audit: interrupted"
    for pid in children:
        assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2]
