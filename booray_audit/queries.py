"""Reports over the store: personal records and ledgers."""

from __future__ import annotations

import duckdb

from .store import PLAYER_RECORD


def stats(con: duckdb.DuckDBPyConnection, player: str | None = None, since: str | None = None,
          until: str | None = None):
    """(columns, rows) of the personal record: one row per player, or the one asked for."""
    outer, inner, dates = ["TRUE"], ["TRUE"], []
    for value, op in ((since, ">="), (until, "<=")):
        if value:
            outer.append(f"s.date {op} CAST(? AS DATE)")
            inner.append(f"s2.date {op} CAST(? AS DATE)")
            dates.append(value)
    if player:
        outer.append("hp.player = ?")
    sql = PLAYER_RECORD.format(where=" AND ".join(outer), where2=" AND ".join(inner))
    # the subquery's placeholders come first in the text, then the outer WHERE's
    cur = con.execute(sql, dates + dates + ([player] if player else []))
    return [d[0] for d in cur.description], cur.fetchall()


def players_like(con: duckdb.DuckDBPyConnection, name: str) -> list[str]:
    """Stored player names close to ``name`` (for a name typed another way)."""
    from .record import closest
    return closest(name, [p for (p,) in con.execute("SELECT DISTINCT player FROM hand_players").fetchall()])


def ledger(con, session: str | None = None):
    """Per session and player: the net; plus the pot left on the table per session."""
    where = "WHERE h.session_id = ?" if session else ""
    params = [session] if session else []
    rows = con.execute(f"""
        SELECT h.session_id, any_value(s.event) AS event, any_value(s.date) AS date, hp.player,
               sum(hp.net) AS net
        FROM hand_players hp JOIN hands h USING (hand_id) JOIN sessions s USING (session_id)
        {where}
        GROUP BY h.session_id, hp.player
        ORDER BY any_value(s.date) NULLS LAST, h.session_id, net DESC, hp.player""", params).fetchall()
    pots = con.execute(f"""
        SELECT h.session_id, arg_max(h.carry, h.number) AS pot_left
        FROM hands h {where} GROUP BY h.session_id""", params).fetchall()
    overall = con.execute(f"""
        SELECT hp.player, sum(hp.net) AS net FROM hand_players hp JOIN hands h USING (hand_id)
        {where} GROUP BY hp.player ORDER BY net DESC, hp.player""", params).fetchall()
    return rows, dict(pots), overall
