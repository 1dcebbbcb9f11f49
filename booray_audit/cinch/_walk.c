/* The plain walk, compiled: judge/plain.py's _Walk.walk (the deals, the up-card, each
 * declaration in turn with its cards, the draw and its reshuffles, the order of play,
 * every play legal, each play's cinch duties), the Python walk kept as the reference.
 * Included by _search.c, whose rules of play, Hall check and search it uses.
 *
 * It answers for a hand the Python walk takes whole, with the Replay's fields, or None
 * where the Python walk must run (a hand that is not plain, a play out of turn or
 * illegal, a cinch the search shows or cannot settle within the first try, a position
 * it does not take, a lead of a plain card when no other player can hold trump): a hand
 * it leaves is walked by the Python road from the start, so that road alone decides
 * every hand with a finding or a doubt.  tests/test_plain_compiled.py holds the two to
 * each other hand by hand. */

#define MAXT 16  /* tricks */

typedef struct {
    Search rules;           /* n, trump and the duties; me set per position */
    int cards;              /* cards dealt each, and so tricks */
    int seat[MAXT][MAXS];   /* who played each card of each trick, in the order of play */
    int card[MAXT][MAXS];
    u64 post[MAXS];         /* each active player's hand after the draw */
    u64 out[MAXS];          /* the discards each knows out of play */
    u64 before[MAXS][MAXT + 2];  /* index t: the cards the seat played before trick t */
    u64 played[MAXT + 2];   /* index t: every card played before trick t */
    int up, up_seat, keeps; /* the up-card, the dealer's seat (-1: not active), kept by it */
    int up_played;          /* the trick the dealer played the up-card at (MAXT + 1: never) */
    int need, cinch_last;
    long long first;        /* the search's first try, in nodes */
} Walk;

enum { KEPT = 0, LEAVE = 1 };  /* a duty kept (or no duty), or the hand left to Python */

static inline u64 whole(const Walk *w, int p, int t) { return w->post[p] & ~w->before[p][t]; }

/* Knowledge.keeps_up for a plain hand: the dealer drew nothing and has not played it */
static inline int keeps_up(const Walk *w, int t) { return w->keeps && w->up_played >= t; }

/* position.position over plain.Plain: P's view before playing to trick t, the first
 * ``seq`` cards of it played; counts, forbidden and holds per seat, and the unseen cards */
static u64 view(const Walk *w, int p, int t, int seq, int *cnt, u64 *forb, u64 *hold)
{
    const Search *s = &w->rules;
    int n = s->n;
    u64 hand = whole(w, p, t), played = 0;
    for (int i = 0; i < n; i++) {
        cnt[i] = w->cards;
        forb[i] = hold[i] = 0;
    }
    for (int k = 1; k <= t; k++) {
        int upto = k < t ? n : seq, best = 0;
        const int *seats = w->seat[k - 1], *cards = w->card[k - 1];
        for (int j = 0; j < upto; j++) {
            int q = seats[j], c = cards[j];
            if (q != p && j) {
                u64 shown = reveal(s, c, cards, j, best);
                if (shown) {
                    u64 held = w->post[q] & ~w->before[q][k] & ~(1ull << c);
                    if (q == w->up_seat && keeps_up(w, k) && c != w->up)
                        held |= 1ull << w->up;
                    if (!(shown & held))
                        forb[q] |= shown;
                }
            }
            cnt[q]--;
            played |= 1ull << c;
            if (!j || beats(c, best, s->trump))
                best = c;
        }
    }
    u64 full = 0;
    for (int x = 0; x < 4; x++)
        full |= suit_mask(x);
    u64 unseen = full & ~played & ~hand & ~w->out[p];
    if (unseen >> w->up & 1) {  /* only the dealer, who draws last, can have the up-card */
        for (int j = 0; j < n; j++)
            if (j != w->up_seat)
                forb[j] |= 1ull << w->up;
        if (w->up_seat >= 0 && keeps_up(w, t))
            hold[w->up_seat] = 1ull << w->up;
    }
    cnt[p] = 0;
    for (int i = 0; i < n; i++)
        forb[i] &= unseen;
    return unseen;
}

/* position._possible: the unseen cards some opponent still holding cards may hold */
static u64 may_hold(u64 unseen, const int *cnt, const u64 *forb, int n)
{
    u64 out = 0;
    for (int j = 0; j < n; j++)
        if (cnt[j])
            out |= unseen & ~forb[j];
    return out;
}

/* cinch.judge (its compiled first try) on P's view before playing the (seq+1)th card of
 * trick t, P having won ``won`` tricks: KEPT where the search shows no cinch, else LEAVE
 * (a cinch, a contradiction, a position past the first try or not taken) */
static int no_cinch(Walk *w, int p, int t, int seq, int won)
{
    int k = w->need - won;
    if (k <= 0)
        return LEAVE;  /* won already: a cinch */
    int n = w->rules.n, cnt[MAXS];
    u64 forb[MAXS], hold[MAXS];
    u64 unseen = view(w, p, t, seq, cnt, forb, hold);
    u64 hand = whole(w, p, t);
    int size = pc(hand);
    unsigned in = 0;
    for (int j = 0; j < seq; j++)
        in |= 1u << w->seat[t - 1][j];
    for (int i = 0; i < n; i++)
        if (i != p && cnt[i] < size - (int)(in >> i & 1))
            return LEAVE;  /* _dealable: a record that contradicts itself */
    if (!feasible(unseen, cnt, forb, hold, n))
        return LEAVE;
    Search s = w->rules;
    s.me = p;
    long long nodes;
    int res = search_position(&s, hand, unseen, cnt, forb, hold, w->seat[t - 1], w->card[t - 1], seq, k,
                              w->first, &nodes);
    return res == 0 ? KEPT : LEAVE;
}

/* PlayChecks._as_high for a plain hand: P's ``c`` is as high as ``top``, no card still in
 * play outside P's hand between them (Knowledge.equivalent, separating, out_of_reach) */
static int as_high(const Walk *w, int p, int t, int seq, int c, int top)
{
    if (c == top)
        return 1;
    if ((c >> 4) != (top >> 4))
        return 0;
    u64 gone = whole(w, p, t) | w->out[p] | w->played[t];
    for (int j = 0; j < seq; j++)
        gone |= 1ull << w->card[t - 1][j];
    u64 between = above(c) & ~above(top) & ~(1ull << top) & ~gone;
    if (!between)
        return 1;
    int cnt[MAXS];
    u64 forb[MAXS], hold[MAXS];
    u64 unseen = view(w, p, t, seq, cnt, forb, hold);
    return !(between & ~(unseen & ~may_hold(unseen, cnt, forb, w->rules.n)));
}

/* PlayChecks._lead_checks: the cinch lead and, where the rules have it, the duty to lead
 * trump when no other player can hold one */
static int lead(Walk *w, int p, int t, int c, int cinch, int lead_trump, const int *won)
{
    int trump = w->rules.trump;
    if (cinch) {
        u64 trumps = whole(w, p, t) & suit_mask(trump);
        if (trumps) {
            int top = top_bit(trumps);
            if (!as_high(w, p, t, 0, c, top) && no_cinch(w, p, t, 0, won[p]) != KEPT)
                return LEAVE;
        }
    }
    if (lead_trump && (c >> 4) != trump) {
        int cnt[MAXS];
        u64 forb[MAXS], hold[MAXS];
        u64 unseen = view(w, p, t, 0, cnt, forb, hold);
        if (whole(w, p, t) & suit_mask(trump) && !(may_hold(unseen, cnt, forb, w->rules.n) & suit_mask(trump)))
            return LEAVE;
    }
    return KEPT;
}

/* PlayChecks._cinch_follow: the cinch duties of the (seq+1)th card of trick t */
static int follow(Walk *w, int p, int t, int seq, int c, const int *won)
{
    const Search *s = &w->rules;
    int trump = s->trump, n = s->n;
    const int *prior = w->card[t - 1];
    u64 hand = whole(w, p, t);
    int led = prior[0] >> 4, best = prior[winning(prior, seq, trump)];
    int last = seq == n - 1;
    if (last && w->cinch_last) {
        u64 beaters = (best >> 4) == trump ? above(best) : above(best) | suit_mask(trump);
        u64 winners = legal(s, hand, prior, seq) & beaters;
        if (!winners || beats(c, best, trump))
            return KEPT;
        return no_cinch(w, p, t, seq, won[p]);  /* no card as high: it must win the trick */
    }
    u64 trumps = hand & suit_mask(trump);
    if (!trumps || (led != trump && hand & suit_mask(led)))
        return KEPT;
    if (!(legal(s, hand, prior, seq) & trumps))
        return KEPT;
    return as_high(w, p, t, seq, c, top_bit(trumps)) ? KEPT : no_cinch(w, p, t, seq, won[p]);
}

/* The tricks walked: the order of play (each trick led by the winner of the one before),
 * every play legal, then each play's cinch duties; w's seats and cards filled, w.rules's
 * n the players.  1 with each trick's winner, 0 where the Python walk must decide, -1
 * once a signal stopped a search. */
static int walk(Walk *w, int leader, int cinch, int lead_trump, int *winners)
{
    int n = w->rules.n, trump = w->rules.trump;
    u64 hands[MAXS];
    memcpy(hands, w->post, sizeof hands);
    w->up_played = MAXT + 1;
    for (int i = 0; i < n; i++)
        w->before[i][0] = w->before[i][1] = 0;
    w->played[0] = w->played[1] = 0;
    for (int t = 0; t < w->cards; t++) {
        int *ts = w->seat[t], *tc = w->card[t];
        for (int j = 0; j < n; j++) {
            int q = ts[j], c = tc[j];
            if (q != (leader + j) % n || c < 0 || c > 63 || !(hands[q] >> c & 1)
                || !(legal(&w->rules, hands[q], tc, j) >> c & 1))
                return 0;
            hands[q] &= ~(1ull << c);
            if (q == w->up_seat && c == w->up && w->up_played > t + 1)
                w->up_played = t + 1;
        }
        winners[t] = leader = ts[winning(tc, n, trump)];
        w->played[t + 2] = w->played[t + 1];
        for (int i = 0; i < n; i++)
            w->before[i][t + 2] = w->before[i][t + 1];
        for (int j = 0; j < n; j++) {
            w->before[ts[j]][t + 2] |= 1ull << tc[j];
            w->played[t + 2] |= 1ull << tc[j];
        }
    }
    int won[MAXS] = {0};
    for (int t = 1; t <= w->cards; t++) {
        for (int j = 0; j < n; j++) {
            int p = w->seat[t - 1][j], c = w->card[t - 1][j];
            int verdict = j ? (cinch ? follow(w, p, t, j, c, won) : KEPT) : lead(w, p, t, c, cinch, lead_trump, won);
            if (stopped_by_signal)
                return -1;
            if (verdict != KEPT)
                return 0;
        }
        won[winners[t - 1]]++;
    }
    return 1;
}

/* -- the hand, from its record (judge/plain.py's _Walk.walk up to its tricks) ------------ */

/* the record's classes (setup_walk) and the attribute names read */
enum { R_TRICK, R_DEAL, R_DECISION, R_UP, R_DEALER, R_TRICKS, R_NET, R_POT, R_ANTE, R_KINDS };
static PyObject *rec[R_KINDS];
static PyObject *zero;
static PyObject *a_events, *a_player, *a_cards, *a_action, *a_discards, *a_draws, *a_card, *a_number, *a_plays,
    *a_by_seat, *a_loose, *a_seat_cards, *a_counts, *a_amounts, *a_players;

/* the seat of ``name`` in ``seats``, -1 where none (or not a str), -2 on an error */
static int seat_of(PyObject *name, PyObject *const *seats, int n)
{
    for (int i = 0; i < n; i++) {
        if (seats[i] == name)
            return i;
    }
    if (!PyUnicode_Check(name))
        return -1;
    for (int i = 0; i < n; i++) {
        int eq = PyUnicode_Compare(name, seats[i]);
        if (eq == -1 && PyErr_Occurred())
            return -2;
        if (!eq)
            return i;
    }
    return -1;
}

/* obj.attr's seat, as seat_of */
static int seat_at(PyObject *obj, PyObject *attr, PyObject *const *seats, int n)
{
    PyObject *name = PyObject_GetAttr(obj, attr);
    if (!name)
        return -2;
    int at = seat_of(name, seats, n);
    Py_DECREF(name);
    return at;
}

/* an exact int within a long into *v: 1, else 0 (no error set) */
static int small_int(PyObject *o, long *v)
{
    int over = 0;
    if (!PyLong_CheckExact(o))
        return 0;
    *v = PyLong_AsLongAndOverflow(o, &over);
    return !over && !(*v == -1 && PyErr_Occurred());
}

/* a tuple of known cards (0..63, a rank) as a mask, with its size in *count; 0 with
 * *count -1 for anything else */
static u64 mask_of_cards(PyObject *cards, int *count)
{
    *count = -1;
    if (!PyTuple_Check(cards))
        return 0;
    u64 m = 0;
    Py_ssize_t k = PyTuple_GET_SIZE(cards);
    for (Py_ssize_t i = 0; i < k; i++) {
        long v;
        if (!small_int(PyTuple_GET_ITEM(cards, i), &v) || v < 0 || v > 63 || !(v & 15))
            return 0;
        m |= 1ull << v;
    }
    *count = (int)k;
    return m;
}

/* every name a claim names is seated (record.naming) and, for `Tricks`, the seats the
 * table gives a trick (*counted): 1, 0 where not, -1 on an error */
static int claim_seated(PyObject *e, int kind, PyObject *const *seats, int n, unsigned *counted)
{
    PyObject *attr = kind == R_TRICKS ? a_counts : kind == R_NET ? a_amounts : kind == R_ANTE ? a_players : NULL;
    if (!attr)
        return 1;  /* `Pot` names nobody */
    PyObject *names = PyObject_GetAttr(e, attr);
    if (!names)
        return -1;
    int ok = 1;
    if (!PyTuple_Check(names))
        ok = kind == R_ANTE;  /* `Ante all` or `Ante none` */
    for (Py_ssize_t i = 0; ok == 1 && PyTuple_Check(names) && i < PyTuple_GET_SIZE(names); i++) {
        PyObject *x = PyTuple_GET_ITEM(names, i), *name = x;
        if (kind != R_ANTE) {
            if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) != 2) {
                ok = 0;
                break;
            }
            name = PyTuple_GET_ITEM(x, 0);
        }
        int at = seat_of(name, seats, n);
        ok = at == -2 ? -1 : at >= 0;
        if (ok == 1 && kind == R_TRICKS) {
            PyObject *won = PyTuple_GET_ITEM(x, 1);
            if (!PyLong_CheckExact(won))
                ok = 0;
            else {
                int more = PyObject_RichCompareBool(won, zero, Py_GT);
                if (more < 0)
                    ok = -1;
                else if (more)
                    *counted |= 1u << at;
            }
        }
    }
    Py_DECREF(names);
    return ok;
}

static int is_int(PyObject *o, long v)
{
    long x;
    return small_int(o, &x) && x == v;
}

/* walk_hand(hand, seats, dealer, cards, limits, folded_first, must_beat, must_trump,
 *           must_overtrump, may_keep, cinch, cinch_last, lead_trump, need, first)
 *   -> (trump, active, passed, discards, won, plays) or None
 * judge/plain.py's walk, for a hand of `Seats` (``seats``, the dealer among them) under
 * the winner's lead and the dealer's up-card: the deals, the up-card, each declaration
 * in turn with its cards, the draw and its reshuffles, then the tricks (walk).  The
 * Replay's fields as the Python walk makes them: the active players in seat order, the
 * passed in declaration order, each active player's discards counted and tricks won
 * (dicts), every play (trick, place in it, name, card, won it); None where the Python
 * walk must decide.  ``limits``: the most cards each
 * place from the dealer's left may discard. */
static PyObject *walk_hand(PyObject *self, PyObject *args)
{
    (void)self;
    static Walk w;
    PyObject *hand, *seat_list, *dealer_name, *limit_list;
    int cards, folded_first, must_beat, must_trump, must_overtrump, may_keep, cinch, cinch_last, lead_trump, need;
    long long first;
    if (!PyArg_ParseTuple(args, "OO!OiO!iiiiiiiiiL", &hand, &PyList_Type, &seat_list, &dealer_name, &cards,
                          &PyTuple_Type, &limit_list, &folded_first, &must_beat, &must_trump, &must_overtrump,
                          &may_keep, &cinch, &cinch_last, &lead_trump, &need, &first))
        return NULL;
    if (!rec[0]) {
        PyErr_SetString(PyExc_RuntimeError, "walk_hand: setup_walk first");
        return NULL;
    }
    int S = (int)PyList_GET_SIZE(seat_list);
    if (S < 2 || S > MAXS || cards < 1 || cards > MAXT || PyTuple_GET_SIZE(limit_list) != S)
        Py_RETURN_NONE;
    PyObject *const *seats = &PyList_GET_ITEM(seat_list, 0);
    for (int i = 0; i < S; i++)
        for (int j = 0; j < i; j++) {
            int eq = PyObject_RichCompareBool(seats[i], seats[j], Py_EQ);
            if (eq)
                return eq < 0 ? NULL : Py_NewRef(Py_None);
        }
    int dealer = seat_of(dealer_name, seats, S);
    if (dealer < 0)
        return dealer == -2 ? NULL : Py_NewRef(Py_None);
    PyObject *events = PyObject_GetAttr(hand, a_events);
    if (!events)
        return NULL;
    PyObject *res = NULL;
    if (!PyTuple_Check(events)) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    /* the events: every seat's deal once, the first `Up`, a `Dealer` line naming the dealer
     * once, the claims naming seated players; anything else is for the full replay */
    PyObject *deal_of[MAXS] = {0}, *decisions[MAXS], *tricks[MAXT];
    int ndecisions = 0, ntricks = 0, up = -1, dealers = 0;
    unsigned counted = 0;
    Py_ssize_t nev = PyTuple_GET_SIZE(events);
#define DECLINE do { res = Py_NewRef(Py_None); goto done; } while (0)
#define FAIL do { goto done; } while (0)
    for (Py_ssize_t i = 0; i < nev; i++) {
        PyObject *e = PyTuple_GET_ITEM(events, i);
        PyObject *kind = (PyObject *)Py_TYPE(e);
        if (kind == rec[R_TRICK]) {
            if (ntricks == cards)
                DECLINE;
            tricks[ntricks++] = e;
        } else if (kind == rec[R_DEAL]) {
            int at = seat_at(e, a_player, seats, S);
            if (at == -2)
                FAIL;
            if (at < 0 || deal_of[at])
                DECLINE;  /* a deal to no seat: deals.keys() != seated */
            deal_of[at] = e;
        } else if (kind == rec[R_DECISION]) {
            if (ndecisions == S)
                DECLINE;
            decisions[ndecisions++] = e;
        } else if (kind == rec[R_UP] && up < 0) {
            PyObject *c = PyObject_GetAttr(e, a_card);
            if (!c)
                FAIL;
            long v;
            if (!small_int(c, &v))
                v = -1;
            Py_DECREF(c);
            if (v < 0 || v > 63 || !(v & 15))
                DECLINE;  /* no card, or one without a rank */
            up = (int)v;
        } else if (kind == rec[R_DEALER] && !dealers) {
            int at = seat_at(e, a_player, seats, S);
            if (at == -2)
                FAIL;
            if (at != dealer)
                DECLINE;
            dealers = 1;
        } else if (kind == rec[R_TRICKS] || kind == rec[R_NET] || kind == rec[R_POT] || kind == rec[R_ANTE]) {
            int k = kind == rec[R_TRICKS] ? R_TRICKS : kind == rec[R_NET] ? R_NET : kind == rec[R_POT] ? R_POT : R_ANTE;
            int ok = claim_seated(e, k, seats, S, &counted);
            if (ok < 0)
                FAIL;
            if (!ok)
                DECLINE;
        } else
            DECLINE;
    }
    if (up < 0 || ntricks != cards)
        DECLINE;
    u64 dealt[MAXS], every = 0;
    for (int p = 0; p < S; p++) {
        if (!deal_of[p])
            DECLINE;
        PyObject *cs = PyObject_GetAttr(deal_of[p], a_cards);
        if (!cs)
            FAIL;
        int k;
        dealt[p] = mask_of_cards(cs, &k);
        Py_DECREF(cs);
        if (k != cards || pc(dealt[p]) != cards || dealt[p] & every)
            DECLINE;
        every |= dealt[p];
    }
    if (!(dealt[dealer] >> up & 1))
        DECLINE;  /* the up-card is the dealer's */
    /* each seat's one declaration, in turn from the dealer's left */
    if (ndecisions != S)
        DECLINE;
    int played[MAXS] = {0}, order[MAXS], count[MAXS] = {0};
    u64 gone[MAXS] = {0}, got[MAXS] = {0};
    PyObject *passed = PyList_New(0), *discards = PyDict_New();
    if (!passed || !discards) {
        Py_XDECREF(passed);
        Py_XDECREF(discards);
        FAIL;
    }
    for (int k = 0; k < S; k++) {
        PyObject *d = decisions[k];
        int p = order[k] = (dealer + 1 + k) % S;
        int at = seat_at(d, a_player, seats, S);
        PyObject *action = at == p ? PyObject_GetAttr(d, a_action) : NULL;
        PyObject *dis = action ? PyObject_GetAttr(d, a_discards) : NULL;
        PyObject *dra = dis ? PyObject_GetAttr(d, a_draws) : NULL;
        int ok = dra != NULL;
        if (ok && PyUnicode_Check(action) && !PyUnicode_CompareWithASCIIString(action, "pass")) {
            ok = dis == Py_None && dra == Py_None && !(p == dealer && (up & 15) == 14)
                 && PyList_Append(passed, seats[p]) == 0;
        } else if (ok && PyUnicode_Check(action) && !PyUnicode_CompareWithASCIIString(action, "play")) {
            played[p] = 1;
            if (is_int(dis, 0) && dra == Py_None) {
                count[p] = 0;
            } else if (PyTuple_Check(dis) && PyTuple_Check(dra) && PyTuple_GET_SIZE(dis)) {
                int nd, nr;
                gone[p] = mask_of_cards(dis, &nd);
                got[p] = mask_of_cards(dra, &nr);
                long most;
                if (!small_int(PyTuple_GET_ITEM(limit_list, k), &most))
                    most = -1;
                ok = nd >= 0 && nr == nd && pc(gone[p]) == nd && pc(got[p]) == nd && nd <= most
                     && !(gone[p] & ~dealt[p]);
                count[p] = nd;
            } else
                ok = 0;
            if (ok) {
                PyObject *how_many = PyLong_FromLong(count[p]);
                ok = how_many && PyDict_SetItem(discards, seats[p], how_many) == 0;
                Py_XDECREF(how_many);
            }
        } else
            ok = 0;
        Py_XDECREF(action);
        Py_XDECREF(dis);
        Py_XDECREF(dra);
        if (!ok) {
            Py_DECREF(passed);
            Py_DECREF(discards);
            if (PyErr_Occurred())
                FAIL;
            DECLINE;
        }
    }
    /* the stock: past its end the discards of those who drew before are shuffled into a
     * new one, and whose discards went into it no longer knows them out of play */
    int stock = 52 - S * cards, pile = 0, last = -1, drawing[MAXS], nd = 0, total = 0;
    for (int k = 0; k < S; k++)
        if (played[order[k]]) {
            drawing[nd++] = order[k];
            total += count[order[k]];
        }
    int fine = !(folded_first && PyList_GET_SIZE(passed) && total > stock);
    for (int j = 0; fine && j < nd; j++) {
        int p = drawing[j];
        if (count[p] > stock) {
            stock = stock + pile - count[p];
            pile = 0;
            last = j;
        } else
            stock -= count[p];
        pile += count[p];
    }
    u64 thrown = 0, taken = 0;
    for (int j = 0; j < nd; j++)
        thrown |= gone[drawing[j]];
    for (int j = 0; fine && j < nd; j++) {
        int p = drawing[j];
        u64 back = got[p] & every;  /* dealt to someone: only a discard of another's, come back */
        if (got[p] & taken || (back && (last < 0 || back & ~(thrown & ~gone[p]))))
            fine = 0;
        taken |= got[p];
    }
    unsigned passed_mask = 0;
    for (int p = 0; p < S; p++)
        if (!played[p])
            passed_mask |= 1u << p;
    if (!fine || nd < 2 || counted & passed_mask) {
        Py_DECREF(passed);
        Py_DECREF(discards);
        DECLINE;
    }
    /* the active players in seat order; the walk's arrays by place among them */
    int place[MAXS], active[MAXS], n = 0;
    for (int p = 0; p < S; p++) {
        place[p] = played[p] ? n : -1;
        if (played[p])
            active[n++] = p;
    }
    Search rules = {n, 0, up >> 4, must_beat, must_trump, must_overtrump, may_keep, 0, 0, 0, 0, 0, 0, 0, 0};
    w.rules = rules;
    w.cards = cards;
    w.up = up;
    w.up_seat = place[dealer];
    w.keeps = played[dealer] && count[dealer] == 0;
    w.need = need, w.cinch_last = cinch_last, w.first = first;
    for (int j = 0; j < nd; j++) {
        int p = drawing[j];
        w.post[place[p]] = (dealt[p] & ~gone[p]) | got[p];
        w.out[place[p]] = last >= 0 && j < last ? 0 : gone[p];  /* forgotten in a reshuffle */
    }
    /* the tricks as written: numbered in order, each with every active player's card */
    int ok = 1;
    PyObject *shown[MAXT][MAXS];  /* each play, (name, card) as the record has it */
    for (int t = 0; ok && t < cards; t++) {
        PyObject *tr = tricks[t];
        PyObject *number = PyObject_GetAttr(tr, a_number), *by_seat = NULL, *loose = NULL, *seat_cards = NULL,
                 *plays = NULL;
        ok = number && is_int(number, t + 1) && (by_seat = PyObject_GetAttr(tr, a_by_seat))
             && (loose = PyObject_GetAttr(tr, a_loose)) && (seat_cards = PyObject_GetAttr(tr, a_seat_cards))
             && (plays = PyObject_GetAttr(tr, a_plays)) && by_seat == Py_False && loose == Py_False
             && PyTuple_Check(seat_cards) && !PyTuple_GET_SIZE(seat_cards) && PyTuple_Check(plays)
             && PyTuple_GET_SIZE(plays) == n;
        for (int j = 0; ok && j < n; j++) {
            PyObject *pl = PyTuple_GET_ITEM(plays, j);
            long c = -1;
            ok = PyTuple_Check(pl) && PyTuple_GET_SIZE(pl) == 2 && small_int(PyTuple_GET_ITEM(pl, 1), &c);
            int at = ok ? seat_of(PyTuple_GET_ITEM(pl, 0), seats, S) : -1;
            ok = at >= 0 && place[at] >= 0 && c >= 0 && c <= 63;
            if (ok) {
                w.seat[t][j] = place[at];
                w.card[t][j] = (int)c;
                shown[t][j] = pl;
            }
        }
        Py_XDECREF(number);
        Py_XDECREF(by_seat);
        Py_XDECREF(loose);
        Py_XDECREF(seat_cards);
        Py_XDECREF(plays);
    }
    int winners[MAXT], walked = 0;
    if (ok && !PyErr_Occurred())
        walked = walk(&w, place[drawing[0]], cinch, lead_trump, winners);  /* the first to declare play */
    if (walked != 1 || PyErr_Occurred()) {
        Py_DECREF(passed);
        Py_DECREF(discards);
        if (walked < 0)
            res = answer(NULL);
        else if (!PyErr_Occurred())
            res = Py_NewRef(Py_None);
        goto done;
    }
    /* the Replay's active players, tricks won and plays, as plain.py's walk makes them */
    PyObject *act = PyList_New(n), *won = PyDict_New(), *plays = PyList_New(cards * n);
    ok = act && won && plays;
    int tally[MAXS] = {0};
    for (int t = 0; t < cards; t++)
        tally[winners[t]]++;
    for (int j = 0; ok && j < n; j++) {
        PyList_SET_ITEM(act, j, Py_NewRef(seats[active[j]]));
        PyObject *wins = PyLong_FromLong(tally[j]);
        ok = wins && PyDict_SetItem(won, seats[active[j]], wins) == 0;
        Py_XDECREF(wins);
    }
    for (int t = 0; ok && t < cards; t++)
        for (int j = 0; ok && j < n; j++) {
            PyObject *pl = shown[t][j];
            PyObject *play = Py_BuildValue("(iiOOO)", t + 1, j, PyTuple_GET_ITEM(pl, 0), PyTuple_GET_ITEM(pl, 1),
                                           w.seat[t][j] == winners[t] ? Py_True : Py_False);
            ok = play != NULL;
            if (ok)
                PyList_SET_ITEM(plays, t * n + j, play);
        }
    if (ok)
        res = Py_BuildValue("(iNNNNN)", up >> 4, act, passed, discards, won, plays);
    else {
        Py_XDECREF(act);
        Py_XDECREF(won);
        Py_XDECREF(plays);
        Py_DECREF(passed);
        Py_DECREF(discards);
    }
done:
    Py_DECREF(events);
    return res;
#undef DECLINE
#undef FAIL
}

/* setup_walk(Trick, Deal, Decision, Up, Dealer, TricksClaim, NetClaim, PotClaim, Ante) */
static PyObject *setup_walk(PyObject *self, PyObject *args)
{
    (void)self;
    if (PyTuple_GET_SIZE(args) != R_KINDS) {
        PyErr_SetString(PyExc_TypeError, "setup_walk: the nine record classes");
        return NULL;
    }
    for (int k = 0; k < R_KINDS; k++)
        Py_XSETREF(rec[k], Py_NewRef(PyTuple_GET_ITEM(args, k)));
    const char *names[] = {"events", "player", "cards", "action", "discards", "draws", "card", "number", "plays",
                           "by_seat", "loose", "seat_cards", "counts", "amounts", "players"};
    PyObject **attrs[] = {&a_events, &a_player, &a_cards, &a_action, &a_discards, &a_draws, &a_card, &a_number,
                          &a_plays, &a_by_seat, &a_loose, &a_seat_cards, &a_counts, &a_amounts, &a_players};
    for (int i = 0; i < 15; i++)
        if (!*attrs[i] && !(*attrs[i] = PyUnicode_InternFromString(names[i])))
            return NULL;
    if (!zero && !(zero = PyLong_FromLong(0)))
        return NULL;
    Py_RETURN_NONE;
}
