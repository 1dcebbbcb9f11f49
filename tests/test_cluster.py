"""The Dask recipe (booray_audit.store.cluster) on a local cluster of two worker processes:
the Parquet it writes holds the same findings as a single-process `check --format json`."""

import json

import duckdb
import pytest
from typer.testing import CliRunner

from booray_audit.cli.main import app
from booray_audit.generate import generate_text

distributed = pytest.importorskip("distributed")


def test_dask_local_cluster_matches_check(tmp_path):
    from booray_audit.store.cluster import audit_files
    files = []
    for seed in range(3):  # two of them share a name, in different folders: their partitions do not
        path = tmp_path / ("a", "b", "c")[seed] / ("table.bhh" if seed < 2 else "table2.bhh")
        path.parent.mkdir()
        text, _ = generate_text(60, players=(2, 6), seed=100 + seed, violations=0.2)
        path.write_text(text)
        files.append(str(path))
    bad = tmp_path / "missing.bhh"
    out = tmp_path / "out"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        import dask.base
        assert dask.base.get_scheduler() == client.get  # the tasks go to the cluster's workers
        counts = audit_files(files + [str(bad)], str(out))
        assert len(client.run(lambda: 1)) == 2
    assert [c["file"] for c in counts] == files + [str(bad)]
    assert "error" in counts[-1] and "missing.bhh" in counts[-1]["error"]
    assert all(c["hands"] == 60 for c in counts[:3])

    doc = json.loads(CliRunner().invoke(app, ["check", "--format", "json", *files]).stdout)
    want = sorted((s["file"].rsplit("/", 1)[-1], h["hand"], f["trick"], f["kind"], f["player"])
                  for s in doc["sessions"] for h in s["hands"] for f in h["findings"])
    got = sorted(duckdb.sql(f"""
        SELECT split_part(f.source, '~', 1), h.number, f.trick, f.kind, f.player
        FROM read_parquet('{out}/findings/*/*.parquet', hive_partitioning=true) f
        JOIN read_parquet('{out}/hands/*/*.parquet', hive_partitioning=true) h
          ON h.hand_id = f.hand_id AND h.source = f.source""").fetchall())
    assert want and got == want
    assert sum(c["findings"] for c in counts[:3]) == len(want)
