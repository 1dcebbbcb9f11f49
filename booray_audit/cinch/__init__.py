"""Whether a player had a cinch: a player's view (``position``), positions alike up to
ranks nobody can tell apart (``canon``), the counting bounds (``bounds``), the moves
(``moves``), the exact search (``solver``, the Python reference; ``_search.c``, the same
search compiled, loaded by ``compiled``), the refuter that settles most positions first
(``refute``), and the judge with its budgets and the replay's hook (``judge``).  Imports
``rules``, ``cards`` and ``record`` only."""
