/* The plain walk's tricks, compiled: judge/plain.py's _Walk.walk from its tricks on (the
 * order of play, every play legal, each play's cinch duties), the Python walk kept as the
 * reference.  Included by _search.c, whose rules of play, Hall check and search it uses.
 *
 * It answers for a hand the Python walk takes whole: the winner of each trick, or None
 * where the Python walk must run (a play out of turn or illegal, a cinch the search shows
 * or cannot settle within the first try, a position it does not take, a lead of a plain
 * card when no other player can hold trump): a hand it leaves is walked by the Python
 * road from the start, so that road alone decides every hand with a finding or a doubt.
 * tests/test_plain_compiled.py holds the two to each other hand by hand. */

#define MAXT 16  /* tricks */

typedef struct {
    Search rules;           /* n, trump and the duties; me set per position */
    int tricks, cards;      /* tricks written, cards dealt each */
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

static int read_ints(PyObject *seq, int *out, int n, const char *what)
{
    u64 v[MAXT * MAXS];
    if (n > MAXT * MAXS || !read_u64s(seq, v, n, what))
        return 0;
    for (int i = 0; i < n; i++)
        out[i] = (int)v[i];
    return 1;
}

/* walk_tricks(trump, post, out, seats, cards, leader, up, up_seat, keeps, must_beat,
 *             must_trump, must_overtrump, may_keep, cinch, cinch_last, lead_trump, need,
 *             dealt, first) -> each trick's winner (a seat), or None: the Python walk decides.
 * Seats are the active players' places in ``post``; ``seats`` and ``cards`` give every
 * play, trick by trick (a seat out of range: a name not active); ``cinch``: the cinch
 * duties are judged (within ``first`` nodes a decision). */
static PyObject *walk_tricks(PyObject *self, PyObject *args)
{
    (void)self;
    static Walk w;
    int trump, leader, up, up_seat, keeps, must_beat, must_trump, must_overtrump, may_keep, cinch, cinch_last,
        lead_trump, need, dealt;
    long long first;
    PyObject *post, *out, *seats, *cards;
    if (!PyArg_ParseTuple(args, "iOOOOiiiiiiiiiiiiiL", &trump, &post, &out, &seats, &cards, &leader, &up,
                          &up_seat, &keeps, &must_beat, &must_trump, &must_overtrump, &may_keep, &cinch,
                          &cinch_last, &lead_trump, &need, &dealt, &first))
        return NULL;
    Py_ssize_t n = PySequence_Size(post), plays = PySequence_Size(seats);
    if (n < 0 || plays < 0)
        return NULL;
    if (n < 2 || n > MAXS || trump < 0 || trump > 3 || up < 0 || up > 63 || leader < 0 || leader >= n
        || dealt < 1 || dealt > MAXT || plays != n * dealt || PySequence_Size(cards) != plays)
        Py_RETURN_NONE;
    Search rules = {(int)n, 0, trump, must_beat, must_trump, must_overtrump, may_keep, 0, 0, 0, 0, 0, 0, 0, 0};
    w.rules = rules;
    w.tricks = w.cards = dealt;
    w.up = up, w.up_seat = up_seat, w.keeps = keeps, w.need = need, w.cinch_last = cinch_last;
    w.first = first;
    int flat_seats[MAXT * MAXS], flat_cards[MAXT * MAXS];
    if (!read_u64s(post, w.post, (int)n, "post") || !read_u64s(out, w.out, (int)n, "out")
        || !read_ints(seats, flat_seats, (int)plays, "seats") || !read_ints(cards, flat_cards, (int)plays, "cards"))
        return NULL;
    /* the order of play, each trick led by the winner of the one before; every play legal */
    u64 hands[MAXS];
    memcpy(hands, w.post, sizeof hands);
    int winners[MAXT];
    w.up_played = MAXT + 1;
    for (int i = 0; i < n; i++)
        w.before[i][0] = w.before[i][1] = 0;
    w.played[0] = w.played[1] = 0;
    for (int t = 0; t < dealt; t++) {
        int *ts = w.seat[t], *tc = w.card[t];
        for (int j = 0; j < n; j++) {
            int q = ts[j] = flat_seats[t * n + j], c = tc[j] = flat_cards[t * n + j];
            if (q != (leader + j) % n || c < 0 || c > 63 || !(hands[q] >> c & 1)
                || !(legal(&w.rules, hands[q], tc, j) >> c & 1))
                Py_RETURN_NONE;
            hands[q] &= ~(1ull << c);
            if (q == up_seat && c == up && w.up_played > t + 1)
                w.up_played = t + 1;
        }
        winners[t] = leader = ts[winning(tc, (int)n, trump)];
        w.played[t + 2] = w.played[t + 1];
        for (int i = 0; i < n; i++)
            w.before[i][t + 2] = w.before[i][t + 1];
        for (int j = 0; j < n; j++) {
            w.before[ts[j]][t + 2] |= 1ull << tc[j];
            w.played[t + 2] |= 1ull << tc[j];
        }
    }
    /* each play's cinch duties */
    int won[MAXS] = {0};
    for (int t = 1; t <= dealt; t++) {
        for (int j = 0; j < n; j++) {
            int p = w.seat[t - 1][j], c = w.card[t - 1][j];
            int verdict = j ? (cinch ? follow(&w, p, t, j, c, won) : KEPT) : lead(&w, p, t, c, cinch, lead_trump, won);
            if (stopped_by_signal)
                return answer(NULL);
            if (verdict != KEPT)
                Py_RETURN_NONE;
        }
        won[winners[t - 1]]++;
    }
    PyObject *res = PyTuple_New(dealt);
    if (!res)
        return NULL;
    for (int t = 0; t < dealt; t++)
        PyTuple_SET_ITEM(res, t, PyLong_FromLong(winners[t]));
    return res;
}
