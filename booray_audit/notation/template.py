"""The commented hand `booray-audit new` prints: a record to copy and fill in."""

TEMPLATE = """\
# A Bourré hand history: copy this file, keep what you remember, delete the rest.
# `#` starts a comment; { braces } hold a note the reports keep with the line.
# Check it with:  booray-audit check FILE.bhh

[Event "Thursday game"]           # free text
[Date "2026-11-26"]
[Seats "Ann Ben Cat Dan"]         # who was dealt in, clockwise
[Rules "standard"]                # or wikipedia, basic (`booray-audit rules`)
[Ante "1"]                        # chips each player antes
[Limit "25"]                      # most a bourré pays; "none" for no limit

Hand 1
Dealer Dan                        # next hands: the seat after the last dealer
Deal Ann As Kd 9h 4c 2s           # the cards dealt, when known (?? for unknown)
Up 7h                             # the dealer's face-up card: hearts are trump
Ann play 2s -> 3c                 # stays in, throws the 2s, draws the 3c
Ben play                          # stays in, keeps his cards
Cat play 2                        # stays in, throws two cards nobody saw
Dan pass                          # sits this hand out
# Tricks: the cards in the order played, leader first (`?h`: some heart)
Trick Ann As, Ben Qs, Cat Ks
Recall Ben 3h                     # Ben played the 3h, took it back; his Jd stood
Trick Ann Kd, Ben Jd, Cat 5d
Trick Ann 4c, Ben 8c, Cat 2h      { Ann says Cat had a club }
Trick Cat 9d, Ann 9h, Ben 3h
Trick Ann 3c, Ben 6c, Cat Ac
# What the table said (each is checked), and the complaints to rule on:
Tricks Ann 3 Ben 0 Cat 2
Dispute Cat renege 3              # kinds: renege, failed-trump, failed-beat, cinch, ...
# Ben forfeits deal               # the table took Ben's next deal (he declared early)
"""
