"""`import` (and `--watch`): files audited into the store."""

from __future__ import annotations

import os
import time
from typing import List, Optional

import typer

from ..notation import reader as notation
from ..record import printable, shown
from ..rules.profiles import Rules
from .shared import (CINCH_MEMORY, CINCH_NODES, CLEAN, DB, DIFFERS, FILES, FINDINGS, JOBS, RULES, UNREADABLE,
                     UsageProblem, WAIT, _err, _rules, _said, audited, expand, records_in)
from .tables import _open, _store


def import_cmd(files: List[str] = FILES, db: str = DB, rules: Optional[str] = RULES,
               quiet: bool = typer.Option(False, "--quiet", help="only errors and the hands not stored"),
               jobs: int = JOBS, cinch_nodes: int = CINCH_NODES, cinch_memory: Optional[int] = CINCH_MEMORY,
               wait: float = WAIT,
               again: bool = typer.Option(False, "--again",
                                          help="audit again what was imported before (still storing no "
                                               "hand twice)"),
               replace: bool = typer.Option(False, "--replace",
                                            help="a session stored before that the file now tells otherwise "
                                                 "(an edited hand or tag, other --rules or --cinch-nodes): "
                                                 "replace it"),
               as_new: bool = typer.Option(False, "--as-new",
                                           help="a session that is mostly the hands of one stored from another "
                                                "file (a copy saved under a new name): store it as a session of "
                                                "its own all the same"),
               watch: bool = typer.Option(False, "--watch",
                                          help="keep going: import each new or changed .bhh or .jsonl file in the "
                                               "folders given once it has stopped growing (Ctrl-C stops)"),
               interval: float = typer.Option(10.0, "--interval", min=0.1, metavar="SECONDS",
                                              help="with --watch: how often to look")):
    """Check and store into DuckDB; re-importing the same hands changes nothing.

    Hands stored before are not audited again: a file imported before is skipped, a log
    that grew adds its new hands to its session.  A session the file now tells otherwise
    (an edited hand or tag) is reported hand by hand and changes nothing (exit 4) unless
    --replace; so is a session that is mostly the hands of one stored from another file
    (an edited copy under a new name), unless --replace or --as-new.  The database is held
    only while one file's rows are loaded (a batch of whole sessions per transaction: an
    import killed midway is finished by running it again), so stats, ledger and sql answer
    during a long import; --watch imports new files as they appear, and `import logs/`
    from cron imports each new file once."""
    from ..store.load import settings_of
    store = _store()
    override = _rules(rules)
    if watch and ("-" in files or not all(os.path.isdir(f) for f in files)):
        raise UsageProblem("--watch takes folders to watch")
    settings = settings_of(_rules_name(rules, override), cinch_nodes)
    con = _open(db, read_only=False, wait=wait)  # created, and usable, before any audit
    try:
        seen = store.imported_shas(con, settings)
    finally:
        con.close()
    job = dict(db=db, override=override, quiet=quiet, jobs=jobs, cinch_nodes=cinch_nodes, wait=wait,
               again=again, replace=replace, seen=seen, settings=settings, as_new=as_new)
    if not watch:
        return _import_files(expand(files), **job)
    done: dict[str, tuple] = {}  # path -> (size, mtime) when imported
    last: dict[str, tuple] = {}  # path -> (size, mtime) at the previous look
    told: set[str] = set()  # files skipped as not regular, said once
    while True:  # ends with Ctrl-C (exit 130)
        ready = []
        for folder in files:
            skipped: list[str] = []
            for path in records_in(folder, skipped):
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                now = (st.st_size, st.st_mtime_ns)
                if done.get(path) != now and last.get(path) == now:  # new or changed, and settled
                    ready.append(path)
                    done[path] = now
                last[path] = now
            for path in skipped:
                if path not in told:
                    told.add(path)
                    _err(f"{printable(path)}: not a regular file (a pipe or a device), skipped")
        if ready:
            _import_files(iter(ready), **job)
        time.sleep(interval)


def _rules_name(option: Optional[str], override: Optional[Rules]) -> Optional[str]:
    """``--rules`` as the store remembers it: the profile, and a digest of a house-rules file."""
    if override is None:
        return None
    import hashlib
    return f"{override.profile} ({hashlib.sha256(repr(override).encode()).hexdigest()[:8]})"


def _import_files(paths, db, override, quiet, jobs, cinch_nodes, wait, again, replace, seen: set,
                  settings: str, as_new: bool = False) -> int:
    import duckdb
    from ..store.load import import_file
    from ..store.staging import Chains, Known
    from ..report.text import count
    store = _store()
    code = CLEAN

    def con():
        return store.connect_waiting(db, wait=wait, memory=store.LOAD_MEMORY)

    def reader():
        return store.connect_waiting(db, read_only=True, wait=wait)

    for path in paths:
        if path is None:
            code = UNREADABLE
            continue
        try:
            sha = store.file_sha(path) if path != "-" else ""
            if sha and sha in seen and not again and not replace:
                if not quiet:
                    print(shown(f"{printable(path)}: imported before (the same content): skipped"))
                continue
            chains = Chains()
            known = None if again else Known(reader, settings, chains)
            items = _said(audited(path, override, jobs, progress=not quiet, cinch_nodes=cinch_nodes,
                                  known=known))
            res = import_file(con, path, items, sha, settings, replace, chains, as_new)
        except notation.ReadError as e:
            _err(str(e))
            code = UNREADABLE
            continue
        except store.StoreError as e:  # the store stayed busy (or broke) while this file waited
            _err(f"{printable(path)}: not imported: {e}")
            code = UNREADABLE
            continue
        except OSError as e:  # reading the file, or staging its rows (a full disk)
            _err(f"{path}: not imported, the database is unchanged: {e.strerror or e}")
            code = UNREADABLE
            continue
        except duckdb.InterruptException:  # Ctrl-C while DuckDB worked (it turns SIGINT into this)
            raise KeyboardInterrupt from None
        except duckdb.Error as e:  # this file only: the files after it are still imported
            _err(f"{db}: the import of {printable(path)} failed and was rolled back: "
                 f"{str(e).splitlines()[0]}")
            code = UNREADABLE
            continue
        if res.refused:
            for e in res.edits:
                _err(f"{res.path}: {e}")
            _err(f"{res.path}: not imported, the database is unchanged (--replace replaces "
                 f"{'that session' if len(res.edits) == 1 else 'those sessions'}"
                 + ("; --as-new stores a copy as a session of its own" if any(e.copy_of for e in res.edits) else "")
                 + ")")
            code = max(code, DIFFERS) if code != UNREADABLE else code
            continue
        if sha:
            seen.add(sha)
        if res.problems:
            code = UNREADABLE
        elif res.findings and code == CLEAN:
            code = FINDINGS
        if not quiet:
            for e in res.edits:
                print(shown(f"{res.path}: session {e.ordinal} replaced the stored session {e.session_id} "
                            f"({e.changes()})"))
            print(shown(f"{res.path}: {count(res.hands, 'hand')}, {res.new:,} new, {res.unchanged:,} already stored, "
                        + (f"{res.replaced:,} replaced, " if res.edits else "")
                        + f"{count(res.findings, 'finding')}"
                        + (f", {count(res.problems, 'syntax error')}" if res.problems else "")))
    return code
