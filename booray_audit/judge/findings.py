"""What the replay of a hand establishes: the kinds of finding (docs/rules.md, the findings),
a finding, a check left undecidable, and the ``Replay`` of one hand."""

from __future__ import annotations

from dataclasses import dataclass, field


PLAY_KINDS = ("renege", "failed-trump", "failed-beat", "cinch-lead", "cinch-follow",
              "cinch-last", "lead-trump", "recall")
RECORD_KINDS = ("dealer-passed", "out-of-turn", "duplicate-card", "not-held", "hand-size",
                "draw-limit", "bad-trump", "missing-play", "unknown-player", "bad-dispute")
CLAIM_KINDS = ("wrong-trick-count", "wrong-pot", "wrong-ante", "wrong-settlement")
CINCH_KINDS = ("cinch-lead", "cinch-follow", "cinch-last")
FINDING_KINDS = PLAY_KINDS + RECORD_KINDS + CLAIM_KINDS
DISPUTE_KINDS = FINDING_KINDS + ("cinch",)  # `cinch`: any cinch duty


def kind_class(kind: str) -> str:
    return "play" if kind in PLAY_KINDS else "record" if kind in RECORD_KINDS else "claim"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    hand: int
    trick: int | None
    player: str | None
    card: int | None
    message: str
    evidence: str
    rule: str

    @property
    def cls(self) -> str:
        return kind_class(self.kind)


@dataclass(frozen=True, slots=True)
class Undecidable:
    """A duty the audit could not judge at a play, and why: not a finding (nobody is
    accused), but not cleared either (a dispute of that kind there is undecidable)."""
    kind: str
    hand: int
    trick: int
    player: str
    card: int
    reason: str


@dataclass(slots=True)
class Replay:
    """What the replay of one hand established."""
    number: int
    dealer: str | None
    trump: int | None
    seated: list[str]
    active: list[str]
    passed: list[str]
    discards: dict[str, int | None]
    tricks: dict[str, int] | None  # None when a trick's winner is unknown
    complete: bool                 # every trick recorded and every winner known
    plays: list[tuple[int, int, str, int, bool]] = field(default_factory=list)  # trick, seq, player, card, won
    findings: list[Finding] = field(default_factory=list)
    undecidable: list[Undecidable] = field(default_factory=list)
    walkover: str | None = None
    all_passed: bool = False
    # (player, trick) -> {play kind: how the record shows the play kept that rule}
    kept: dict[tuple[str, int], dict[str, str]] = field(default_factory=dict)
    know: object = None  # the hand's Knowledge, for `replay`
    bad_disputes: list = field(default_factory=list)  # `Dispute` events that are record errors
    # where a lead out of turn leaves a trick's winner in doubt (``tricks`` None): the
    # tricks won in each reading of the record; the table's `Tricks` may pick one
    ways: list[dict[str, int]] = field(default_factory=list)
    # other readings, where tricks only the next leads give winners went to another who
    # may have won them (see ``other_ways``): the table's claims may pick one; None, too many
    leads: list[dict[str, int]] | None = field(default_factory=list)
    misspelt: list[tuple[str, str]] = field(default_factory=list)  # see ``_misspelt``
    maybe_dealt: list[str] = field(default_factory=list)  # see ``_misspelt``
