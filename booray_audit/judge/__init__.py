"""What the record proves, hand by hand.

- The facts of a hand (``knowledge.Knowledge``, one class made of four): the order of play
  and who dealt (``seating``), the deal, the draw and reshuffles (``stock``), the tricks
  as read and what in them is in doubt (``doubts``), who held what when and which cards
  are as high as the top trump (``holdings``); where the record contradicts itself
  (``consistency``); who may have won a trick (``readings``).
- One hand replayed (``replay.HandReplay``): its checks before trick 1 (``declared``),
  the tricks walked (``walk``), each play checked (``plays``), what it establishes
  (``findings``); a plain hand's shorter road (``plain``); doubts about the order of
  tricks (``order``).
- A session's audit, settlement and disputes (``audit``); several processes (``parallel``).

Imports ``cinch``, ``rules``, ``notation`` (``parallel`` reads files in its workers),
``cards`` and ``record``; never the store, the reports or the command line."""
