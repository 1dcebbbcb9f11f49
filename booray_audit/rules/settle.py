"""Settlement: the pot across a session, antes, exemptions, penalties (docs/rules.md, settling the pot).

Knows nothing of cards: it takes each hand's outcome and the table's claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .profiles import Rules


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the replay established about one hand, as settlement needs it."""
    number: int
    dealt: tuple[str, ...]          # players dealt in (they ante)
    active: tuple[str, ...]
    tricks: dict[str, int] | None   # None: the hand did not finish or a winner is unknown
    violators: frozenset[str] = frozenset()
    walkover: str | None = None
    all_passed: bool = False
    doubtful: frozenset[str] = frozenset()  # players whose play violation is undecidable
    # (name, name) pairs that may be one player's name misspelt (no `Seats` to tell, or the
    # first not seated): the first is the spelling the hand uses less (or the one not
    # seated), merged into the second in that reading
    misspelt: tuple[tuple[str, str], ...] = ()
    maybe_dealt: tuple[str, ...] = ()  # named only in the table's claims (no `Seats` to tell)
    # other ways the tricks may have gone, for the claims to pick where they contradict
    # ``tricks`` (None: too many to list); see ``Chain.settle``
    leads: tuple[dict[str, int], ...] | None = ()
    # seated, yet named nowhere in the hand, the table's `Net` included: a player who left
    # the table with `Seats` not brought up to date, or a passer whose line is missing
    maybe_gone: tuple[str, ...] = ()
    # took a card back (a recall, `recall=forfeit`): no penalty, but cannot win this pot
    recalled: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Claims:
    pot: int | None = None
    ante: tuple[str, ...] | str | None = None
    tricks: tuple[tuple[str, int], ...] = ()
    net: tuple[tuple[str, int], ...] = ()


@dataclass(slots=True)
class Settlement:
    number: int
    pot: int | None
    antes: dict[str, int]
    winner: str | None
    won: int
    bourre: list[str]
    penalties: dict[str, int | None]
    net: dict[str, int] | None
    carry: int | None
    findings: list[tuple[str, str | None, str, str]] = field(default_factory=list)  # kind, player, message, evidence
    unknown: str = ""  # why the nets are not known, when it is not that the hand is unfinished
    reading: str = ""  # how the tricks were counted, where the claims picked another way (``leads``)


class Chain:
    """The pot carried from hand to hand within one session (docs/rules.md, settling the pot)."""

    def __init__(self, start_pot: int = 0):
        self.carry: int | None = start_pot
        self.exempt: set[str] | None = set()
        self.last: int | None = None
        self.ledger: dict[str, int] = {}

    def state(self) -> dict:
        """Everything the chain carries to the next hand, as plain JSON values."""
        return {"carry": self.carry, "exempt": None if self.exempt is None else sorted(self.exempt),
                "last": self.last, "ledger": dict(self.ledger)}

    def restore(self, state: dict) -> None:
        """Continue from ``state()`` taken after an earlier audit of the same hands."""
        self.carry, self.last, self.ledger = state["carry"], state["last"], dict(state["ledger"])
        self.exempt = None if state["exempt"] is None else set(state["exempt"])

    def lost(self, number: int) -> None:
        """A hand the record holds but that could not be read: from it on, the pot and who
        is exempt are unknown until a `Pot` claim restarts the chain (as after a gap)."""
        self.carry, self.exempt, self.last = None, None, number

    def settle(self, o: Outcome, rules: Rules, claims: Claims) -> Settlement:
        """The hand settled on the chain, with the tricks won as ``o.tricks``; where the
        table's `Tricks` or `Net` contradicts them, with the other way they may have gone
        (``o.leads``) the claims fit, if every such way ends the hand alike.  If several
        that end it otherwise fit, or the ways are too many to list, what the hand settled
        is not known; if none fits, the claims are judged by ``o.tricks``."""
        if o.leads == () or not (claims.tricks or claims.net):
            return self._settle_doubts(o, rules, claims)
        start = self.state()
        s = self._settle_doubts(o, rules, claims)
        if not any(kind in ("wrong-trick-count", "wrong-settlement") for kind, *_ in s.findings):
            return s
        end = self.state()
        fits = []
        for tricks in o.leads or ():
            self.restore(start)
            other = self._settle_doubts(replace(o, tricks=tricks, leads=()), rules, claims)
            if not any(kind in ("wrong-trick-count", "wrong-settlement") for kind, *_ in other.findings):
                fits.append((other, self.state(), tricks))
        if fits and len({repr(e) for _, e, _ in fits}) == 1:
            other, end, tricks = fits[0]
            self.restore(end)
            other.reading = (("tricks as the table's claims count them: " + ", ".join(
                f"{p} {n}" for p, n in tricks.items())) if len(fits) == 1 else
                "tricks counted a way the table's claims fit") + (
                " (the cards do not show for sure who won every trick: a trick may be written from "
                "another card than its lead, or a card written by suit only be another of its suit)")
            return other
        if not fits and o.leads is not None:
            self.restore(end)
            return s
        self.restore(dict(start, carry=None, exempt=None, last=end["last"]))
        s.findings = [f for f in s.findings if f[0] != "wrong-trick-count"]
        return _unknown([s, *(other for other, _, _ in fits)], {}, "",
                        "who won the tricks the cards do not decide (a trick may be written from another "
                        "card than its lead, or a card written by suit only be another of its suit) is not known")

    def _settle_doubts(self, o: Outcome, rules: Rules, claims: Claims) -> Settlement:
        """The hand settled on the chain.  A player whose violation the record leaves
        undecidable may owe a penalty, or may not win: the hand is settled each way (past
        MOST_DOUBTFUL such players, only with no penalty and as the table's `Net` charged).
        Where the ways differ, the table's `Net` decides when it fits exactly one outcome of
        the chain; otherwise the hand's nets and what it carries are not known (as for an
        unfinished hand), and a `Net` claim is wrong only where it fits no way (when every
        way was settled).  Names that may be one player's misspelt are settled both ways too,
        as two players and as one, and names only the claims use with and without an ante."""
        doubt = sorted(o.doubtful - o.violators)
        if not doubt and not o.misspelt and not o.maybe_dealt and not o.maybe_gone:
            return self._settle(o, rules, claims)
        known = set(self.ledger) | (self.exempt or set())  # the spellings the hands before used
        if o.misspelt and known:  # merged, a pair keeps the one the chain knows (its ante hangs on it)
            o = replace(o, misspelt=tuple((b, a) if a in known and b not in known else (a, b) for a, b in o.misspelt))
        start = self.state()
        # every way is settled; past these, the table's `Net` guides and is not judged
        judged = len(doubt) <= MOST_DOUBTFUL and len(o.misspelt) + len(o.maybe_dealt) + len(
            o.maybe_gone) <= MOST_MISSPELT
        subsets = range(1 << len(doubt)) if len(doubt) <= MOST_DOUBTFUL else (0,)
        ways = [self._way(start, reading, frozenset(p for i, p in enumerate(doubt) if mask >> i & 1), rules, claims)
                for reading in _readings(o) for mask in subsets]
        said = dict(claims.net)
        if not judged and said and ways[0][0].net is not None:  # those the table charged otherwise
            charged = frozenset(p for p in doubt if p in said and said[p] != ways[0][0].net.get(p, 0))
            if charged:
                ways.append(self._way(start, o, charged, rules, claims))
        ends = {repr(end) for _, end in ways}
        fits = {repr(end) for s, end in ways if said and not _wrong_net(s)}
        if (judged and len(ends) == 1) or len(fits) == 1:
            s, end = next(w for w in ways if (judged and len(ends) == 1) or repr(w[1]) in fits)
            self.restore(end)
            return s
        self.restore(dict(ways[0][1], carry=None, exempt=None, ledger=start["ledger"]))
        why = ([f"{' and '.join(doubt)} broke a rule or not (undecidable)"] if doubt else []) + [
            f"{a} and {b} are one player or two ({_unseated(a, o)})" for a, b in o.misspelt] + [
            f"{p}, named only in the table's claims, was dealt in or not (no Seats)" for p in o.maybe_dealt] + [
            f"{p}, seated but named nowhere in the hand, was dealt in or not" for p in o.maybe_gone]
        unknown = ([f"whether {' or '.join(doubt)} broke a rule is undecidable"] if doubt else []) + [
            f"whether {a} and {b} are one player is not known ({_unseated(a, o)})" for a, b in o.misspelt] + [
            f"whether {p}, named only in the table's claims, was dealt in is not known (no Seats)"
            for p in o.maybe_dealt] + [
            f"whether {p}, seated but named nowhere in the hand, was dealt in is not known" for p in o.maybe_gone]
        return _unknown([s for s, _ in ways], said if judged else {}, " and ".join(why), " and ".join(unknown))

    def _way(self, start: dict, o: Outcome, guilty: frozenset, rules: Rules, claims: Claims):
        """The hand settled from the chain's state ``start`` with ``guilty`` found guilty too:
        the settlement and the chain's state after it."""
        self.restore(start)
        s = self._settle(replace(o, violators=o.violators | guilty), rules, claims)
        return s, self.state()

    def _settle(self, o: Outcome, rules: Rules, claims: Claims) -> Settlement:
        first = self.last is None
        gap = self.last is not None and o.number != self.last + 1
        self.last = o.number
        if gap:
            self.carry, self.exempt = None, None
        exempt = set() if rules.double_ante else self.exempt
        antes = {p: rules.ante for p in o.dealt if exempt is not None and p not in exempt}
        if rules.double_ante:
            for p in o.active:
                antes[p] = antes.get(p, 0) + rules.ante
        found: list[tuple[str, str | None, str, str]] = []
        pot = None if self.carry is None or exempt is None else self.carry + sum(antes.values())
        if claims.pot is not None and (first or gap or pot is None):
            pot = claims.pot  # docs/rules.md, settling the pot: the starting fact of a chain
            if exempt is None:
                antes = {p: rules.ante for p in o.dealt}
            carry_in = pot - sum(antes.values())
        else:
            carry_in = self.carry
            if claims.pot is not None and pot is not None and claims.pot != pot:
                found.append(("wrong-pot", None, f"the table said the pot was {claims.pot}; it was {pot}",
                              f"carried {self.carry} + antes {sum(antes.values())}"))
        if claims.ante is not None and exempt is not None:
            found += _ante_claims(claims.ante, o.dealt, antes, exempt)
        s = self._outcome(o, rules, pot, antes)
        s.findings = (found + _trick_claims(claims.tricks, o.tricks, {*o.dealt, *o.active})
                      + _net_claims(claims.net, s.net))
        if s.net is not None and s.carry is not None and carry_in is not None:
            assert sum(s.net.values()) + s.carry - carry_in == 0, "chips not conserved"
            for p, n in s.net.items():
                self.ledger[p] = self.ledger.get(p, 0) + n
        self.carry = s.carry
        return s

    def _outcome(self, o: Outcome, rules: Rules, pot, antes) -> Settlement:
        if rules.settle == "continue" and not o.all_passed and (o.walkover is not None or o.tricks is not None):
            return self._continues(o, rules, pot, antes)
        s = Settlement(o.number, pot, antes, None, 0, [], {}, None, None)
        next_exempt: set[str] = set()
        if o.all_passed:
            s.carry = pot  # docs/rules.md, the deal and the draw: everyone passed, the pot carries, nobody is exempt
        elif o.walkover is not None or o.tricks is not None:
            if o.walkover is not None:
                s.winner = o.walkover
            else:
                leaders, alone = _leaders(o, rules)
                if alone:
                    s.winner = leaders[0]
                elif len(leaders) > 1:
                    next_exempt |= set(leaders)  # a split pot: the tied leaders sit out the next ante
                next_exempt |= _pay_the_pot(s, o, rules, pot)
            if pot is not None:
                s.won = _won(s, rules, pot)
                s.carry = pot - s.won + sum(s.penalties.values())
        else:
            self.exempt = None  # an unfinished hand: who is exempt next is unknown
            return s
        if pot is not None:
            s.net = _net(s, o)
        self.exempt = set() if rules.double_ante else next_exempt
        return s

    def _continues(self, o: Outcome, rules: Rules, pot, antes) -> Settlement:
        """``settle=continue`` (docs/rules.md, house rules of online games): a player who takes the
        most tricks alone, with nobody bourré, takes the pot and the game ends.  Otherwise
        the game goes on: the bourré players (and, with renege-penalty=pot, the violators)
        pay the pot, the other players with fewer tricks than the most pay one ante each at
        the end of the hand (in a 2-2-1 split the one-trick player pays nothing and sits
        out), a sole leader still takes the pot, tied leaders split nothing (it carries), and
        the next hand has no antes.  These end-of-hand antes are listed with the antes."""
        s = Settlement(o.number, pot, dict(antes), None, 0, [], {}, None, None)
        ends: list[str] = []
        if o.walkover is not None:
            s.winner = o.walkover
            goes_on = False
        else:
            leaders, alone = _leaders(o, rules)
            payers = _pay_the_pot(s, o, rules, pot)
            goes_on = not alone or bool(payers)
            if alone:
                s.winner = leaders[0]
            others = [p for p in o.active if p not in leaders and p not in payers]
            if goes_on and not (len(leaders) == 2 and len(others) == 1 and not payers):
                ends = others
        if pot is not None:
            s.won = _won(s, rules, pot)
            for p in ends:
                s.antes[p] = s.antes.get(p, 0) + rules.ante
            s.carry = pot - s.won + sum(s.penalties.values()) + rules.ante * len(ends)
            s.net = _net(s, o)
        self.exempt = set(o.dealt) if goes_on else set()  # no antes while the game goes on
        return s


def _leaders(o: Outcome, rules: Rules) -> tuple[list[str], bool]:
    """The players with the most tricks, and whether one of them has them alone and may
    win (not forfeited by a violation under renege-forfeits, nor by a recall)."""
    top = max(o.tricks.values(), default=0)
    leaders = [p for p in o.active if o.tricks.get(p, 0) == top]
    return leaders, len(leaders) == 1 and not (rules.renege_forfeits and leaders[0] in o.violators
                                               or leaders[0] in o.recalled)


def _pay_the_pot(s: Settlement, o: Outcome, rules: Rules, pot) -> set[str]:
    """The players who pay the pot (at most the limit): those bourré, and under
    renege-penalty=pot the violators; set on ``s`` (``bourre``, ``penalties``)."""
    s.bourre = [p for p in o.active if o.tricks.get(p, 0) == 0]
    payers = set(s.bourre)
    if rules.renege_penalty == "pot":
        payers |= set(o.violators) & set(o.active)
    for p in o.active:
        if p in payers:
            s.penalties[p] = None if pot is None else min(pot, rules.limit or pot)
    return payers


def _won(s: Settlement, rules: Rules, pot: int) -> int:
    """What the winner takes: the pot, or at most the limit under limit-caps-win."""
    if not s.winner:
        return 0
    return min(pot, rules.limit) if rules.limit_caps_win and rules.limit is not None else pot


def _net(s: Settlement, o: Outcome) -> dict[str, int]:
    """Each player's chips for the hand: antes and penalties paid, the pot won."""
    net = {p: -a for p, a in s.antes.items()}
    for p, pen in s.penalties.items():
        net[p] = net.get(p, 0) - pen
    if s.winner:
        net[s.winner] = net.get(s.winner, 0) + s.won
    for p in o.dealt:
        net.setdefault(p, 0)
    return net


def _unseated(name: str, o: Outcome) -> str:
    """Why a name may be another's misspelt: no `Seats`, or the name is not seated."""
    return "no Seats" if name in o.dealt else f"{name} is not seated"


MOST_DOUBTFUL = 4  # undecided players a hand is settled every way for (2**4 ways)
MOST_MISSPELT = 3  # names in doubt (misspelt pairs, names only the claims use) settled every way for


def _readings(o: Outcome) -> list[Outcome]:
    """The hand as recorded, and with each set of its possibly misspelt names merged, of
    the names only its claims use dealt in, and of the seated players it names nowhere
    not dealt in (past MOST_MISSPELT of them in all, only with none and with all)."""
    out = []
    n = len(o.misspelt) + len(o.maybe_dealt) + len(o.maybe_gone)
    for mask in (0, (1 << n) - 1) if n > MOST_MISSPELT else range(1 << n):
        rename = dict(pair for i, pair in enumerate(o.misspelt) if mask >> i & 1)
        more = tuple(p for i, p in enumerate(o.maybe_dealt, len(o.misspelt)) if mask >> i & 1)
        gone = {p for i, p in enumerate(o.maybe_gone, len(o.misspelt) + len(o.maybe_dealt)) if mask >> i & 1}

        def one(names):
            return tuple(dict.fromkeys(rename.get(p, p) for p in names))

        tricks = None
        if o.tricks is not None:
            tricks = {}
            for p, won in o.tricks.items():
                tricks[rename.get(p, p)] = tricks.get(rename.get(p, p), 0) + won
        out.append(replace(o, dealt=one(p for p in o.dealt + more if p not in gone), active=one(o.active),
                           tricks=tricks, violators=frozenset(one(o.violators)), doubtful=frozenset(one(o.doubtful)),
                           recalled=frozenset(one(o.recalled)),
                           walkover=rename.get(o.walkover, o.walkover), misspelt=(), maybe_dealt=(), maybe_gone=()))
    return out


def _unknown(ways: list[Settlement], said: dict[str, int], why: str, unknown: str) -> Settlement:
    """A hand settled more than one way: what they share; a `Net` claim is wrong only for
    a player it gives a net that no way does."""
    s = ways[0]
    s.findings = [f for f in s.findings if f[0] != "wrong-settlement"]
    if all(w.net is not None for w in ways):
        for p, n in said.items():
            if not any(p in w.net for w in ways):
                continue  # a name not in the hand (a typo) is not judged
            nets = sorted({w.net.get(p, 0) for w in ways})
            if n not in nets:
                s.findings.append(("wrong-settlement", p, f"the table settled {p} at {n:+d}; the rules give "
                                   + " or ".join(f"{m:+d}" for m in nets) + f", as {why}",
                                   "nets: " + "; ".join(dict.fromkeys(  # each way once
                                       ", ".join(f"{q} {m:+d}" for q, m in w.net.items()) for w in ways))))
    if len({w.winner for w in ways}) > 1:
        s.winner, s.won = None, 0
    s.net, s.carry = None, None
    s.unknown = f"{unknown}, and the settlement depends on it"
    return s


def _wrong_net(s: Settlement) -> bool:
    return any(kind == "wrong-settlement" for kind, *_ in s.findings)


def _ante_claims(claim, dealt, antes, exempt):
    """An `Ante` claim against who owed an ante; one that names a player the hand does not
    deal in (a typo, usually) is not judged: who it meant is not known."""
    said = set(dealt) if claim == "all" else set() if claim == "none" else set(claim)
    if said - set(dealt):
        return []
    paid = set(antes)
    out = []
    for p in sorted(said ^ paid):
        if p in said:
            out.append(("wrong-ante", p, f"the table says {p} anted, but {p} was exempt after the last hand",
                        f"exempt: {', '.join(sorted(exempt)) or 'nobody'}"))
        else:
            out.append(("wrong-ante", p, f"{p} owed an ante that the table does not list",
                        f"exempt: {', '.join(sorted(exempt)) or 'nobody'}"))
    return out


def _trick_claims(claim, tricks, names):
    """A `Tricks` claim against the replay; a name not in the hand (a typo) is not judged."""
    if not claim or tricks is None:
        return []
    return [("wrong-trick-count", p,
             f"the table counted {n} trick{'' if n == 1 else 's'} for {p}; the replay gives {tricks.get(p, 0)}",
             f"tricks won: {', '.join(f'{q} {m}' for q, m in tricks.items())}")
            for p, n in claim if p in names and tricks.get(p, 0) != n]


def _net_claims(claim, net):
    """A `Net` claim against the settlement; a name not in the hand (a typo) is not judged."""
    if not claim or net is None:
        return []
    return [("wrong-settlement", p, f"the table settled {p} at {n:+d}; the rules give {net.get(p, 0):+d}",
             f"nets: {', '.join(f'{q} {m:+d}' for q, m in net.items())}")
            for p, n in claim if p in net and net[p] != n]


POT = "(the pot)"  # the party that holds the chips left on the table


def transfers(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    """The fewest payments that square every net: (payer, payee, chips).  The nets must
    sum to zero (give the pot's change as a party, ``POT``).  Exact up to 14 parties with
    a nonzero net (the most zero-sum groups, each squared with one payment fewer than it
    has parties); past that, the largest debt pays the largest credit."""
    parties = [(p, n) for p, n in nets.items() if n]
    if sum(n for _, n in parties):
        raise ValueError("nets that do not sum to zero cannot be squared")
    groups = _zero_sum_groups(parties) if len(parties) <= 14 else [parties]
    out: list[tuple[str, str, int]] = []
    for group in groups:
        debts = sorted(([p, -n] for p, n in group if n < 0), key=lambda x: -x[1])
        credits = sorted(([p, n] for p, n in group if n > 0), key=lambda x: -x[1])
        i = j = 0
        while i < len(debts) and j < len(credits):
            chips = min(debts[i][1], credits[j][1])
            out.append((debts[i][0], credits[j][0], chips))
            debts[i][1] -= chips
            credits[j][1] -= chips
            i += debts[i][1] == 0
            j += credits[j][1] == 0
    return out


def _zero_sum_groups(parties: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The parties split into the most groups that each sum to zero (exact, by subsets)."""
    k = len(parties)
    total = [0] * (1 << k)
    most = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + parties[low][1]
        most[mask] = max(most[mask & ~(1 << i)] for i in range(k) if mask >> i & 1) + (total[mask] == 0)
    order, mask = [], (1 << k) - 1
    while mask:  # undo the best build, one party at a time
        i = next(i for i in range(k) if mask >> i & 1
                 and most[mask & ~(1 << i)] == most[mask] - (total[mask] == 0))
        order.append(i)
        mask &= ~(1 << i)
    groups, current, running = [], [], 0
    for i in reversed(order):  # built up again, a group closes each time the sum is zero
        current.append(parties[i])
        running += parties[i][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups
