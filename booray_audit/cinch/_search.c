/* The cinch's exact search, compiled: cinch.Solver (the reference, in pure Python)
 * step for step — the counting bounds at every node, the restricted adversaries, the
 * full search with its moves probed, the relaxed game — with the same rules, memo keys
 * and adversary moves, and larger node shares.  Cards are suit * 16 + rank (rank
 * 2..14); a hand is a 64-bit mask.  An answer is exact where given: 1 (a cinch), 0
 * (none), -1 (past the node budget: undecided), -2 (a position this code does not
 * take — more than 10 seats, a seat known to hold two cards — for the Python search).
 * tests/test_compiled.py and tests/test_cinch.py hold it to the oracle and to Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

/* With GCC on x86-64 the search is compiled for the popcnt instruction (a tenth of its
 * instructions are bit counts, a dozen each without it), and the module loads only on a
 * CPU that has it (every x86-64 CPU of the last fifteen years or so): elsewhere the
 * import fails and the pure-Python search runs.  Only PyInit__search, which checks, is
 * compiled without it.
 * The same code is compiled a second time into the module (_search_bmi.c, which includes
 * this file with SEARCH_BMI defined) for the bit-manipulation instructions of the last
 * ten years or so (BMI1, BMI2, LZCNT: shifts and lowest-bit steps without the flags'
 * dependencies, the search's other common operations); PyInit__search hands out that
 * copy where the CPU has them, and this one elsewhere (or where BOORAY_AUDIT_CPU is
 * "baseline", which the tests use to hold both copies to the same answers).  The two
 * are the same source, so they differ in speed only (4-11% of the search). */
#if defined(SEARCH_BMI)
#define TARGETED 1
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BMI_COPY 1  /* _search_bmi.c builds the second copy */
#if !defined(__POPCNT__)
#define NEEDS_POPCNT 1
#define TARGETED 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif
#endif

#define MAXS 10            /* seats */
#define SUIT_MASK 0x7FFCull

enum { BEAT_NONE = 0, BEAT_WINNER = 1, BEAT_PREVIOUS = 2 };

typedef struct {
    u64 hand, unseen;
    u64 forb[MAXS];        /* cards each seat cannot hold */
    u64 hold[MAXS];        /* unseen cards each seat is known to hold */
    int cnt[MAXS];         /* cards left per seat (P's entry 0) */
    int tseat[MAXS], tcard[MAXS], tlen;  /* the trick so far */
    int twin;              /* the index of the card winning it (kept by add_card) */
    unsigned tmask;        /* the seats that have played to it */
    int k;
} State;

/* memo key: hand, unseen, each seat's forbidden cards, the held cards (a byte per
 * seat), counts and need, the trick (or its summary) and the namespace */
#define KEYW (2 + MAXS + 2 + 4)
#define TAIL (2 + MAXS + 2)
typedef struct {
    u64 w[KEYW];
} Key;
typedef struct {  /* the memo's probe sequence reads these, four to a cache line */
    u64 hash;
    uint32_t epoch;
    uint32_t at;  /* the key's place in ``keys`` (times two), plus the answer (0 or 1) */
} Tag;

/* memo namespaces: one per restricted pass, the exact search, its probes, and the
 * positions P loses against some adversary (lost against every adversary) */
enum { EXACT = 5, PROBE = 6, LOST = 7, RELAXED = 8, RELAXED_PROBE = 9 };

typedef struct {
    int n, me, trump;
    int must_beat, must_trump, must_overtrump, may_keep;  /* may_keep: trump-when-cannot-win = may */
    long long nodes, max_nodes;
    int stop;
    int width, policy, space;  /* moves per adversary turn (0: all), its policy, memo namespace */
    int probing;               /* the full search probes each adversary move first */
    int relaxed;               /* the relaxed game (Solver._relax): it can only show a cinch */
    int depth;                 /* adversary turns under way, searched in full (rows) */
    int deep;                  /* the step in growing shares (growing) under way */
} Search;

/* Ctrl-C: every so many nodes the search asks Python whether a signal is pending; once
 * one is (its exception set), every search stops at its next node and the call returns
 * NULL, so the KeyboardInterrupt reaches the caller at once. */
static int stopped_by_signal = 0;

static int interrupted(long long nodes)
{
    if (!stopped_by_signal && !(nodes & 0x3FF) && PyErr_CheckSignals() < 0)
        stopped_by_signal = 1;
    return stopped_by_signal;
}

/* the call's result, or NULL with the signal's exception once one stopped the search */
static PyObject *answer(PyObject *value)
{
    if (!stopped_by_signal)
        return value;
    stopped_by_signal = 0;
    Py_XDECREF(value);
    if (!PyErr_Occurred())
        PyErr_SetNone(PyExc_KeyboardInterrupt);
    return NULL;
}

/* The memo: an open-addressed table of tags, and the keys apart, one after another in the
 * order they were stored (the key of the entry ``used`` is ``keys[used]``), so that its
 * memory follows what a search stores, not the table's size (a table half empty, of
 * 144-byte keys, took 300 MB at 8 seats where the entries needed 60).
 * cap: the slots this search uses, a power of two; allocated: the slots ``tags`` has;
 * room: the keys ``keys`` has.  Each search starts at FIRST_CAP slots, so that the many
 * small searches probe a table that stays in cache however large an earlier search grew
 * the arrays.  max_entries: 400,000 by default (about 85 MB; ``memory``), above the
 * 350,000 or so positions a call of the default shares and budget visits (see ``run``). */
static Tag *tags = NULL;
static Key *keys = NULL;
#define DEFAULT_ENTRIES 400000
static size_t cap = 0, allocated = 0, room = 0, used = 0, max_entries = DEFAULT_ENTRIES;
#define ENTRY_BYTES (sizeof(Key) + 4 * sizeof(Tag))  /* a key, and its slots (a quarter full or more) */
#define MAX_ENTRIES ((size_t)1 << 30)                 /* ``at`` holds twice the index */
static uint32_t epoch = 1;
#define FIRST_CAP ((size_t)1 << 12)

static inline u64 suit_mask(int s) { return SUIT_MASK << (16 * s); }
static inline u64 above(int c) { return (SUIT_MASK & ~((2ull << (c & 15)) - 1)) << (16 * (c >> 4)); }
#if defined(__POPCNT__) || defined(TARGETED)
static inline int pc(u64 x) { return __builtin_popcountll(x); }
#else  /* without the instruction, the library call costs more than this */
static inline int pc(u64 x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
#endif
static inline int top_bit(u64 x) { return 63 - __builtin_clzll(x); }
static inline int low_bit(u64 x) { return __builtin_ctzll(x); }

static inline int beats(int card, int best, int trump)
{
    if ((card >> 4) == (best >> 4))
        return (card & 15) > (best & 15);
    return (card >> 4) == trump;
}

static int winning(const int *cards, int n, int trump)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (beats(cards[i], cards[best], trump))
            best = i;
    return best;
}

/* engine.legal: the cards P may play holding hand on cards, of which cards[w] wins */
static u64 legal_at(const Search *s, u64 hand, const int *cards, int n, int w)
{
    if (!n)
        return hand;
    int led = cards[0] >> 4, trump = s->trump;
    int best = cards[w];
    u64 follow = hand & suit_mask(led);
    if (follow) {
        if ((best >> 4) == led && s->must_beat != BEAT_NONE) {
            int target = best;
            if (s->must_beat == BEAT_PREVIOUS)
                for (int i = n - 1; i >= 0; i--)
                    if ((cards[i] >> 4) == led) { target = cards[i]; break; }
            u64 beaters = follow & above(target);
            if (beaters)
                return beaters;
        }
        return follow;
    }
    u64 trumps = trump < 4 ? hand & suit_mask(trump) : 0;
    if (!trumps)
        return hand;
    u64 beaters = (best >> 4) == trump ? trumps & above(best) : trumps;
    if (!s->must_trump)  /* no duty to trump, but a trump played must over-trump */
        return s->must_overtrump && beaters && beaters != trumps ? (hand & ~trumps) | beaters : hand;
    if (s->must_overtrump && beaters)
        return beaters;
    if (!beaters && s->may_keep)
        return hand;
    return trumps;
}

static u64 legal(const Search *s, u64 hand, const int *cards, int n)
{
    return legal_at(s, hand, cards, n, n ? winning(cards, n, s->trump) : 0);
}

/* seat plays card to the trick: the winning card kept as winning() finds it */
static inline void add_card(const Search *s, State *st, int seat, int card)
{
    if (!st->tlen || beats(card, st->tcard[st->twin], s->trump))
        st->twin = st->tlen;
    st->tmask |= 1u << seat;
    st->tseat[st->tlen] = seat;
    st->tcard[st->tlen++] = card;
}

/* cinch.reveal: the cards a player cannot hold after playing card on prior */
static u64 reveal(const Search *s, int card, const int *prior, int n, int best)
{
    if (!n)
        return 0;
    int led = prior[0] >> 4, trump = s->trump, suit = card >> 4;
    u64 out = 0;
    if (suit == led) {
        if ((best >> 4) == led && s->must_beat != BEAT_NONE) {
            int target = best;
            if (s->must_beat == BEAT_PREVIOUS)
                for (int i = n - 1; i >= 0; i--)
                    if ((prior[i] >> 4) == led) { target = prior[i]; break; }
            if (!beats(card, target, trump))
                out |= suit_mask(led) & above(target);
        }
        return out;
    }
    out |= suit_mask(led);
    if (led == trump)
        return out;
    if (suit == trump) {  /* with or without a duty to trump, a trump played must over-trump */
        if (s->must_overtrump && (best >> 4) == trump && !beats(card, best, trump))
            out |= suit_mask(trump) & above(best);
        return out;
    }
    if (!s->must_trump)
        return out;
    if (!s->may_keep || (best >> 4) != trump)
        out |= suit_mask(trump);
    else
        out |= suit_mask(trump) & above(best);
    return out;
}

/* cinch._feasible: Hall's condition, the cards seats are known to hold given first; its
 * two short cuts first (the search asks at every card an opponent may play) */
static int feasible(u64 unseen, const int *cnt0, const u64 *forb, const u64 *hold, int n)
{
    int cnt[MAXS];
    u64 held = 0;
    for (int i = 0; i < n; i++) {
        cnt[i] = cnt0[i];
        held |= hold[i];
    }
    if (held) {
        for (int i = 0; i < n; i++) {
            u64 mine = hold[i];
            if (mine) {
                if ((mine & forb[i]) || (mine & ~unseen))
                    return 0;
                cnt[i] -= pc(mine);
                if (cnt[i] < 0)
                    return 0;
            }
        }
        unseen &= ~held;
    }
    /* enough, and exact: every seat still to be dealt to allows as many cards as all of
     * them need (each set of seats allows at least any one member's cards) */
    int total = 0, fewest = 64;
    for (int i = 0; i < n; i++)
        if (cnt[i] > 0) {
            int a = pc(unseen & ~forb[i]);
            total += cnt[i];
            fewest = a < fewest ? a : fewest;
        }
    if (fewest >= total)
        return 1;
    u64 allowed[MAXS];
    int need[MAXS], groups = 0;
    for (int i = 0; i < n; i++) {
        if (cnt[i] > 0) {
            u64 a = unseen & ~forb[i];
            int g;
            for (g = 0; g < groups; g++)
                if (allowed[g] == a) { need[g] += cnt[i]; break; }
            if (g == groups) { allowed[groups] = a; need[groups++] = cnt[i]; }
        }
    }
    if (pc(unseen) < total)
        return 0;
    u64 items[MAXS];
    int nitems[MAXS], k = 0;
    for (int g = 0; g < groups; g++)
        if (allowed[g] != unseen) { items[k] = allowed[g]; nitems[k++] = need[g]; }
    for (int j = 0; j < k; j++)
        if (pc(items[j]) < nitems[j])
            return 0;
    if (k < 2)
        return 1;
    /* enough, and exact: with the groups in order of allowed cards, fewest first, each
     * allowing at least all the cards it and those before it need, every set of groups
     * allows at least its last member's, which is at least what the set needs */
    int size[MAXS], order[MAXS], enough = 1;
    for (int j = 0; j < k; j++) {
        int a = pc(items[j]), i = j;
        for (; i > 0 && size[i - 1] > a; i--) {
            size[i] = size[i - 1];
            order[i] = order[i - 1];
        }
        size[i] = a;
        order[i] = j;
    }
    for (int i = 0, sum = 0; i < k && enough; i++) {
        sum += nitems[order[i]];
        enough = size[i] >= sum;
    }
    if (enough)
        return 1;
    u64 unions[1 << MAXS];
    int needs[1 << MAXS];
    unions[0] = 0;
    needs[0] = 0;
    for (int sub = 1; sub < (1 << k); sub++) {
        int low = sub & -sub, j = __builtin_ctz(sub), rest = sub ^ low;
        unions[sub] = unions[rest] | items[j];
        needs[sub] = needs[rest] + nitems[j];
        if (pc(unions[sub]) < needs[sub])
            return 0;
    }
    return 1;
}

/* cinch.top_trumps: P's trumps minus the most that higher captors each capture once */
static int top_trumps(u64 hand, u64 captors, int trump)
{
    u64 mine = hand & suit_mask(trump), live = (captors & suit_mask(trump)) | mine;
    int free = 0, sure = 0;
    while (live) {  /* the trumps either side holds, highest first */
        u64 bit = 1ull << top_bit(live);
        live ^= bit;
        if (captors & bit)
            free++;
        else if (free)
            free--;
        else
            sure++;
    }
    return sure;
}

static u64 possible(const State *st, int n)
{
    u64 out = 0;
    for (int j = 0; j < n; j++)
        if (st->cnt[j])
            out |= st->unseen & ~st->forb[j];
    return out;
}

static inline int in_trick(const State *st, int seat)
{
    return st->tmask >> seat & 1;
}

/* Solver._lead_lower: sure tricks for P on lead by counting, the better of two plans */
static int lead_lower(const Search *s, u64 hand, const State *st)
{
    int trump = s->trump;
    u64 trumps = suit_mask(trump);
    u64 anything = possible(st, s->n);
    u64 captors = anything & trumps;
    int sure = top_trumps(hand, captors, trump);
    u64 mine = hand & trumps;
    u64 bosses = mine & ~(captors ? ((top_bit(captors) + 1 >= 64) ? ~0ull : ((1ull << (top_bit(captors) + 1)) - 1)) : 0ull);
    int b = pc(bosses);
    u64 kept = captors;
    int drop = b < pc(captors) ? b : pc(captors);
    for (int i = 0; i < drop; i++)
        kept &= kept - 1;
    u64 rest = hand & ~bosses;
    int plain = 0;
    for (u64 m = hand & ~trumps; m; m &= m - 1) {
        int c = low_bit(m);
        if (!(anything & suit_mask(c >> 4) & above(c)))
            plain++;
    }
    int after = top_trumps(rest, kept, trump);
    if (plain && kept) {
        int ruffed;
        if ((kept & (kept - 1)) || !(rest & trumps))
            ruffed = top_trumps(rest, kept & (kept - 1), trump);
        else
            ruffed = pc(rest & trumps) + plain - 1;
        after = plain + after < ruffed ? plain + after : ruffed;
    } else if (plain)
        after += plain;
    return sure > b + after ? sure : b + after;
}

/* Solver._lower: tricks P wins for sure by simple counting */
static int lower(const Search *s, const State *st)
{
    if (!st->tlen)
        return lead_lower(s, st->hand, st);
    int trump = s->trump, n = s->n, me = s->me;
    u64 trumps = suit_mask(trump);
    u64 held[MAXS];
    for (int j = 0; j < n; j++)
        held[j] = st->cnt[j] ? st->unseen & ~st->forb[j] : 0;
    int mine_in = in_trick(st, me);
    u64 captors = 0;
    if (!mine_in)
        for (int i = 0; i < st->tlen; i++)
            captors |= (1ull << st->tcard[i]) & trumps;
    for (int j = 0; j < n; j++)
        captors |= held[j] & trumps;
    int sure = top_trumps(st->hand, captors, trump);
    u64 later = 0;
    for (int j = 0; j < n; j++)
        if (!in_trick(st, j))
            later |= held[j];
    int w = st->twin;
    int best = st->tcard[w];
    int mine[16], nm = 0;
    u64 rest[16];
    if (mine_in) {
        if (st->tseat[w] == me) { mine[0] = best; rest[0] = st->hand; nm = 1; }
    } else {
        u64 ok = legal_at(s, st->hand, st->tcard, st->tlen, st->twin);
        for (u64 m = ok; m; m &= m - 1) {
            int c = low_bit(m);
            if (beats(c, best, trump) && nm < 16) { mine[nm] = c; rest[nm++] = st->hand & ~(1ull << c); }
        }
    }
    for (int i = 0; i < nm; i++) {
        int c = mine[i];
        u64 beaters = suit_mask(c >> 4) & above(c);
        if ((c >> 4) != trump)
            beaters |= trumps;
        if (!(later & beaters)) {
            int v = 1 + lead_lower(s, rest[i], st);
            if (v > sure) sure = v;
        }
    }
    return sure;
}

/* cinch._packing/_moved: each suit's live cards moved up to its top ranks, order kept */
typedef struct { u64 src; int to[64]; } Packing;

static int packing(u64 live, Packing *p)
{
    int any = 0;
    p->src = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 m = live & suit_mask(suit);
        if (!m || m + (m & -m) == 1ull << (suit * 16 + 15))
            continue;  /* none, or a run up to the ace: already at the top */
        int d = suit * 16 + 14;
        while (m) {
            int c = top_bit(m);
            m ^= 1ull << c;
            if (c != d) { p->to[c] = d; p->src |= 1ull << c; any = 1; }
            d--;
        }
    }
    return any;
}

static inline u64 moved(u64 x, const Packing *p)
{
    u64 m = x & p->src;
    if (!m)
        return x;
    u64 y = x & ~p->src;
    for (; m; m &= m - 1)
        y |= 1ull << p->to[low_bit(m)];
    return y;
}

static inline u64 moved_if(u64 x, const Packing *p) { return p ? moved(x, p) : x; }

static void canon(State *st, int n, int *keep, int nkeep)
{
    u64 live = st->hand | st->unseen;
    for (int i = 0; i < nkeep; i++)
        live |= 1ull << keep[i];
    Packing p;
    if (!packing(live, &p))
        return;
    st->hand = moved(st->hand, &p);
    st->unseen = moved(st->unseen, &p);
    for (int j = 0; j < n; j++) {
        st->forb[j] = moved(st->forb[j], &p);
        st->hold[j] = moved(st->hold[j], &p);
    }
    for (int i = 0; i < nkeep; i++)
        keep[i] = top_bit(moved(1ull << keep[i], &p));
}

/* the key's words but the trick's: the position's cards (moved by ``p`` where given, as
 * canon would move them), each seat's held card (a byte each), counts and need */
static inline __attribute__((always_inline)) void base_key(const State *st, int n, const Packing *p, Key *key)
{
    key->w[0] = moved_if(st->hand, p);
    key->w[1] = moved_if(st->unseen, p);
    u64 held = 0, held2 = 0, c = 0;
    for (int j = 0; j < n; j++) {
        key->w[2 + j] = moved_if(st->forb[j], p);
        if (st->hold[j]) {  /* one card at most: its number + 1, 0 for none */
            u64 b = (u64)(low_bit(moved_if(st->hold[j], p)) + 1) << (8 * (j & 7));
            if (j < 8) held |= b; else held2 |= b;
        }
        c |= (u64)(st->cnt[j] & 15) << (4 * j);
    }
    for (int j = n; j < MAXS; j++)
        key->w[2 + j] = 0;
    key->w[2 + MAXS] = held;
    key->w[3 + MAXS] = held2;
    key->w[TAIL] = c | (u64)st->k << 48;
}

/* the memo key: the whole position on lead, after one card and in the restricted
 * adversaries' searches; inside a trick in the full search (Solver._summary) only what
 * the rest of the game depends on, packed */
static void make_key(const Search *s, const State *st, Key *key)
{
    int n = s->n;
    if (st->tlen <= 1 || s->width) {
        base_key(st, n, NULL, key);
        key->w[TAIL + 1] = key->w[TAIL + 2] = 0;
        for (int i = 0; i < st->tlen; i++)
            key->w[TAIL + 1 + i / 5] |= (u64)((st->tseat[i] + 1) << 6 | st->tcard[i]) << (12 * (i % 5));
        key->w[TAIL + 3] = 1 | (u64)s->space << 8;
        return;
    }
    int led = st->tcard[0] >> 4;
    int w = st->twin;
    int keep[3], nk = 0;
    keep[nk++] = st->tcard[w];
    if (s->must_beat == BEAT_PREVIOUS)
        for (int i = st->tlen - 1; i >= 0; i--)
            if ((st->tcard[i] >> 4) == led) { keep[nk++] = st->tcard[i]; break; }
    u64 seats = 0, followed = 0, live = st->hand | st->unseen;
    for (int i = 0; i < st->tlen; i++) {
        seats |= 1ull << st->tseat[i];
        if ((st->tcard[i] >> 4) == led)
            followed |= 1ull << st->tseat[i];
        if (st->tseat[i] == s->me)
            keep[nk++] = st->tcard[i];
    }
    for (int i = 0; i < nk; i++)
        live |= 1ull << keep[i];
    Packing packed;
    int any = packing(live, &packed);  /* canon's moves, made as the key is written */
    base_key(st, n, any ? &packed : NULL, key);
    u64 ks = 0;
    for (int i = 0; i < nk; i++)
        ks |= (u64)((any ? top_bit(moved(1ull << keep[i], &packed)) : keep[i]) + 1) << (8 * i);
    key->w[TAIL + 1] = ks;
    key->w[TAIL + 2] = (u64)st->tseat[0] | (u64)st->tseat[w] << 8 | (u64)led << 16
                               | seats << 24 | followed << 40;
    key->w[TAIL + 3] = 2 | (u64)s->space << 8;
}

static inline void in_space(Key *key, int space)
{
    key->w[TAIL + 3] = (key->w[TAIL + 3] & 0xFF) | (u64)space << 8;
}

/* a hash of n words (the memo's keys; the double dummy's below) */
static inline u64 hash_words(const u64 *w, int n, u64 h)
{
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

/* the hash of a key but its last word (the namespace), then with it (in its low six bits);
 * the words of the seats past the n at the table are always 0, and left out */
static inline u64 hash_prefix(const Key *key, int n)
{
    u64 h = hash_words(key->w, 2 + n, 0x9E3779B97F4A7C15ull);  /* two chains, side by side */
    return h ^ hash_words(key->w + 2 + MAXS, KEYW - 3 - MAXS, 0x7F4A7C159E3779B9ull);
}

static inline u64 hash_last(u64 h, const Key *key)
{
    u64 ns = key->w[KEYW - 1];  /* 1 or 2, and the namespace (below 16) shifted by 8 */
    return (h & ~(u64)63) | (ns & 3) | (ns >> 8 & 15) << 2;
}

/* A key's first slot: from its hash but the namespace bits, so that a position's keys in
 * every namespace (the lost one, asked after each miss, above all) start at one slot and
 * are probed in the same cache lines */
static inline size_t slot(u64 h, size_t cap_) { return (size_t)(h >> 6) & (cap_ - 1); }

static void forget(void)
{
    used = 0;
    if (++epoch == 0) {  /* wrapped: the old marks could read as current */
        memset(tags, 0, allocated * sizeof(Tag));
        epoch = 1;
    }
}

/* cap doubled: this search's tags moved to their slots in the larger table (the keys stay
 * where they are); 0 where there is no memory for it */
static int grow(void)
{
    size_t ncap = cap ? cap * 2 : FIRST_CAP;
    Tag *from = tags, *to;
    uint32_t live = epoch;
    if (ncap <= allocated) {  /* room in the array: its tags copied out, moved by a new epoch */
        if (!(from = malloc(cap * sizeof(Tag))))
            return 0;
        memcpy(from, tags, cap * sizeof(Tag));
        size_t keep = used;
        forget();
        used = keep;
        to = tags;
    } else if (!(to = calloc(ncap, sizeof(Tag))))
        return 0;
    for (size_t i = 0; i < cap; i++) {
        if (from[i].epoch != live)
            continue;
        size_t j = slot(from[i].hash, ncap);
        while (to[j].epoch == epoch)
            j = (j + 1) & (ncap - 1);
        to[j] = from[i];
        to[j].epoch = epoch;
    }
    free(from);
    if (to != tags)
        allocated = ncap;
    tags = to;
    cap = ncap;
    return 1;
}

/* room for one more key; 0 where there is no memory for it */
static int make_room(void)
{
    if (used < room)
        return 1;
    size_t more = room ? room * 2 : FIRST_CAP;
    Key *bigger = realloc(keys, more * sizeof(Key));
    if (!bigger)
        return 0;
    keys = bigger;
    room = more;
    return 1;
}

/* a new search: nothing remembered, and the first FIRST_CAP slots of the arrays in use */
static void start(void)
{
    forget();
    if (cap > FIRST_CAP)
        cap = FIRST_CAP;
}

static int lookup(const Key *key, u64 h)
{
    if (!cap)
        return -1;
    for (size_t j = slot(h, cap);; j = (j + 1) & (cap - 1)) {
        if (tags[j].epoch != epoch)
            return -1;
        if (tags[j].hash == h && !memcmp(&keys[tags[j].at >> 1], key, sizeof *key))
            return (int)(tags[j].at & 1);
    }
}

static void store(const Key *key, u64 h, int val)
{
    if (used >= max_entries)
        forget();  /* results are only remembered: forgetting costs time (and, within a budget,
                    * can leave a position undecided), never a wrong answer */
    if (((used + 1) * 2 > cap && !grow()) || !make_room()) {
        forget();
        if ((used + 1) * 2 > cap || !room)
            return;  /* no memory for a memo: the search goes on without one */
    }
    size_t j = slot(h, cap);
    while (tags[j].epoch == epoch)
        j = (j + 1) & (cap - 1);
    keys[used] = *key;
    tags[j].hash = h;
    tags[j].epoch = epoch;
    tags[j].at = (uint32_t)(used << 1 | (size_t)(val & 1));
    used++;
}

static int players(const Search *s, const State *st)
{
    int out = 0;
    for (int i = 0; i < s->n; i++)
        if (i == s->me || st->cnt[i] > 0 || in_trick(st, i))
            out++;
    return out;
}

static int next_seat(const Search *s, const State *st, int last)
{
    int i = last;
    for (int step = 0; step < s->n; step++) {
        i = (i + 1) % s->n;
        if (!in_trick(st, i) && (i == s->me || st->cnt[i] > 0))
            return i;
    }
    return s->me;
}

/* x's bits carried up (fill_up) or down (fill_down) through the cells of m, as far as m's
 * cells run on (at most 15 places: a suit's window) */
static inline u64 fill_up(u64 x, u64 m)
{
    x |= m & (x << 1);
    m &= m << 1;
    x |= m & (x << 2);
    m &= m << 2;
    x |= m & (x << 4);
    m &= m << 4;
    return x | (m & (x << 8));
}

static inline u64 fill_down(u64 x, u64 m)
{
    x |= m & (x >> 1);
    m &= m >> 1;
    x |= m & (x >> 2);
    m &= m >> 2;
    x |= m & (x >> 4);
    m &= m >> 4;
    return x | (m & (x >> 8));
}

#define CARDS (SUIT_MASK * 0x0001000100010001ull)  /* every card of the four suits */

/* cinch._choices: the adversary's cards worth trying for seat, the ends of its runs, in
 * order of cards.  A card of the pool continues the run of the pool card below it in its
 * suit (prev) where only cards gone from play lie between them (no card of P's hand, the
 * trick or the unseen) and every seat knows the two alike (holds, or may not hold, both
 * or neither).  Worked out for every card at once: a mask carried up through the gone
 * cards gives each card what holds just below it, down to its prev (the suits' windows
 * apart: the bits between them are never gone); tests/test_compiled.py holds the answers
 * to canon._choices's on random positions. */
static int choices(const State *st, int n, int seat, u64 pool, u64 fixed, int *out)
{
    u64 gone = ~(fixed | st->unseen) & CARDS;
    u64 held = st->hold[seat] & ~gone;
    u64 differs = held ^ (fill_up(held, gone) << 1);  /* a card known otherwise than its prev */
    for (int j = 0; j < n; j++)
        if (j != seat && st->cnt[j] > 0 && (st->forb[j] & pool)) {
            u64 k = st->forb[j] & pool;
            differs |= k ^ (fill_up(k, gone) << 1);
        }
    u64 on = pool & (fill_up(pool, gone) << 1) & ~differs;  /* the cards that continue a run */
    u64 below = on >> 1;  /* their prevs: just below, or below the gone cards just below */
    u64 prevs = (below & pool) | (pool & (fill_down(below & gone, gone) >> 1));
    int nout = 0;
    for (u64 m = (pool & ~on) | (pool & ~prevs); m; m &= m - 1)  /* each run's first and last */
        out[nout++] = low_bit(m);
    return nout;
}

typedef struct { u64 order; int card; u64 extra; } Move;

/* P's hand and P's card in this trick */
static u64 held_by_me(const Search *s, const State *st)
{
    for (int i = 0; i < st->tlen; i++)
        if (st->tseat[i] == s->me)
            return st->hand | 1ull << st->tcard[i];
    return st->hand;
}

/* Solver._blank: the plain suits P holds no card of (P never will again) */
static u64 blank_of(const Search *s, u64 hand)
{
    u64 out = 0;
    for (int suit = 0; suit < 4; suit++)
        if (suit != s->trump && !(hand & suit_mask(suit)))
            out |= suit_mask(suit);
    return out;
}

/* Solver._relax: in the suits P lacks, ranks are blank — no seat is known to lack some
 * of a suit's cards and not all; only voids stay known */
static void relax(const Search *s, State *st, u64 hand)
{
    u64 blank = blank_of(s, hand);
    if (!blank)
        return;
    for (int j = 0; j < s->n; j++)
        for (int suit = 0; suit < 4; suit++) {
            u64 m = suit_mask(suit) & blank;
            if (m && (st->forb[j] & m) && (st->unseen & m & ~st->forb[j]))
                st->forb[j] &= ~m;
        }
}

/* Solver._keeper: the first opponent that may still hold a trump */
static int keeper(const Search *s, const State *st)
{
    u64 trumps = st->unseen & suit_mask(s->trump);
    for (int j = 0; j < s->n; j++)
        if (st->cnt[j] && (trumps & ~st->forb[j]))
            return j;
    return -1;
}

/* Solver._adversary, its moves with Solver._danger's order for the search's policy: the
 * cards the adversary can give seat to play, the most dangerous to P of least order (in
 * the full search the order only saves time; a restricted adversary keeps the first
 * ones, which ``next_move`` picks out without putting the rest in order) */
static int adversary(const Search *s, const State *st, int seat, Move *moves)
{
    int trump = s->trump, me = s->me, policy = s->policy;
    u64 pool = st->unseen & ~st->forb[seat];
    u64 fixed = st->hand;
    for (int i = 0; i < st->tlen; i++)
        fixed |= 1ull << st->tcard[i];
    int cs[64];
    int nc = choices(st, s->n, seat, pool, fixed, cs);
    u64 blank = s->relaxed ? blank_of(s, held_by_me(s, st)) : 0;
    if (blank) {  /* a blank suit's lowest card stands for the others, but for a card the seat must hold */
        u64 held = st->hold[seat];
        int kept = 0;
        for (int i = 0; i < nc; i++)
            if (!(blank >> cs[i] & 1) || (held >> cs[i] & 1))
                cs[kept++] = cs[i];
        nc = kept;
        for (int suit = 0; suit < 4; suit++) {
            u64 m = pool & blank & suit_mask(suit) & ~held;
            if (m)
                cs[nc++] = low_bit(m);
        }
    }
    u64 trumps = st->unseen & suit_mask(trump);
    int w = st->tlen ? st->twin : -1;
    int best = st->tlen ? st->tcard[w] : -1;
    /* 0 lead high where P must follow under; 1 draw trumps (lead, and any card: beat or
     * high); 2 capture P's card cheaply; 3 cheapest to show; 4 low, plain first;
     * 5 beat P's card if able, plain first (policy 2's seats apart from the keeper) */
    int mode;
    if (!st->tlen)
        mode = policy ? 1 : 0;
    else if (policy == 1)
        mode = 1;
    else {
        int apart = (policy == 2 || policy == 3) && seat != keeper(s, st);
        if (apart && policy == 3)
            mode = 4;
        else if (st->tseat[w] == me)
            mode = apart ? 5 : 2;
        else if (in_trick(st, me))
            mode = apart ? 4 : 3;
        else
            mode = 4;
    }
    for (int i = 0; i < nc; i++) {
        int c = cs[i], r = c & 15, t = (c >> 4) == trump;
        u64 extra = st->tlen && (c >> 4) == (st->tcard[0] >> 4) && (blank >> c & 1)
                    ? 0 : reveal(s, c, st->tcard, st->tlen, best);  /* following a blank suit shows nothing */
        u64 a = 0, b1 = 0, b2 = 0;
        switch (mode) {
        case 0: {
            u64 mine = st->hand & suit_mask(c >> 4);
            if (!t && mine && c > top_bit(mine)) { a = 0; r = 16 - r; }
            else a = (!t && !mine) ? 1 : 2;
            t = 0;
            break;
        }
        case 1:
            a = st->tlen ? !beats(c, best, trump) : !t;
            r = 16 - r;
            t = 0;
            break;
        case 2:
            if (beats(c, best, trump)) a = 0;
            else { a = 1; b1 = pc(extra & trumps); b2 = pc(extra & st->unseen); }
            break;
        case 3:
            b1 = pc(extra & trumps);
            b2 = pc(extra & st->unseen);
            break;
        case 5:
            a = !beats(c, best, trump);
            break;
        }
        moves[i].order = ((((a * 64 + b1) * 64 + b2) * 2 + (u64)t) * 32 + (u64)r) * 64 + (u64)c;
        moves[i].card = c;
        moves[i].extra = extra;
    }
    return nc;
}

/* the moves by order (every order differs: it ends with the card) */
static void by_order(Move *moves, int nc)
{
    for (int i = 1; i < nc; i++) {
        Move m = moves[i];
        int j = i;
        for (; j > 0 && moves[j - 1].order > m.order; j--)
            moves[j] = moves[j - 1];
        moves[j] = m;
    }
}

/* the move of least order among those not yet ``taken`` (a bit per move), now taken */
static const Move *next_move(const Move *moves, int nc, u64 *taken)
{
    int best = -1;
    for (int i = 0; i < nc; i++)
        if (!(*taken >> i & 1) && (best < 0 || moves[i].order < moves[best].order))
            best = i;
    *taken |= 1ull << best;
    return &moves[best];
}

/* the position after seat plays move m (whether a deal still fits it: fits) */
static void play(const Search *s, const State *st, int seat, const Move *m, State *out)
{
    *out = *st;
    u64 rest = st->unseen & ~(1ull << m->card);
    out->unseen = rest;
    out->cnt[seat]--;
    out->forb[seat] |= m->extra;
    for (int j = 0; j < s->n; j++) {
        out->forb[j] &= rest;
        out->hold[j] &= rest;
    }
    add_card(s, out, seat, m->card);
}

static inline int fits(const Search *s, const State *st)
{
    return feasible(st->unseen, st->cnt, st->forb, st->hold, s->n);
}

static int p(Search *s, const State *st);

/* A position after an adversary's move, its memo key made (``prepare``) before the search
 * of the one before it, so that its slot is fetched from memory meanwhile; ``now``: its
 * answer where the memo is not asked (-1: it is). */
typedef struct { State st; Key key; u64 prefix; int now; } Kid;

/* a row of them for each adversary turn under way (Search.depth), as many rows as there
 * are unseen cards: each turn plays one (in the relaxed game a seat out of cards may
 * still be asked for one); made in solve() (rows_for) */
static Kid *rows[64];

static int rows_for(const State *st)
{
    for (int t = 0; t < pc(st->unseen); t++)
        if (!rows[t] && !(rows[t] = malloc(64 * sizeof(Kid))))
            return 0;
    return 1;
}

static int p_keyed(Search *s, const State *st, const Key *key, u64 prefix);

/* p's answer before the memo is asked: 1 (no trick left to win), 0 (too few cards left
 * to win them), -1 (ask it) */
static inline int settled(const Search *s, const State *st)
{
    if (st->k <= 0)
        return 1;
    return pc(st->hand) + in_trick(st, s->me) < st->k ? 0 : -1;
}

/* p's first steps, for a kid: the answer without the memo, or the key (of the relaxed
 * position in the relaxed game, as p makes it) with its slot's lines asked for */
static void prepare(const Search *s, Kid *kid)
{
    State *st = &kid->st;
    if ((kid->now = settled(s, st)) >= 0)
        return;
    if (s->relaxed)
        relax(s, st, held_by_me(s, st));  /* as p does; a second time changes nothing */
    make_key(s, st, &kid->key);
    kid->prefix = hash_prefix(&kid->key, s->n);
    if (cap) {
        size_t j = slot(kid->prefix, cap);  /* the namespace bits aside, as slot() reads the hash */
        __builtin_prefetch(&tags[j]);
    }
}

/* The adversary's killer moves: for each adversary turn under way (Search.depth), the
 * card of the last move P was shown to lose after, in this call (``run`` forgets them at
 * its start).  The full search, probed or not, and the step in growing shares note them
 * (the restricted adversaries and the relaxed game do not); only that step reads them
 * (``deepening`` tries that card first), so the other steps go as they went without
 * them, node for node.  A move that refutes P at one turn often refutes P at the same
 * turn of the next line searched: at 7-8 seats this finds refutations the policies'
 * order leaves deep in the list. */
static int killer[64];

static inline int kid_card(const Kid *kid) { return kid->st.tcard[kid->st.tlen - 1]; }

static inline void note_killer(const Search *s, const Kid *kid)
{
    if (!s->relaxed && s->depth <= 64)
        killer[s->depth - 1] = kid_card(kid);
}

/* does P succeed after every kid (searched in order, up to the first it loses after)? */
static int sweep(Search *s, Kid *kids, int n)
{
    if (n)
        prepare(s, &kids[0]);
    for (int i = 0; i < n; i++) {
        if (i + 1 < n)
            prepare(s, &kids[i + 1]);
        Kid *kid = &kids[i];
        int won = kid->now >= 0 ? kid->now : p_keyed(s, &kid->st, &kid->key, kid->prefix);
        if (s->stop)
            return 0;
        if (!won) {
            note_killer(s, kid);
            return 0;
        }
    }
    return 1;
}

/* The sweep of the step in growing shares (``deepening``): does P succeed after every
 * kid?  The killer move first, if it is among them; then each kid still open is
 * searched within a share, the shares growing fourfold from DEEP_FIRST, so that a kid P
 * loses after is found before the search spends itself on kids P wins after (the
 * policies' order puts the adversary's best move first nearly always, but not always).
 * Only a search that ends stores its answer, so every answer is exact. */
#define DEEP_FIRST 64
#define DEEP_GROWTH 4

/* before one search of that step's, within share nodes (and the step's end) */
static inline void within(Search *s, long long share, long long end)
{
    s->max_nodes = s->nodes + share < end ? s->nodes + share : end;
}

/* after it: 0 it ended; 1 past its share (the others first); -1 past the step's end
 * (the search stops) */
static inline int past(Search *s, long long end)
{
    s->max_nodes = end;
    if (!s->stop)
        return 0;
    if (s->nodes > end)
        return -1;
    s->stop = 0;
    return 1;
}

static int deepening(Search *s, Kid *kids, int n)
{
    unsigned char open[64];
    int first = s->depth <= 64 ? killer[s->depth - 1] : -1;
    for (int i = 1; i < n && first >= 0; i++)
        if (kid_card(&kids[i]) == first) {
            Kid kid = kids[i];
            memmove(&kids[1], &kids[0], i * sizeof(Kid));
            kids[0] = kid;
            break;
        }
    for (int i = 0; i < n; i++) {
        prepare(s, &kids[i]);
        open[i] = 1;
    }
    int left = n;
    long long end = s->max_nodes;
    for (long long share = DEEP_FIRST; left; share = share < end ? share * DEEP_GROWTH : share) {
        for (int i = 0; i < n; i++) {
            if (!open[i])
                continue;
            Kid *kid = &kids[i];
            within(s, share, end);
            int won = kid->now >= 0 ? kid->now : p_keyed(s, &kid->st, &kid->key, kid->prefix);
            int over = past(s, end);
            if (over < 0)
                return 0;
            if (over)
                continue;
            if (!won) {
                note_killer(s, kid);
                return 0;
            }
            open[i] = 0;
            left--;
        }
    }
    return 1;
}

/* Solver._against: does P succeed after every adversary move for seat?  A restricted
 * adversary tries its first `width` moves; the full search first probes each move
 * against the restricted adversary (a loss there is a loss), then searches them all */
static int against(Search *s, const State *st, int seat)
{
    Move moves[64];
    int nm = adversary(s, st, seat, moves);
    if (s->width) {  /* each move in order as it comes, up to the first `width` that fit */
        State child;
        int tried = 0;
        u64 taken = 0;
        for (int i = 0; i < nm; i++) {
            play(s, st, seat, next_move(moves, nm, &taken), &child);
            if (!fits(s, &child))
                continue;
            if (!p(s, &child) || s->stop)
                return 0;
            if (++tried >= s->width)
                return 1;
        }
        return 1;
    }
    by_order(moves, nm);
    Kid *kids = rows[s->depth];
    int n = 0;
    for (int i = 0; i < nm; i++) {
        play(s, st, seat, &moves[i], &kids[n].st);
        n += fits(s, &kids[n].st);
    }
    s->depth++;
    int won = 1;
    if (s->probing) {
        int space = s->space;
        s->width = 1;
        s->space = s->relaxed ? RELAXED_PROBE : PROBE;
        won = sweep(s, kids, n);
        s->width = 0;
        s->space = space;
    }
    if (won && !s->stop)
        won = s->deep && n > 1 ? deepening(s, kids, n) : sweep(s, kids, n);
    s->depth--;
    return won && !s->stop;
}

/* Solver._finish: the trick is complete */
static int finish(Search *s, const State *st)
{
    int wi = st->twin, w = st->tseat[wi];
    State next = *st;
    canon(&next, s->n, NULL, 0);
    next.tlen = 0;
    next.tmask = 0;
    if (w == s->me) {
        next.k--;
        return p(s, &next);
    }
    if (pc(next.hand) < next.k)
        return 0;
    if (top_trumps(next.hand, possible(&next, s->n) & suit_mask(s->trump), s->trump) >= next.k)
        return 1;
    if (s->relaxed) {
        relax(s, &next, next.hand);  /* P's card in the trick no longer counts */
        int suit = st->tcard[wi] >> 4;
        if (blank_of(s, next.hand) & suit_mask(suit)) {
            /* ranks of a suit P lacks are blank: any seat that followed it may have won */
            for (int i = 0; i < st->tlen; i++)
                if ((st->tcard[i] >> 4) == suit && (!against(s, &next, st->tseat[i]) || s->stop))
                    return 0;
            return 1;
        }
    }
    return against(s, &next, w);
}

/* distinct options for P, highest first (cinch._distinct) */
static int distinct(u64 options, u64 unseen, int *out)
{
    int n = 0, prev = -1;
    for (u64 m = options; m; m &= ~(1ull << top_bit(m))) {
        int c = top_bit(m);
        if (prev >= 0 && (c >> 4) == (prev >> 4) && !(unseen & ((1ull << prev) - (2ull << c))))
            continue;
        out[n++] = c;
        prev = c;
    }
    return n;
}

static int p(Search *s, const State *st)
{
    int now = settled(s, st);  /* relaxing changes neither the hand, the trick nor the need */
    if (now >= 0)
        return now;
    State relaxed;
    if (s->relaxed) {
        relaxed = *st;
        relax(s, &relaxed, held_by_me(s, st));
        st = &relaxed;
    }
    Key key;
    make_key(s, st, &key);
    return p_keyed(s, st, &key, hash_prefix(&key, s->n));
}

/* The step in growing shares at P's turn: does one of P's options succeed?  Each option
 * still open is searched within a share, the shares growing as in ``deepening``. */
static int choosing(Search *s, const State *st, int seat, const int *opts, int no)
{
    unsigned char open[16];
    memset(open, 1, sizeof open);
    int left = no;
    long long end = s->max_nodes;
    for (long long share = DEEP_FIRST; left; share = share < end ? share * DEEP_GROWTH : share) {
        for (int i = 0; i < no; i++) {
            if (!open[i])
                continue;
            State child = *st;
            child.hand &= ~(1ull << opts[i]);
            add_card(s, &child, seat, opts[i]);
            within(s, share, end);
            int won = p(s, &child);
            int over = past(s, end);
            if (over < 0)
                return 0;
            if (over)
                continue;
            if (won)
                return 1;
            open[i] = 0;
            left--;
        }
    }
    return 0;
}

/* p past its key: the memo asked, then the position searched */
static int p_keyed(Search *s, const State *st, const Key *key, u64 prefix)
{
    u64 h = hash_last(prefix, key);
    int hit = lookup(key, h);
    if (hit >= 0)
        return hit;
    Key lost = *key;
    in_space(&lost, LOST);
    u64 hl = hash_last(prefix, &lost);
    if (lookup(&lost, hl) >= 0)
        return 0;
    if (++s->nodes > s->max_nodes || interrupted(s->nodes)) {
        s->stop = 1;
        return 0;
    }
    int res;
    if (st->tlen && st->tlen == players(s, st))
        res = finish(s, st);
    else if (lower(s, st) >= st->k)
        res = 1;
    else {
        int seat = st->tlen ? next_seat(s, st, st->tseat[st->tlen - 1]) : s->me;
        if (seat == s->me) {
            int opts[16];
            int no = distinct(legal_at(s, st->hand, st->tcard, st->tlen, st->twin), st->unseen, opts);
            if (s->deep && no > 1)
                res = choosing(s, st, seat, opts, no);
            else
                for (int i = res = 0; i < no && !res; i++) {
                    State child = *st;
                    child.hand &= ~(1ull << opts[i]);
                    add_card(s, &child, seat, opts[i]);
                    res = p(s, &child);
                    if (s->stop)
                        return 0;
                }
        } else
            res = against(s, st, seat);
    }
    if (s->stop)
        return 0;
    if (res || s->relaxed)
        store(key, h, res);
    else
        store(&lost, hl, 0);  /* lost against one adversary, lost against all */
    return res;
}

/* Solver.solve's steps: the restricted adversaries (each PASS_NODES nodes; they can
 * only refute), the full search with its moves probed for its first PROBED nodes, the
 * relaxed game (RELAXED_NODES of its own; it can only show a cinch), then the full
 * search again, unprobed, within the rest of the budget (probes find refutations early
 * but only cost time where P succeeds, which a search that long usually shows).  Beside
 * these (not in Python), the search in growing shares (``growing``, a share of its own,
 * the exact memo kept, the killer moves tried first): at 7 or more seats (EARLY_SEATS)
 * the policies' first move is now and then not the adversary's best at the first turns,
 * and the search in order spends its budget showing P wins after it, so there it comes
 * before the full search unprobed (EARLY_NODES); at fewer seats, where that search
 * settles nearly everything, only where it stops (LATE_NODES: a position it leaves costs
 * the step's whole share, its nodes dearer than the search's as each round searches the
 * open moves again; at 6 seats 60,000 cost 4-6% of the 6-player corpus's end-to-end
 * time, 45,000 nothing measurable).  Either way every position the full search settles
 * within its budget is still settled: the step only adds exact answers to the memo,
 * which the search in order then finds in place of searching (its moves and their order
 * unchanged), so it reaches its answer in at most the nodes it took without them (as
 * long as the memo is not forgotten: its cap, about 400,000 positions, is above the
 * 350,000 or so a call of the default shares and budget visits, and it stores at most
 * one for each it visits).  The shares can be set (`shares`) for the tests to reach
 * every step on small positions. */
static const int PASSES[][2] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}};
static long long PASS_NODES = 1000, PROBED = 20000, RELAXED_NODES = 20000, EARLY_NODES = 100000,
                 LATE_NODES = 45000;
#define EARLY_SEATS 7

/* A call whose budget ends with the probed search (the judge's first try, FIRST_NODES)
 * leaves the memo as the next call on the same position, with a larger budget, would
 * have it at that point: its passes and probed search would go the same way, node for
 * node, to the same stop.  That call goes on from there instead (``resumes``, run), its
 * node count included, so its answer and count are the ones it would give from the start. */
typedef struct {
    int valid;
    int n, me, trump, must_beat, must_trump, must_overtrump, may_keep;  /* the Search's rules */
    State root;
    long long passed, stopped;        /* the node count after the passes, and at the stop */
    uint32_t epoch;                   /* the memo as the call left it */
    size_t used, cap;
    Tag *tags;
} Resume;
static Resume resume;

/* the same rules, position and memo as the call that left ``resume`` */
static int left_resume(const Search *s, const State *root)
{
    const Resume *r = &resume;
    return r->valid && r->n == s->n && r->me == s->me && r->trump == s->trump && r->must_beat == s->must_beat
           && r->must_trump == s->must_trump && r->must_overtrump == s->must_overtrump
           && r->may_keep == s->may_keep && !memcmp(&r->root, root, sizeof *root) && r->epoch == epoch
           && r->used == used && r->cap == cap && r->tags == tags;
}

/* The calls answered lately, their answers and node counts.  A call that does not resume
 * starts from an empty memo, so what it answers depends on its rules, position and budget
 * alone (and on the shares and the memo's cap, which ``shares`` and ``memory`` change:
 * they forget these).  Asked only while ``resume`` holds a stopped call's memo: the plain
 * walk (_walk.c) hands a hand whose first try at a position stops to the Python judge,
 * which asks that hand's positions again in order, the one that stopped last; answered
 * here, they leave that memo alone, so the judge's first try there is the call that
 * stopped, its answer and node count given again without a search (search_position),
 * and its whole-budget search resumes that memo, as when the judge asks alone. */
#define ANSWERED 64
typedef struct {
    int n, me, trump, must_beat, must_trump, must_overtrump, may_keep;
    State root;
    long long budget, nodes;
    int res;
} Answer;
static Answer answers[ANSWERED];
static int answers_held, answers_next;
static long long searched, resumed_calls;  /* searches run from the start, and resumed (``searches``) */

static void forget_answers(void) { answers_held = answers_next = 0; }

static void remember_answer(const Search *s, const State *root, long long budget, int res, long long nodes)
{
    Answer *a = &answers[answers_next];
    memset(a, 0, sizeof *a);
    a->n = s->n, a->me = s->me, a->trump = s->trump, a->must_beat = s->must_beat;
    a->must_trump = s->must_trump, a->must_overtrump = s->must_overtrump, a->may_keep = s->may_keep;
    a->root = *root;
    a->budget = budget, a->nodes = nodes, a->res = res;
    answers_next = (answers_next + 1) % ANSWERED;
    if (answers_held < ANSWERED)
        answers_held++;
}

static const Answer *answered(const Search *s, const State *root, long long budget)
{
    for (int i = 0; i < answers_held; i++) {
        const Answer *a = &answers[i];
        if (a->budget == budget && a->n == s->n && a->me == s->me && a->trump == s->trump
            && a->must_beat == s->must_beat && a->must_trump == s->must_trump
            && a->must_overtrump == s->must_overtrump && a->may_keep == s->may_keep
            && !memcmp(&a->root, root, sizeof *root))
            return a;
    }
    return NULL;
}

/* the call before stopped where this one, on the same position, would stop first */
static int resumes(const Search *s, const State *root, long long budget)
{
    return (budget <= 0 || budget > PROBED) && left_resume(s, root);
}

/* The step in growing shares: the exact search again from the root, each turn's moves
 * and P's options first searched in small, growing shares (deepening, choosing), within
 * ``share`` nodes of its own (added to ``end``, the budget's end, so that they do not
 * count against the budget); the exact memo kept.  1, 0, or -1 where it stops. */
static int growing(Search *s, const State *root, long long *end, long long share)
{
    long long from = s->nodes;
    s->deep = 1;
    s->stop = 0;
    s->max_nodes = s->nodes + share;
    int res = p(s, root);
    s->deep = 0;
    *end += s->nodes - from;
    return s->stop ? -1 : res;
}

/* ``resumed``: resumes() held, and the memo was kept (no start()) */
static int run(Search *s, const State *root, long long budget, int resumed)
{
    long long end;
    int res;
    resume.valid = 0;  /* taken now, or not at all */
    if (!resumed)  /* a call that resumes has them as the call it goes on from left them */
        memset(killer, -1, sizeof killer);
    if (resumed) {
        s->nodes = resume.stopped;
        s->probing = 1;  /* as the probed search leaves it: the relaxed game probes too */
        end = budget > 0 ? resume.passed + budget : (1LL << 62);
        goto relaxed;
    }
    for (int i = 0; i < 5; i++) {
        s->width = PASSES[i][0];
        s->policy = PASSES[i][1];
        s->space = i;
        s->max_nodes = s->nodes + PASS_NODES;
        s->stop = 0;
        int res = p(s, root);
        if (!s->stop && !res)
            return 0;
    }
    s->width = s->policy = 0;
    s->space = EXACT;
    long long passed = s->nodes;
    end = budget > 0 ? s->nodes + budget : (1LL << 62);
    s->probing = 1;
    s->stop = 0;
    s->max_nodes = end < s->nodes + PROBED ? end : s->nodes + PROBED;
    res = p(s, root);
    if (!s->stop || s->max_nodes == end) {
        if (s->stop && budget == PROBED) {
            Resume r = {1, s->n, s->me, s->trump, s->must_beat, s->must_trump, s->must_overtrump,
                        s->may_keep, *root, passed, s->nodes, epoch, used, cap, tags};
            resume = r;
        }
        return s->stop ? -1 : res;
    }
relaxed:
    /* the relaxed game, its own share beside the budget: it can only show a cinch */
    s->relaxed = 1;
    s->space = RELAXED;
    s->stop = 0;
    s->max_nodes = s->nodes + RELAXED_NODES;
    res = p(s, root);
    s->relaxed = 0;
    if (!s->stop && res)
        return 1;
    end += s->nodes - s->max_nodes + RELAXED_NODES;  /* its nodes do not count against the budget */
    s->space = EXACT;
    s->probing = 0;  /* the exact memo holds exact answers: it is kept */
    int early = s->n >= EARLY_SEATS;
    if (early && EARLY_NODES && (res = growing(s, root, &end, EARLY_NODES)) >= 0)
        return res;
    s->stop = 0;
    s->max_nodes = end;
    res = p(s, root);
    if (!s->stop || early || !LATE_NODES)
        return s->stop ? -1 : res;
    return growing(s, root, &end, LATE_NODES);
}

static int read_u64s(PyObject *seq, u64 *out, int n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return 0;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %d entries", what, n);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return 0; }
    }
    Py_DECREF(fast);
    return 1;
}

/* the trick so far, (seat, card) pairs, into seats and cards: 1, 0 for a seat or card out
 * of range, -1 with a Python error set */
static int read_trick(PyObject *trick, Py_ssize_t tl, int n, int *seats, int *cards)
{
    for (Py_ssize_t i = 0; i < tl; i++) {
        PyObject *pair = PySequence_GetItem(trick, i);
        if (!pair)
            return -1;
        int ok = PyArg_ParseTuple(pair, "ii", &seats[i], &cards[i]);
        Py_DECREF(pair);
        if (!ok)
            return -1;
        if (seats[i] < 0 || seats[i] >= n || cards[i] < 0 || cards[i] > 63)
            return 0;
    }
    return 1;
}

/* the number of seats (a sequence with an entry per seat) and of cards in the trick so
 * far: 0 with a Python error set */
static int sizes(PyObject *seats, PyObject *trick, Py_ssize_t *n, Py_ssize_t *tl)
{
    *n = PySequence_Size(seats);
    *tl = *n < 0 ? -1 : PySequence_Size(trick);
    return *tl >= 0;
}

/* P's position searched within max_nodes: the answer solve() gives (-2 where it does not
 * take the position), its nodes in *nodes.  Shared by solve() and the plain walk (_walk.c). */
static int search_position(Search *s, u64 hand, u64 unseen, const int *cnt, const u64 *forb,
                           const u64 *hold, const int *tseat, const int *tcard, int tl, int k,
                           long long max_nodes, long long *nodes)
{
    int n = s->n;
    *nodes = 0;
    if (n > MAXS || n < 1 || tl > n || s->me < 0 || s->me >= n || s->trump < 0 || s->trump > 3)
        return -2;
    State st;
    memset(&st, 0, sizeof st);
    st.hand = hand;
    st.unseen = unseen;
    st.k = k;
    for (int i = 0; i < n; i++) {
        if (cnt[i] < 0 || cnt[i] > 15 || pc(hold[i]) > 1)
            return -2;
        st.cnt[i] = cnt[i];
        st.forb[i] = forb[i];
        st.hold[i] = hold[i];
    }
    if (pc(hand) > 15)
        return -2;
    for (int i = 0; i < tl; i++) {
        if (tseat[i] < 0 || tseat[i] >= n || tcard[i] < 0 || tcard[i] > 63)
            return -2;
        add_card(s, &st, tseat[i], tcard[i]);
    }
    if (!rows_for(&st))  /* no memory for them: the Python search takes it */
        return -2;
    int resumed = resumes(s, &st, max_nodes);
    if (!resumed && resume.valid) {  /* a stopped call's memo kept, where this call needs none */
        const Answer *a;
        if (max_nodes == PROBED && left_resume(s, &st)) {  /* that call again: it stops as it did */
            *nodes = resume.stopped;
            return -1;
        }
        if ((a = answered(s, &st, max_nodes))) {
            *nodes = a->nodes;
            return a->res;
        }
    }
    if (!resumed)
        start();  /* else the memo the call before left on this position goes on (run) */
    if (resumed)
        resumed_calls++;
    else
        searched++;
    int res = run(s, &st, max_nodes, resumed);
    *nodes = s->nodes;
    if (!resumed && res >= 0)
        remember_answer(s, &st, max_nodes, res, *nodes);
    return res;
}

/* solve(hand, unseen, trump, me, counts, forbidden, holds, trick, k,
 *       must_beat, must_trump, must_overtrump, may_keep, max_nodes) -> (answer, nodes) */
static PyObject *solve(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long hand, unseen;
    int trump, me, k, must_beat, must_trump, must_overtrump, may_keep;
    long long max_nodes;
    PyObject *counts, *forb, *holds, *trick;
    if (!PyArg_ParseTuple(args, "KKiiOOOOiiiiiL", &hand, &unseen, &trump, &me, &counts, &forb, &holds,
                          &trick, &k, &must_beat, &must_trump, &must_overtrump, &may_keep, &max_nodes))
        return NULL;
    Py_ssize_t n, tl;
    if (!sizes(counts, trick, &n, &tl))
        return NULL;
    if (n > MAXS || n < 1 || tl > n || me < 0 || me >= n || trump < 0 || trump > 3)
        return Py_BuildValue("(iL)", -2, 0LL);
    Search s = {(int)n, me, trump, must_beat, must_trump, must_overtrump, may_keep, 0, 0, 0, 0, 0, 0, 0, 0};
    u64 c64[MAXS], fb[MAXS], hd[MAXS] = {0};
    if (!read_u64s(counts, c64, (int)n, "counts") || !read_u64s(forb, fb, (int)n, "forbidden"))
        return NULL;
    Py_ssize_t nh = PySequence_Size(holds);
    if (nh < 0)
        return NULL;
    if (nh && !read_u64s(holds, hd, (int)n, "holds"))
        return NULL;
    int cnt[MAXS];
    for (int i = 0; i < n; i++) {
        if (c64[i] > 15)
            return Py_BuildValue("(iL)", -2, 0LL);
        cnt[i] = (int)c64[i];
    }
    int seats[MAXS], cards[MAXS];
    int read = read_trick(trick, tl, (int)n, seats, cards);
    if (read <= 0)
        return read < 0 ? NULL : Py_BuildValue("(iL)", -2, 0LL);
    long long nodes;
    int res = search_position(&s, hand, unseen, cnt, fb, hd, seats, cards, (int)tl, k, max_nodes, &nodes);
    return answer(Py_BuildValue("(iL)", res, nodes));
}

/* -- refute.py's double dummy: one deal of the unseen cards, every card seen ---------------
 * Can P make k more tricks on this deal when every seat sees every card and the others play
 * to stop it?  If not, there is no cinch (a P who sees the deal does at least as well as
 * one who does not, and these opponents are one adversary).  refute.double_dummy is the
 * reference: the same moves in the same order (each seat's lowest card first), the same
 * positions counted and remembered. */
typedef struct {
    const Search *s;
    u64 hands[MAXS];
    int k;
    long long nodes, max_nodes;
    int stop;
} Deal;

/* positions on lead, remembered within one call: (hands, leader and tricks won) -> answer */
static u64 *dd_keys = NULL;
static uint32_t *dd_tags = NULL;
static size_t dd_cap = 0;
static uint32_t dd_epoch = 0;  /* below 2^31: a tag is the epoch, then the answer's bit */

static inline int dd_filled(size_t j) { return (dd_tags[j] >> 1) == dd_epoch; }

/* the slot of key (n hands, then leader and won): its own, or the empty one it would take */
static size_t dd_slot(const u64 *key, int n)
{
    for (size_t j = hash_words(key, n + 1, 0x9E3779B97F4A7C15ull) & (dd_cap - 1);; j = (j + 1) & (dd_cap - 1)) {
        if (!dd_filled(j))
            return j;
        if (!memcmp(&dd_keys[j * (MAXS + 1)], key, (size_t)(n + 1) * sizeof(u64)))
            return j;
    }
}

static int dd_lead(Deal *d, int leader, int won);

static int dd_play(Deal *d, int *ts, int *tc, int tl, int won)
{
    if (++d->nodes > d->max_nodes || interrupted(d->nodes)) {
        d->stop = 1;
        return 0;
    }
    const Search *s = d->s;
    int n = s->n, seat = -1;
    for (int step = 1; step <= n && seat < 0; step++) {
        int i = (ts[tl - 1] + step) % n, played = 0;
        for (int j = 0; j < tl; j++)
            played |= ts[j] == i;
        if (d->hands[i] && !played)
            seat = i;
    }
    if (seat < 0) {  /* the trick is complete */
        int w = ts[winning(tc, tl, s->trump)];
        won += w == s->me;
        if (won >= d->k)
            return 1;
        if (won + pc(d->hands[s->me]) < d->k)
            return 0;
        return dd_lead(d, w, won);
    }
    int mine = seat == s->me;
    u64 options = legal(s, d->hands[seat], tc, tl);
    while (options) {
        int c = low_bit(options);
        options &= ~(1ull << c);
        d->hands[seat] &= ~(1ull << c);
        ts[tl] = seat;
        tc[tl] = c;
        int r = dd_play(d, ts, tc, tl + 1, won);
        d->hands[seat] |= 1ull << c;
        if (d->stop)
            return 0;
        if (r == mine)
            return r;
    }
    return !mine;
}

static int dd_lead(Deal *d, int leader, int won)
{
    int n = d->s->n;
    u64 key[MAXS + 1];
    memcpy(key, d->hands, (size_t)n * sizeof(u64));
    key[n] = (u64)leader | (u64)won << 8;
    size_t j = dd_slot(key, n);
    if (dd_filled(j))
        return (int)(dd_tags[j] & 1);
    int mine = leader == d->s->me, res = !mine;
    int ts[MAXS], tc[MAXS];
    u64 options = d->hands[leader];
    while (options) {
        int c = low_bit(options);
        options &= ~(1ull << c);
        d->hands[leader] &= ~(1ull << c);
        ts[0] = leader;
        tc[0] = c;
        int r = dd_play(d, ts, tc, 1, won);
        d->hands[leader] |= 1ull << c;
        if (d->stop)
            return 0;
        if (r == mine) {
            res = r;
            break;
        }
    }
    j = dd_slot(key, n);  /* the table is as it was: a position is stored once it is answered */
    memcpy(&dd_keys[j * (MAXS + 1)], key, (size_t)(n + 1) * sizeof(u64));
    dd_tags[j] = dd_epoch << 1 | (uint32_t)res;
    return res;
}

/* double_dummy(hands, me, trump, trick, k, must_beat, must_trump, must_overtrump, may_keep,
 *              max_nodes) -> (answer, nodes): 1 P makes k, 0 it cannot, -1 past max_nodes
 * (1 to 2^18), -2 not taken (more than MAXS seats, a budget past that) */
static PyObject *double_dummy(PyObject *self, PyObject *args)
{
    (void)self;
    int me, trump, k, must_beat, must_trump, must_overtrump, may_keep;
    long long max_nodes;
    PyObject *hands, *trick;
    if (!PyArg_ParseTuple(args, "OiiOiiiiiL", &hands, &me, &trump, &trick, &k, &must_beat, &must_trump,
                          &must_overtrump, &may_keep, &max_nodes))
        return NULL;
    Py_ssize_t n, tl;
    if (!sizes(hands, trick, &n, &tl))
        return NULL;
    if (n > MAXS || n < 1 || tl >= n || me < 0 || me >= n || trump < 0 || trump > 3 || max_nodes < 1
        || max_nodes > (1LL << 18))
        return Py_BuildValue("(iL)", -2, 0LL);
    Search s = {(int)n, me, trump, must_beat, must_trump, must_overtrump, may_keep, 0, 0, 0, 0, 0, 0, 0, 0};
    Deal d;
    memset(&d, 0, sizeof d);
    d.s = &s;
    d.k = k;
    d.max_nodes = max_nodes;
    if (!read_u64s(hands, d.hands, (int)n, "hands"))
        return NULL;
    int ts[MAXS], tc[MAXS];
    int read = read_trick(trick, tl, (int)n, ts, tc);
    if (read <= 0)
        return read < 0 ? NULL : Py_BuildValue("(iL)", -2, 0LL);
    /* room for every position the call can answer (one per node at most), half empty */
    size_t want = 1;
    while (want < 2 * (size_t)max_nodes + 2)
        want <<= 1;
    if (want > dd_cap) {
        u64 *keys2 = malloc(want * (MAXS + 1) * sizeof(u64));
        uint32_t *tags2 = calloc(want, sizeof(uint32_t));
        if (!keys2 || !tags2) {
            free(keys2);
            free(tags2);
            return PyErr_NoMemory();
        }
        free(dd_keys);
        free(dd_tags);
        dd_keys = keys2;
        dd_tags = tags2;
        dd_cap = want;
        dd_epoch = 0;
    }
    if (++dd_epoch == 0x80000000u) {  /* wrapped: old marks could read as current */
        memset(dd_tags, 0, dd_cap * sizeof(uint32_t));
        dd_epoch = 1;
    }
    int res = tl ? dd_play(&d, ts, tc, (int)tl, 0) : dd_lead(&d, me, 0);
    return answer(Py_BuildValue("(iL)", d.stop ? -1 : res, d.nodes));
}

/* -- refute.py's _best: an all-seeing P against opponents who play a fixed policy -------
 * The most tricks (up to k) P makes from here on one deal when each opponent plays
 * refute._cheapest (policy 0: win as cheaply as possible, else throw the lowest card; lead
 * the highest) or refute._highest (policy 1: the highest card; lead the lowest).  Only
 * P's turns branch; the same moves in the same order as the Python one, which is the
 * reference (its memo only saves time: none here, the branching being P's alone). */
typedef struct {
    const Search *s;
    int k, policy;
    long long nodes, max_nodes;
    int stop;
} Versus;

static inline int strength(int c, int trump) { return (c & 15) + ((c >> 4) == trump ? 100 : 0); }

/* the policy's card for hand with the trick so far; of equal strength the lowest card,
 * as Python's min() and max() keep the first of the cards in order */
static int policy_card(const Versus *v, u64 hand, const int *cards, int n)
{
    const Search *s = v->s;
    int trump = s->trump, most;
    u64 pool = legal(s, hand, cards, n);
    if (!n)
        most = v->policy == 0;
    else if (v->policy == 1)
        most = 1;
    else {
        int best = cards[winning(cards, n, trump)];
        u64 winners = 0;
        for (u64 m = pool; m; m &= m - 1)
            if (beats(low_bit(m), best, trump))
                winners |= m & -m;
        pool = winners ? winners : pool;
        most = 0;
    }
    int out = -1, top = 0;
    for (u64 m = pool; m; m &= m - 1) {
        int c = low_bit(m), x = strength(c, trump);
        if (out < 0 || (most ? x > top : x < top)) {
            out = c;
            top = x;
        }
    }
    return out;
}

/* P to play to the trick (seats ts, cards tc, tl of them), ``after``: the seats to play
 * after P in it */
static int versus_turn(Versus *v, const u64 *hands, const int *ts, const int *tc, int tl,
                       const int *after, int na, int won)
{
    const Search *s = v->s;
    int me = s->me, n = s->n, k = v->k;
    if (won + pc(hands[me]) < k)
        return won;
    if (++v->nodes > v->max_nodes || interrupted(v->nodes)) {
        v->stop = 1;
        return won;
    }
    int best = won;
    u64 options = legal(s, hands[me], tc, tl);
    while (options && best < k) {
        u64 low = options & -options;
        options ^= low;
        u64 now[MAXS];
        int seats[MAXS], cards[MAXS], len = tl;
        memcpy(now, hands, (size_t)n * sizeof(u64));
        memcpy(seats, ts, (size_t)tl * sizeof(int));
        memcpy(cards, tc, (size_t)tl * sizeof(int));
        now[me] &= ~low;
        seats[len] = me;
        cards[len++] = low_bit(low);
        for (int i = 0; i < na; i++) {
            int c = policy_card(v, now[after[i]], cards, len);
            if (c < 0)
                return v->stop = 1, best;  /* a seat out of cards (no play of the game): not taken */
            now[after[i]] &= ~(1ull << c);
            seats[len] = after[i];
            cards[len++] = c;
        }
        int w = seats[winning(cards, len, s->trump)];
        int got = won + (w == me);
        if (got >= k || !now[me]) {
            best = got > best ? got : best;
            continue;
        }
        /* the next trick, led by the winner: the opponents before P play at once */
        int order[MAXS], no = 0, at = 0;
        for (int d = 0; d < n; d++) {
            int q = (w + d) % n;
            if (q == me || now[q]) {
                if (q == me)
                    at = no;
                order[no++] = q;
            }
        }
        len = 0;
        for (int i = 0; i < at; i++) {
            int c = policy_card(v, now[order[i]], cards, len);  /* order: seats holding cards */
            now[order[i]] &= ~(1ull << c);
            seats[len] = order[i];
            cards[len++] = c;
        }
        int r = versus_turn(v, now, seats, cards, len, order + at + 1, no - at - 1, got);
        if (v->stop)
            return best;
        best = r > best ? r : best;
    }
    return best;
}

/* versus_policy(hands, me, trump, trick, k, must_beat, must_trump, must_overtrump,
 *               may_keep, policy, max_nodes) -> (tricks, nodes): the most tricks (up to
 * k) P makes against the policy; -1 past max_nodes turns of P (the Python one then
 * answers), -2 a table this code does not take */
static PyObject *versus_policy(PyObject *self, PyObject *args)
{
    (void)self;
    int me, trump, k, must_beat, must_trump, must_overtrump, may_keep, policy;
    long long max_nodes;
    PyObject *hands, *trick;
    if (!PyArg_ParseTuple(args, "OiiOiiiiiiL", &hands, &me, &trump, &trick, &k, &must_beat, &must_trump,
                          &must_overtrump, &may_keep, &policy, &max_nodes))
        return NULL;
    Py_ssize_t n, tl;
    if (!sizes(hands, trick, &n, &tl))
        return NULL;
    if (n > MAXS || n < 1 || tl >= n || me < 0 || me >= n || trump < 0 || trump > 3 || policy < 0 || policy > 1)
        return Py_BuildValue("(iL)", -2, 0LL);
    Search s = {(int)n, me, trump, must_beat, must_trump, must_overtrump, may_keep, 0, 0, 0, 0, 0, 0, 0, 0};
    Versus v = {&s, k, policy, 0, max_nodes, 0};
    u64 start[MAXS];
    if (!read_u64s(hands, start, (int)n, "hands"))
        return NULL;
    int ts[MAXS], tc[MAXS];
    int read = read_trick(trick, tl, (int)n, ts, tc);
    if (read <= 0)
        return read < 0 ? NULL : Py_BuildValue("(iL)", -2, 0LL);
    /* the seats after P in this trick: those still holding cards, from its leader round */
    int first = tl ? ts[0] : me, played = 0, order[MAXS], no = 0, at = 0;
    for (int i = 0; i < tl; i++)
        played |= 1 << ts[i];
    for (int d = 0; d < n; d++) {
        int q = (first + d) % (int)n;
        if (q == me || start[q] || (played >> q & 1)) {
            if (q == me)
                at = no;
            order[no++] = q;
        }
    }
    int res = versus_turn(&v, start, ts, tc, (int)tl, order + at + 1, no - at - 1, 0);
    return answer(Py_BuildValue("(iL)", v.stop ? -1 : res, v.nodes));
}

/* memory([megabytes]): cap the memo near this size (ENTRY_BYTES an entry); past it the
 * positions are forgotten.  Without an argument, the default cap (DEFAULT_ENTRIES). */
static PyObject *memory(PyObject *self, PyObject *args)
{
    (void)self;
    long long megabytes = -1;
    if (!PyArg_ParseTuple(args, "|L", &megabytes))
        return NULL;
    long long most = (long long)(MAX_ENTRIES / 1000000 * ENTRY_BYTES);
    long long entries = megabytes < 0 ? DEFAULT_ENTRIES
                        : megabytes >= most ? (long long)MAX_ENTRIES
                                            : megabytes * 1000000LL / (long long)ENTRY_BYTES;
    max_entries = entries > 16 ? (size_t)entries : 16;
    resume.valid = 0;
    forget_answers();
    free(tags);
    free(keys);
    tags = NULL;
    keys = NULL;
    cap = allocated = room = used = 0;
    return PyLong_FromSize_t(max_entries);
}

/* feasible(unseen, counts, forbidden, holds) -> bool: Hall's condition as the search
 * checks it (each seat's forbidden and held cards), for the tests to hold it to Python */
/* the seats' counts, forbidden cards and held cards, 1 to MAXS of them (``what`` names the
 * caller in the error): how many, or -1 with an error set */
static int read_seats(PyObject *counts, PyObject *forb, PyObject *holds, int *cnt, u64 *fb, u64 *hd,
                      const char *what)
{
    Py_ssize_t n = PySequence_Size(counts);
    if (n < 0)
        return -1;
    if (n < 1 || n > MAXS) {
        PyErr_Format(PyExc_ValueError, "%s: 1 to 10 seats", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(counts, i);
        if (!item)
            return -1;
        cnt[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred())
            return -1;
    }
    if (!read_u64s(forb, fb, (int)n, "forbidden") || !read_u64s(holds, hd, (int)n, "holds"))
        return -1;
    return (int)n;
}

static PyObject *feasible_py(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long unseen;
    PyObject *counts, *forb, *holds;
    if (!PyArg_ParseTuple(args, "KOOO", &unseen, &counts, &forb, &holds))
        return NULL;
    int cnt[MAXS];
    u64 fb[MAXS], hd[MAXS];
    int n = read_seats(counts, forb, holds, cnt, fb, hd, "feasible");
    if (n < 0)
        return NULL;
    return PyBool_FromLong(feasible(unseen, cnt, fb, hd, n));
}

/* choices(pool, fixed, unseen, counts, forbidden, holds, seat) -> the adversary's cards
 * worth trying for seat (``choices``), for the tests to hold to canon._choices */
static PyObject *choices_py(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long pool, fixed, unseen;
    PyObject *counts, *forb, *holds;
    int seat;
    if (!PyArg_ParseTuple(args, "KKKOOOi", &pool, &fixed, &unseen, &counts, &forb, &holds, &seat))
        return NULL;
    State st;
    memset(&st, 0, sizeof st);
    st.unseen = unseen;
    int n = read_seats(counts, forb, holds, st.cnt, st.forb, st.hold, "choices");
    if (n < 0)
        return NULL;
    if (seat < 0 || seat >= n) {
        PyErr_SetString(PyExc_ValueError, "choices: a seat among them");
        return NULL;
    }
    int out[64];
    int k = choices(&st, n, seat, pool, fixed, out);
    PyObject *list = PyList_New(k);
    for (int i = 0; list && i < k; i++) {
        PyObject *c = PyLong_FromLong(out[i]);
        if (!c) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, c);
    }
    return list;
}

/* searches() -> (searches run from the start, searches resumed) so far, for the tests */
static PyObject *searches(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return Py_BuildValue("(LL)", searched, resumed_calls);
}

/* shares(pass_nodes, probed, relaxed_nodes[, early_nodes[, late_nodes]]) -> the previous
 * five; late_nodes is early_nodes where only that is given */
static PyObject *shares(PyObject *self, PyObject *args)
{
    (void)self;
    long long a = PASS_NODES, b = PROBED, c = RELAXED_NODES, d = EARLY_NODES, e = LATE_NODES;
    long long early = -1, late = -1;
    resume.valid = 0;
    forget_answers();
    if (!PyArg_ParseTuple(args, "LLL|LL", &PASS_NODES, &PROBED, &RELAXED_NODES, &early, &late))
        return NULL;
    if (early >= 0)
        EARLY_NODES = LATE_NODES = early;
    if (late >= 0)
        LATE_NODES = late;
    return Py_BuildValue("(LLLLL)", a, b, c, d, e);
}

#include "_walk.c"  /* the plain walk's tricks */

/* variant() -> the copy of the search in use: "bmi" (BMI1, BMI2, LZCNT) or "baseline" */
static PyObject *variant(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
#ifdef SEARCH_BMI
    return PyUnicode_FromString("bmi");
#else
    return PyUnicode_FromString("baseline");
#endif
}

static PyMethodDef methods[] = {
    {"variant", variant, METH_NOARGS, "The copy of the search in use: bmi or baseline."},
    {"choices", choices_py, METH_VARARGS, "The adversary's cards worth trying for a seat (the ends of its runs)."},
    {"searches", searches, METH_NOARGS, "The searches run from the start and resumed so far."},
    {"shares", shares, METH_VARARGS, "Set the steps' node shares (pass, probed, relaxed[, deep]); returns the previous."},
    {"solve", solve, METH_VARARGS, "The exact sure-tricks search: (answer, nodes); answer 1, 0, -1 undecided, -2 not taken."},
    {"walk_hand", walk_hand, METH_VARARGS,
     "The plain walk of a hand: (trump, active, passed, discards, won, plays), or None for the Python walk."},
    {"setup_walk", setup_walk, METH_VARARGS, "The record classes the plain walk reads."},
    {"feasible", feasible_py, METH_VARARGS, "Hall's condition as the search checks it: can the unseen cards be dealt?"},
    {"memory", memory, METH_VARARGS, "Cap the memo near this many megabytes (none: the default); returns the positions it holds."},
    {"versus_policy", versus_policy, METH_VARARGS,
     "One deal, P seeing every card, the others playing a fixed policy: (tricks, nodes); -1 past the nodes."},
    {"double_dummy", double_dummy, METH_VARARGS,
     "One deal, every card seen: (answer, nodes); 1 P makes k, 0 it cannot, -1 past the nodes."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "The cinch's exact search, compiled.", -1, methods,
                                     NULL, NULL, NULL, NULL};

#ifdef TARGETED
#pragma GCC pop_options
#endif

#ifdef SEARCH_BMI
PyObject *booray_search_bmi(void) __attribute__((visibility("hidden")));

/* the module from this copy (PyInit__search, where the CPU has its instructions) */
PyObject *booray_search_bmi(void)
{
    return PyModule_Create(&module);
}
#else
#ifdef BMI_COPY
#include <cpuid.h>
PyObject *booray_search_bmi(void) __attribute__((visibility("hidden")));

/* BMI1 and BMI2 (cpuid leaf 7: ebx bits 3 and 8) and LZCNT (leaf 0x80000001: ecx bit 5) */
static int has_bmi(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    if (!(b >> 3 & 1) || !(b >> 8 & 1))
        return 0;
    if (__get_cpuid_max(0x80000000u, NULL) < 0x80000001u)
        return 0;
    __cpuid(0x80000001u, a, b, c, d);
    return c >> 5 & 1;
}
#endif

PyMODINIT_FUNC PyInit__search(void)
{
#ifdef NEEDS_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "the compiled search needs a CPU with the popcnt instruction");
        return NULL;
    }
#endif
#ifdef BMI_COPY
    const char *cpu = getenv("BOORAY_AUDIT_CPU");
    if (!(cpu && !strcmp(cpu, "baseline")) && has_bmi())
        return booray_search_bmi();
#endif
    return PyModule_Create(&module);
}
#endif
