"""Logs larger than one machine: audit many files with Dask, one task per file.

Each task reads, audits and settles one file and writes its Parquet partitions
(``out/<table>/source=<file name>~<hash of its path>/``, the layout of ``check --format parquet``),
so the results never travel back through the scheduler; the task returns only
its counts.  Dask's own scheduler places the tasks: a ``distributed.Client``
made before the call (a local cluster, or one reaching a real cluster whose
workers see the same files and ``out`` folder) is used; without one, Dask's
default local scheduler runs them.  Sessions never span files, so files are
independent.  Dask is an optional extra (``pip install 'booray-audit[dask]'``);
nothing else in the package imports this module.
"""

from __future__ import annotations

from typing import Iterable

from ..notation import reader as notation
from ..judge.audit import audit
from ..cinch.compiled import NODES
from ..rules.profiles import Rules, resolve


def audit_file(path: str, out: str, rules: Rules | None = None, cinch_nodes: int = NODES) -> dict:
    """One task: audit ``path`` into Parquet under ``out``; its counts, or why it failed."""
    import duckdb

    from .load import export_parquet
    from .schema import StoreError
    try:
        counts = export_parquet(audit(notation.read(path), rules, cinch_nodes), path, out)
    except (notation.ReadError, OSError, duckdb.Error, StoreError) as e:
        return {"file": path, "error": str(e).splitlines()[0]}
    return {"file": path, **counts}


def audit_files(paths: Iterable[str], out: str, rules: str | None = None,
                cinch_nodes: int = NODES) -> list[dict]:
    """Audit every file as its own Dask task; counts per file, in the order given.

    ``rules`` is a profile name or house-rules file for every session (as ``--rules``),
    checked here before any task starts; ``cinch_nodes`` as ``--cinch-nodes``.  Each file
    has its own partition (its name and a hash of its path), whatever the names."""
    import dask.bag

    override = resolve(rules) if rules else None
    paths = list(paths)
    if not paths:
        return []
    bag = dask.bag.from_sequence(paths, npartitions=len(paths))
    return bag.map(audit_file, out=out, rules=override, cinch_nodes=cinch_nodes).compute()
