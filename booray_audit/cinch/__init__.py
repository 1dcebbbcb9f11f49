"""Whether a player had a cinch: positions, the counting bounds, the exact search
(``search``, the Python reference; ``_search.c``, the same search compiled), and the
refuter that settles most positions first (``refute``).  Imports ``rules``, ``cards``
and ``record`` only."""
