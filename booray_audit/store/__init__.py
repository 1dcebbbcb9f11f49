"""The DuckDB store: its tables and views (``schema``), importing audited files in
batches (``load``), the queries behind `stats`, `ledger`, `find` and `sql`
(``queries``), and the Dask recipe for many files (``cluster``).  Imports the
``judge``, ``notation`` and below; never the command line."""
