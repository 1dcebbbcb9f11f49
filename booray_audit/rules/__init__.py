"""The rules: profiles and house toggles (``profiles``), which cards a player may play
(``engine``), and how a hand's pot settles (``settle``).  Knows nothing of text,
replays or storage; imports only ``cards`` and ``record``."""
