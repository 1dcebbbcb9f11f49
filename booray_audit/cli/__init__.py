"""The command line (typer), a thin skin over the library: the app, its options and what
every command shares (``shared``, ``tables`` for the store's commands), one module per
group of commands (``check``: check, fmt, replay; ``importing``; ``records``: stats,
ledger, alias, find; ``sql``; ``making``: new, rules, generate), and the entry point
(``main``).  Exit codes: 0 clean, 1 findings, 2 a file could not be read, 3 bad usage,
4 an import that differs from what is stored.  The only package that may import every
other one."""
