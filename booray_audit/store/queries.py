"""Reports over the store: personal records, ledgers, aliases, hands picked out as BHH."""

from __future__ import annotations

import os
from dataclasses import dataclass

import duckdb

from ..record import printable
from .schema import PLAYER_RECORD

GROUPS = {"month": "coalesce(strftime(s.date, '%Y-%m'), '(no date)')",
          "event": "coalesce(s.event, '(no event)')",
          "session": "s.session_id"}
RECORD_COLUMNS = ("player", "hands", "played", "passed", "pots_won", "chips_won", "bourres", "chips_paid",
                  "antes_paid", "net", "biggest_pot", "win_rate", "bourre_rate", "violations", "recalls",
                  "deals_forfeited")


@dataclass(frozen=True)
class Scope:
    """Which stored hands a report covers (every field optional)."""
    since: str | None = None  # ISO dates, the session's [Date]
    until: str | None = None
    event: str | None = None  # the [Event], any case
    source: str | None = None  # the file imported, as typed then or by its path
    session: str | None = None  # a session id, or the start of one

    def where(self) -> tuple[str, list]:
        sql, params = ["TRUE"], []
        for value, cond in ((self.since, "s.date >= CAST(? AS DATE)"), (self.until, "s.date <= CAST(? AS DATE)"),
                            (self.event, "lower(s.event) = lower(?)"),
                            (self.session, "starts_with(s.session_id, ?)")):
            if value:
                sql.append(cond)
                params.append(value)
        if self.source:
            sql.append("(s.file = ? OR s.origin = ?)")
            # file names are stored as they can be shown (``record.printable``)
            params += [printable(self.source), printable(os.path.abspath(self.source))]
        return " AND ".join(sql), params


def stats(con: duckdb.DuckDBPyConnection, player: str | None = None, scope: Scope = Scope(),
          by: str | None = None, sort: str = "net"):
    """(columns, rows) of the personal record: one row per player (and group, ``by`` one
    of GROUPS), or the one asked for (a name or any of its aliases); largest ``sort`` first."""
    where, params = scope.where()
    key = GROUPS[by] if by else "NULL::VARCHAR"
    hands = f"SELECT h.hand_id, {key} AS grp FROM hands h JOIN sessions s USING (session_id) WHERE {where}"
    order = "player" if sort == "player" else f"{sort} DESC NULLS LAST, player"
    sql = f"SELECT * FROM ({PLAYER_RECORD.format(scope=hands)}) WHERE (CAST(? AS VARCHAR) IS NULL OR player = ?) ORDER BY grp, {order}"
    name = canonical(con, player) if player else None
    cur = con.execute(sql, params + [name, name])
    columns = [d[0] for d in cur.description]
    rows = cur.fetchall()
    if by:
        return [by] + columns[1:], rows
    return columns[1:], [r[1:] for r in rows]


def canonical(con, name: str) -> str:
    """The name a player's record is kept under (``name`` itself unless an alias)."""
    row = con.execute("SELECT player FROM aliases WHERE alias = ?", [name]).fetchone()
    return row[0] if row else name


def players_like(con: duckdb.DuckDBPyConnection, name: str) -> list[str]:
    """Stored player names close to ``name`` (for a name typed another way)."""
    from ..record import closest
    return closest(name, [p for (p,) in con.execute("SELECT DISTINCT player FROM hand_players").fetchall()])


APART = "no stored hand is in that scope: each part of it matches, but not all together"


def unmatched(con, scope: Scope, player: str | None = None) -> str | None:
    """Why a report in this scope (and for this player) has nothing, where a name or id
    in it matches nothing stored (a typo, most often): that part, with the stored names
    close to what was typed.  None where each names something stored (``APART``: they
    match only apart).  Dates are no such part: a week with no game is an answer."""
    from ..record import closest
    if player and not con.execute("SELECT 1 FROM hand_players WHERE player = ? LIMIT 1",
                                  [canonical(con, player)]).fetchone():
        like = players_like(con, player)
        return f"no hands stored for {player}" + (f"; did you mean {' or '.join(like)}?" if like else "")
    if scope.session and not con.execute("SELECT 1 FROM sessions WHERE starts_with(session_id, ?) LIMIT 1",
                                         [scope.session]).fetchone():
        return f"no stored session has an id starting {scope.session} (`ledger --ids` shows them)"
    if scope.event and not con.execute("SELECT 1 FROM sessions WHERE lower(event) = lower(?) LIMIT 1",
                                       [scope.event]).fetchone():
        names = [e for (e,) in con.execute("SELECT DISTINCT event FROM sessions WHERE event IS NOT NULL").fetchall()]
        like = closest(scope.event, names)
        return f"no stored session of the event {scope.event}" + (
            f"; did you mean {' or '.join(like)}?" if like else "")
    if scope.source:
        where, params = Scope(source=scope.source).where()
        if not con.execute(f"SELECT 1 FROM sessions s WHERE {where} LIMIT 1", params).fetchone():
            files = [f for (f,) in con.execute("SELECT DISTINCT file FROM sessions").fetchall()]
            like = closest(printable(scope.source), files)
            return f"no stored session was imported from {printable(scope.source)}" + (
                f"; did you mean {' or '.join(like)}?" if like else "")
    return None


def set_aliases(con, player: str, names: list[str]) -> list[str]:
    """Record that ``names`` are ``player`` (one transaction); an alias that was someone
    else's now points here.  Returns the problems that stop it (nothing is changed then)."""
    player = canonical(con, player)
    problems = [f"{n} is the name {player} is kept under; it cannot be an alias of itself"
                for n in names if n == player]
    problems += [f"{n} has aliases of its own ({', '.join(sorted(a))}); make them aliases of {player} first"
                 for n in names
                 for a in [[x for (x,) in con.execute("SELECT alias FROM aliases WHERE player = ?", [n]).fetchall()]]
                 if a]
    if problems:
        return problems
    con.execute("BEGIN")
    con.execute("DELETE FROM aliases WHERE alias IN (SELECT unnest(?::VARCHAR[]))", [names])
    con.execute("INSERT INTO aliases SELECT unnest(?::VARCHAR[]), ?", [names, player])
    con.execute("COMMIT")
    return []


def remove_aliases(con, names: list[str]) -> list[str]:
    """Forget these aliases; returns the names that were not aliases."""
    known = {a for (a,) in con.execute("SELECT alias FROM aliases").fetchall()}
    con.execute("DELETE FROM aliases WHERE alias IN (SELECT unnest(?::VARCHAR[]))", [names])
    return [n for n in names if n not in known]


def aliases(con) -> list[tuple[str, str]]:
    return con.execute("SELECT player, alias FROM aliases ORDER BY player, alias").fetchall()


def ledger(con, session: str | None = None, scope: Scope = Scope()):
    """Per session and player: the net; plus the pot left on the table per session."""
    where, params = scope.where()
    if session:
        where += " AND h.session_id = ?"
        params = params + [session]
    joins = "FROM named_hand_players hp JOIN hands h USING (hand_id) JOIN sessions s USING (session_id)"
    rows = con.execute(f"""
        SELECT h.session_id, any_value(s.event) AS event, any_value(s.date) AS date, hp.player,
               sum(hp.net) AS net
        {joins} WHERE {where}
        GROUP BY h.session_id, hp.player
        ORDER BY any_value(s.date) NULLS LAST, h.session_id, net DESC, player""", params).fetchall()
    pots = con.execute(f"""
        SELECT h.session_id, arg_max(h.carry, h.number) AS pot_left
        FROM hands h JOIN sessions s USING (session_id) WHERE {where} GROUP BY h.session_id""", params).fetchall()
    overall = con.execute(f"""
        SELECT hp.player, sum(hp.net) AS net {joins} WHERE {where}
        GROUP BY hp.player ORDER BY net DESC, player""", params).fetchall()
    return rows, dict(pots), overall


def find(con, scope: Scope = Scope(), player: str | None = None, kind: str | None = None,
         min_pot: int | None = None, disputed: bool = False):
    """The stored hands that match, as (session id, date, event, the session's tags, the
    hand's text), session by session in date order, hands in order; streamed."""
    where, params = scope.where()
    if player:
        where += " AND h.hand_id IN (SELECT hand_id FROM named_hand_players WHERE player = ?)"
        params.append(canonical(con, player))
    if kind:
        where += " AND h.hand_id IN (SELECT hand_id FROM findings WHERE kind = ?)"
        params.append(kind)
    if min_pot is not None:
        where += " AND h.pot >= ?"
        params.append(min_pot)
    if disputed:
        where += " AND h.hand_id IN (SELECT hand_id FROM rulings)"
    cur = con.execute(f"""SELECT s.session_id, s.date, s.event, s.tags_text, h.text
                          FROM hands h JOIN sessions s USING (session_id) WHERE {where}
                          ORDER BY s.date NULLS LAST, s.session_id, h.number""", params)
    while rows := cur.fetchmany(1000):
        yield from rows


def session_hands(con, hand_id: str):
    """The stored hand and the hands of its session before it: (the session's tags,
    [(text, chain state after it)] in order, the hand's number), or None when no hand has
    that id (or a unique start of one)."""
    found = con.execute("SELECT hand_id, session_id, number FROM hands WHERE starts_with(hand_id, ?) LIMIT 2",
                        [hand_id]).fetchall()
    if len(found) != 1:
        return None
    _, session_id, number = found[0]
    tags = con.execute("SELECT tags_text FROM sessions WHERE session_id = ?", [session_id]).fetchone()[0]
    hands = con.execute("SELECT text, state FROM hands WHERE session_id = ? AND number <= ? ORDER BY number",
                        [session_id, number]).fetchall()
    return tags, hands, number


def forgettable(con, scope: Scope) -> list[tuple]:
    """The stored sessions ``scope`` picks: (session_id, date, event, file, hands)."""
    where, params = scope.where()
    return con.execute(f"""SELECT s.session_id, s.date, s.event, s.file,
                                  (SELECT count(*) FROM hands h WHERE h.session_id = s.session_id)
                           FROM sessions s WHERE {where} ORDER BY s.date NULLS LAST, s.file, s.ordinal""",
                       params).fetchall()


def forget(con, session_ids: list[str]) -> int:
    """Remove these sessions, their hands and everything the hands carry, in one
    transaction; a file any of them came from is no longer counted as imported (its next
    import reads it again, and keeps what is still stored).  The number of hands removed."""
    from .schema import CHILDREN
    ids = list(session_ids)
    con.execute("BEGIN")
    try:
        con.execute("CREATE TEMP TABLE gone AS SELECT unnest(?::VARCHAR[]) AS session_id", [ids])
        hands = "(SELECT hand_id FROM hands WHERE session_id IN (SELECT session_id FROM gone))"
        n = con.execute(f"SELECT count(*) FROM {hands}").fetchone()[0]
        for table in CHILDREN:
            con.execute(f"DELETE FROM {table} WHERE hand_id IN {hands}")
        con.execute("""DELETE FROM imports WHERE path IN (SELECT file FROM sessions WHERE session_id IN
                       (SELECT session_id FROM gone)) OR path IN (SELECT origin FROM sessions WHERE session_id IN
                       (SELECT session_id FROM gone))""")
        con.execute("DELETE FROM hands WHERE session_id IN (SELECT session_id FROM gone)")
        con.execute("DELETE FROM sessions WHERE session_id IN (SELECT session_id FROM gone)")
        con.execute("DROP TABLE gone")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return n
