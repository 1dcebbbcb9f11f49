/* A plain hand settled on its session's chain, compiled: what SessionAudit.settle (audit.py)
 * and Chain.settle (rules/settle.py) do for a hand whose replay found nothing, with the
 * Python code kept as the reference.  It answers only where the settlement has nothing to
 * say but the numbers: no finding, no undecidable check, no recall, no dispute, no name in
 * doubt, no claim of the table's that the settlement contradicts, the standard settlement
 * with one ante, the hand finished (its tricks known, a walkover, or everyone passed), and
 * every amount below 2^50 chips.  Anything else, it leaves (None) with the chain as it
 * was, and the Python code settles the hand.  tests/test_settle_compiled.py holds the two
 * to the same settlements and chains, hand by hand. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MOST (1LL << 50)  /* amounts past it go to the Python code (ints of any size): below it,
                           * no sum here comes near 2^63, nor any amount near audit._largest's CHIPS */

/* the record classes and the Settlement class (setup), and attribute names */
enum { POT, ANTE, TRICKS, NET, RECALL, DISPUTE, NKINDS };
static PyObject *kinds[NKINDS], *settlement_class;
static PyObject *s_amount, *s_players, *s_counts, *s_amounts, *s_seated, *s_active, *s_tricks, *s_walkover,
    *s_all_passed, *s_complete, *s_leads, *s_carry, *s_exempt, *s_last, *s_ledger, *s_ante, *s_limit,
    *s_limit_caps_win, *s_double_ante, *s_settle, *s_standard, *s_all, *s_none;

/* a Python int as a C one, within MOST: 1, else 0 (an error cleared) */
static int amount(PyObject *o, long long *out)
{
    if (!PyLong_Check(o))
        return 0;
    int over = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &over);
    if (over || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (v >= MOST || v <= -MOST)
        return 0;
    *out = v;
    return 1;
}

static int truth(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

/* the table's claims, as audit._said reads them; 0 where the hand has a recall or a dispute */
typedef struct {
    PyObject *pot, *ante;       /* borrowed: the last `Pot` amount, the last `Ante` players */
    PyObject *tricks[16], *net[16];  /* borrowed: each line's pairs */
    int ntricks, nnet;
} Claims;

static int read_claims(PyObject *events, Claims *c)
{
    memset(c, 0, sizeof *c);
    Py_ssize_t n = PyTuple_GET_SIZE(events);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyTuple_GET_ITEM(events, i), *kind = (PyObject *)Py_TYPE(e), *v;
        if (kind == kinds[POT] || kind == kinds[ANTE]) {
            if (!(v = PyObject_GetAttr(e, kind == kinds[POT] ? s_amount : s_players)))
                return -1;
            *(kind == kinds[POT] ? &c->pot : &c->ante) = v;  /* the event holds it */
            Py_DECREF(v);
        } else if (kind == kinds[TRICKS] || kind == kinds[NET]) {
            int *count = kind == kinds[TRICKS] ? &c->ntricks : &c->nnet;
            if (*count == 16)
                return 0;
            if (!(v = PyObject_GetAttr(e, kind == kinds[TRICKS] ? s_counts : s_amounts)))
                return -1;
            Py_DECREF(v);
            if (!PyTuple_Check(v))
                return 0;
            (kind == kinds[TRICKS] ? c->tricks : c->net)[(*count)++] = v;
        } else if (kind == kinds[RECALL] || kind == kinds[DISPUTE])
            return 0;
    }
    return 1;
}

/* each (name, int) pair of the claim lines, in order, to ``f``; 0 where ``f`` says stop or a
 * pair is not one */
typedef int (*PairFn)(PyObject *name, PyObject *value, void *arg);

static int each_pair(PyObject **lines, int n, PairFn f, void *arg)
{
    for (int i = 0; i < n; i++)
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(lines[i]); j++) {
            PyObject *pair = PyTuple_GET_ITEM(lines[i], j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2)
                return 0;
            int r = f(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1), arg);
            if (r <= 0)
                return r;
        }
    return 1;
}

/* settle._trick_claims finds nothing: each count the claims give a player dealt in or
 * active is the replay's */
typedef struct { PyObject *tricks, *dealt, *active; } TrickCheck;

static int trick_agrees(PyObject *name, PyObject *value, void *arg)
{
    TrickCheck *t = arg;
    int in = PySequence_Contains(t->dealt, name);
    if (in == 0)
        in = PySequence_Contains(t->active, name);
    if (in <= 0)
        return in < 0 ? -1 : 1;
    PyObject *won = PyDict_GetItemWithError(t->tricks, name);
    if (!won && PyErr_Occurred())
        return -1;
    long long a = 0, b;
    if ((won && !amount(won, &a)) || !amount(value, &b))
        return 0;
    return a == b;
}

/* settle._net_claims finds nothing: each net the claims give a player the settlement has */
static int net_agrees(PyObject *name, PyObject *value, void *arg)
{
    PyObject *got = PyDict_GetItemWithError((PyObject *)arg, name);
    if (!got)
        return PyErr_Occurred() ? -1 : 1;
    int eq = PyObject_RichCompareBool(got, value, Py_EQ);
    return eq < 0 ? -1 : eq;
}

/* every name the `Net` lines give, to the set */
static int add_name(PyObject *name, PyObject *value, void *arg)
{
    (void)value;
    return PySet_Add((PyObject *)arg, name) < 0 ? -1 : 1;
}

static PyObject *int_of(long long v) { return PyLong_FromLongLong(v); }

/* dict[name] = value (a new int); 0 with an error set */
static int put(PyObject *d, PyObject *name, long long v)
{
    PyObject *o = int_of(v);
    if (!o)
        return 0;
    int r = PyDict_SetItem(d, name, o);
    Py_DECREF(o);
    return r == 0;
}

/* the work of ``plain``, its references in ``w`` (freed by the caller): the Settlement, or
 * Py_None (left to Python), or NULL with an error */
typedef struct {
    PyObject *dealt, *active, *tricks, *walkover, *leads, *ledger, *exempt, *antes, *penalties, *net, *bourre,
        *next_exempt, *named, *out;
} Work;

static PyObject *leave(void) { Py_RETURN_NONE; }

/* w->antes made afresh: ``ante`` from each player dealt in and not in ``exempt`` (NULL:
 * nobody exempt), as Chain._settle's dict; *anted their sum, each player once.  0 with an
 * error set. */
static int ante_up(Work *w, PyObject *exempt, long long ante, long long *anted)
{
    Py_XSETREF(w->antes, PyDict_New());
    if (!w->antes)
        return 0;
    *anted = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(w->dealt); i++) {
        PyObject *p = PyList_GET_ITEM(w->dealt, i);
        int in = exempt ? PySet_Contains(exempt, p) : 0, had;
        if (in < 0 || (!in && (had = PyDict_Contains(w->antes, p)) < 0))
            return 0;
        if (in)
            continue;
        *anted += had ? 0 : ante;
        if (!put(w->antes, p, ante))
            return 0;
    }
    return 1;
}

static PyObject *settle(PyObject *events, PyObject *number_o, PyObject *rep, PyObject *rules, PyObject *seats,
                        PyObject *chain, Work *w)
{
    if (!PyTuple_Check(events) || !PyTuple_Check(seats))
        return leave();
    Claims c;
    int got = read_claims(events, &c);
    if (got <= 0)
        return got < 0 ? NULL : leave();
    /* the rules: the standard settlement with one ante */
    int t;
    PyObject *v;
    if ((t = truth(rules, s_double_ante)) != 0)
        return t < 0 ? NULL : leave();
    if (!(v = PyObject_GetAttr(rules, s_settle)))
        return NULL;
    t = PyUnicode_Check(v) && PyUnicode_Compare(v, s_standard) == 0;
    Py_DECREF(v);
    if (!t)
        return leave();
    long long ante, limit = 0;
    int has_limit, caps;
    if (!(v = PyObject_GetAttr(rules, s_ante)))
        return NULL;
    t = amount(v, &ante);
    Py_DECREF(v);
    if (!t)
        return leave();
    if (!(v = PyObject_GetAttr(rules, s_limit)))
        return NULL;
    has_limit = v != Py_None;
    t = !has_limit || amount(v, &limit);
    Py_DECREF(v);
    if (!t)
        return leave();
    if ((caps = truth(rules, s_limit_caps_win)) < 0)
        return NULL;

    /* the replay: who was dealt in, who played, the tricks they won */
    if (!(w->dealt = PyObject_GetAttr(rep, s_seated)) || !(w->active = PyObject_GetAttr(rep, s_active))
        || !(w->tricks = PyObject_GetAttr(rep, s_tricks)) || !(w->walkover = PyObject_GetAttr(rep, s_walkover))
        || !(w->leads = PyObject_GetAttr(rep, s_leads)))
        return NULL;
    if (!PyList_Check(w->dealt) || !PyList_Check(w->active))
        return leave();
    int complete, all_passed;
    if ((complete = truth(rep, s_complete)) < 0 || (all_passed = truth(rep, s_all_passed)) < 0)
        return NULL;
    PyObject *tricks = complete ? w->tricks : Py_None;  /* audit._tricks, where the replay knows them */
    if (complete && tricks == Py_None)
        return leave();  /* a winner in doubt: the claims may pick a reading */
    if (tricks != Py_None && !PyDict_Check(tricks))
        return leave();
    if (c.ntricks || c.nnet) {  /* other ways the tricks may have gone, for the claims to pick */
        Py_ssize_t ways = w->leads == Py_None ? 1 : PyObject_Length(w->leads);
        if (ways < 0)
            return NULL;
        if (ways)
            return leave();
    }
    int finished = all_passed || w->walkover != Py_None || tricks != Py_None;
    if (!finished)
        return leave();  /* unfinished: the nets are not known */
    /* no name in doubt: a player exempt by the hand before under another spelling
     * (no Seats), a seated player the hand names nowhere, `Net` naming the others */
    if (!(w->exempt = PyObject_GetAttr(chain, s_exempt)))
        return NULL;
    if (w->exempt != Py_None && !PyAnySet_Check(w->exempt))
        return leave();
    if (PyTuple_GET_SIZE(seats) == 0 && w->exempt != Py_None && PySet_GET_SIZE(w->exempt) > 0)
        return leave();
    if (PyTuple_GET_SIZE(seats) && c.nnet) {
        if (!(w->named = PySet_New(NULL)))
            return NULL;
        if ((got = each_pair(c.net, c.nnet, add_name, w->named)) <= 0)
            return got < 0 ? NULL : leave();
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seats); i++) {
            int in = PySet_Contains(w->named, PyTuple_GET_ITEM(seats, i));
            if (in <= 0)
                return in < 0 ? NULL : leave();
        }
    }

    /* the chain: Chain._settle */
    PyObject *carry_o, *last_o;
    long long carry = 0, last = 0, number;
    if (!(carry_o = PyObject_GetAttr(chain, s_carry)))
        return NULL;
    Py_DECREF(carry_o);  /* the chain holds it */
    if (!(last_o = PyObject_GetAttr(chain, s_last)))
        return NULL;
    Py_DECREF(last_o);
    if ((carry_o != Py_None && !amount(carry_o, &carry)) || (last_o != Py_None && !amount(last_o, &last)))
        return leave();
    if (!amount(number_o, &number))
        return leave();
    int first = last_o == Py_None, gap = !first && number != last + 1;
    int has_carry = carry_o != Py_None && !gap;
    PyObject *exempt = gap ? Py_None : w->exempt;
    long long anted = 0;
    Py_ssize_t nd = PyList_GET_SIZE(w->dealt);
    if (exempt == Py_None ? !(w->antes = PyDict_New()) : !ante_up(w, exempt, ante, &anted))
        return NULL;  /* who is exempt unknown: no ante known */
    int has_pot = has_carry && exempt != Py_None;
    long long pot = has_pot ? carry + anted : 0, carry_in = carry, claimed;
    int has_carry_in = has_carry;
    if (c.pot && !amount(c.pot, &claimed))
        return leave();
    if (c.pot && (first || gap || !has_pot)) {
        pot = claimed;
        has_pot = 1;
        if (exempt == Py_None && !ante_up(w, NULL, ante, &anted))
            return NULL;
        carry_in = pot - anted;
        has_carry_in = 1;
    } else if (c.pot && has_pot && claimed != pot)
        return leave();  /* wrong-pot */
    if (c.ante && exempt != Py_None) {  /* settle._ante_claims finds nothing */
        PyObject *said;
        if (PyUnicode_Check(c.ante) && PyUnicode_Compare(c.ante, s_all) == 0)
            said = PySet_New(w->dealt);
        else if (PyUnicode_Check(c.ante) && PyUnicode_Compare(c.ante, s_none) == 0)
            said = PySet_New(NULL);
        else
            said = PySet_New(c.ante);
        if (!said)
            return NULL;
        PyObject *it = PyObject_GetIter(said), *p;
        int stray = 0, differs = PySet_GET_SIZE(said) != PyDict_GET_SIZE(w->antes);
        while (it && (p = PyIter_Next(it))) {
            int in = PySequence_Contains(w->dealt, p);
            int paid = PyDict_Contains(w->antes, p);
            Py_DECREF(p);
            if (in < 0 || paid < 0)
                break;
            stray |= !in;
            differs |= !paid;
        }
        Py_XDECREF(it);
        if (PyErr_Occurred()) {
            Py_DECREF(said);
            return NULL;
        }
        Py_DECREF(said);
        if (!stray && differs)
            return leave();  /* wrong-ante */
    }

    /* the outcome: Chain._outcome, the standard settlement */
    if (!(w->penalties = PyDict_New()) || !(w->bourre = PyList_New(0)) || !(w->next_exempt = PySet_New(NULL)))
        return NULL;
    PyObject *winner = Py_None;
    long long won = 0, paid = 0, settled_carry = 0;
    int has_settled_carry = 0;
    if (all_passed) {
        settled_carry = pot;
        has_settled_carry = has_pot;
    } else {
        if (w->walkover != Py_None)
            winner = w->walkover;
        else {  /* _leaders, _pay_the_pot */
            Py_ssize_t na = PyList_GET_SIZE(w->active);
            long long top = 0, count;
            int leaders = 0;
            PyObject *leader = NULL;
            Py_ssize_t at = 0;
            PyObject *k, *n;
            int any = 0;
            while (PyDict_Next(tricks, &at, &k, &n)) {
                if (!amount(n, &count))
                    return leave();
                if (!any || count > top)
                    top = count;
                any = 1;
            }
            for (Py_ssize_t i = 0; i < na; i++) {
                PyObject *p = PyList_GET_ITEM(w->active, i), *n2 = PyDict_GetItemWithError(tricks, p);
                if (!n2 && PyErr_Occurred())
                    return NULL;
                count = 0;
                if (n2 && !amount(n2, &count))
                    return leave();
                if (count == top) {
                    leaders++;
                    leader = leader ? leader : p;
                }
                if (count == 0 && PyList_Append(w->bourre, p) < 0)
                    return NULL;
            }
            if (leaders == 1)  /* no violator, no recall: alone, the leader wins */
                winner = leader;
            else if (leaders > 1)
                for (Py_ssize_t i = 0; i < na; i++) {
                    PyObject *p = PyList_GET_ITEM(w->active, i), *n2 = PyDict_GetItemWithError(tricks, p);
                    count = 0;
                    if (n2 && !amount(n2, &count))
                        return leave();
                    if (count == top && PySet_Add(w->next_exempt, p) < 0)
                        return NULL;
                }
            /* no violators (renege-penalty=pot): the payers are the players bourré */
            long long fine = has_pot ? (has_limit && limit && limit < pot ? limit : pot) : 0;
            for (Py_ssize_t i = 0; i < na; i++) {
                PyObject *p = PyList_GET_ITEM(w->active, i);
                int in = PySequence_Contains(w->bourre, p);
                if (in < 0)
                    return NULL;
                if (!in)
                    continue;
                if (PySet_Add(w->next_exempt, p) < 0)
                    return NULL;
                if (PyDict_Contains(w->penalties, p) == 0 && has_pot)
                    paid += fine;
                if (has_pot ? !put(w->penalties, p, fine) : PyDict_SetItem(w->penalties, p, Py_None) < 0)
                    return NULL;
            }
        }
        if (has_pot) {
            int t2 = winner != Py_None ? PyObject_IsTrue(winner) : 0;
            if (t2 < 0)
                return NULL;
            won = !t2 ? 0 : caps && has_limit && limit < pot ? limit : pot;
            settled_carry = pot - won + paid;
            has_settled_carry = 1;
        }
    }
    if (has_pot) {  /* _net */
        if (!(w->net = PyDict_New()))
            return NULL;
        Py_ssize_t at = 0;
        PyObject *p, *a;
        while (PyDict_Next(w->antes, &at, &p, &a)) {
            long long x;
            if (!amount(a, &x) || !put(w->net, p, -x))
                return PyErr_Occurred() ? NULL : leave();
        }
        at = 0;
        while (PyDict_Next(w->penalties, &at, &p, &a)) {
            long long x, before = 0;
            PyObject *b = PyDict_GetItemWithError(w->net, p);
            if ((b && !amount(b, &before)) || !amount(a, &x) || !put(w->net, p, before - x))
                return PyErr_Occurred() ? NULL : leave();
        }
        int t2 = winner != Py_None ? PyObject_IsTrue(winner) : 0;
        if (t2 < 0)
            return NULL;
        if (t2) {
            long long before = 0;
            PyObject *b = PyDict_GetItemWithError(w->net, winner);
            if ((b && !amount(b, &before)) || !put(w->net, winner, before + won))
                return PyErr_Occurred() ? NULL : leave();
        }
        for (Py_ssize_t i = 0; i < nd; i++) {
            PyObject *zero = int_of(0);
            if (!zero || !PyDict_SetDefault(w->net, PyList_GET_ITEM(w->dealt, i), zero)) {
                Py_XDECREF(zero);
                return NULL;
            }
            Py_DECREF(zero);
        }
    }
    /* the claims against it: settle._trick_claims, settle._net_claims */
    if (c.ntricks && tricks != Py_None) {
        TrickCheck tc = {tricks, w->dealt, w->active};
        if ((got = each_pair(c.tricks, c.ntricks, trick_agrees, &tc)) <= 0)
            return got < 0 ? NULL : leave();  /* wrong-trick-count */
    }
    if (c.nnet && w->net && (got = each_pair(c.net, c.nnet, net_agrees, w->net)) <= 0)
        return got < 0 ? NULL : leave();  /* wrong-settlement */
    /* the chips are conserved (Chain._settle's assertion), and the ledger takes the nets */
    if (!(w->ledger = PyObject_GetAttr(chain, s_ledger)))
        return NULL;
    if (!PyDict_Check(w->ledger))
        return leave();
    int posts = w->net && has_settled_carry && has_carry_in;
    if (posts) {
        long long sum = 0, x;
        Py_ssize_t at = 0;
        PyObject *p, *a;
        while (PyDict_Next(w->net, &at, &p, &a)) {
            if (!amount(a, &x))
                return leave();
            sum += x;
            PyObject *b = PyDict_GetItemWithError(w->ledger, p);
            long long before = 0;
            if ((!b && PyErr_Occurred()) || (b && !amount(b, &before)))
                return PyErr_Occurred() ? NULL : leave();
        }
        if (sum + settled_carry - carry_in != 0)
            return leave();
    }
    /* audit._largest stays below CHIPS: every amount here is below 2^60, the ledger's too */
    Py_ssize_t at = 0;
    PyObject *p, *a;
    long long x;
    while (PyDict_Next(w->ledger, &at, &p, &a))
        if (!amount(a, &x))
            return leave();

    /* settled: the Settlement made, then the chain changed (nothing before: a hand left to
     * Python finds the chain as it was) */
    PyObject *args[9] = {NULL, NULL, w->antes, winner, NULL, w->bourre, w->penalties,
                         w->net ? w->net : Py_None, NULL};
    PyObject *pot_o = has_pot ? int_of(pot) : (Py_INCREF(Py_None), Py_None);
    PyObject *won_o = int_of(won);
    Py_INCREF(number_o);
    PyObject *carry_out = has_settled_carry ? int_of(settled_carry) : (Py_INCREF(Py_None), Py_None);
    if (pot_o && won_o && number_o && carry_out) {
        args[0] = number_o, args[1] = pot_o, args[4] = won_o, args[8] = carry_out;
        w->out = PyObject_Vectorcall(settlement_class, args, 9, NULL);
    }
    if (w->out && posts) {  /* every value read above: below MOST, no error */
        at = 0;
        while (w->out && PyDict_Next(w->net, &at, &p, &a)) {
            PyObject *b = PyDict_GetItem(w->ledger, p);
            long long before = 0;
            if (b)
                amount(b, &before);
            amount(a, &x);
            if (!put(w->ledger, p, before + x))
                Py_CLEAR(w->out);
        }
    }
    if (w->out && (PyObject_SetAttr(chain, s_last, number_o) < 0 || PyObject_SetAttr(chain, s_exempt, w->next_exempt) < 0
                   || PyObject_SetAttr(chain, s_carry, carry_out) < 0))
        Py_CLEAR(w->out);
    Py_XDECREF(pot_o);
    Py_XDECREF(won_o);
    Py_XDECREF(number_o);
    Py_XDECREF(carry_out);
    if (!w->out)
        return NULL;
    Py_INCREF(w->out);
    return w->out;
}

/* plain(events, number, replay, rules, seats, chain) -> the hand's Settlement, the chain
 * changed as Chain.settle changes it; None (the chain as it was) for the Python code */
static PyObject *plain(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "plain: events, number, replay, rules, seats, chain");
        return NULL;
    }
    if (!settlement_class) {
        PyErr_SetString(PyExc_RuntimeError, "plain: setup first");
        return NULL;
    }
    Work w;
    memset(&w, 0, sizeof w);
    PyObject *out = settle(args[0], args[1], args[2], args[3], args[4], args[5], &w);
    PyObject **all = (PyObject **)&w;
    for (size_t i = 0; i < sizeof w / sizeof(PyObject *); i++)
        Py_XDECREF(all[i]);
    return out;
}

/* setup(PotClaim, Ante, TricksClaim, NetClaim, Recall, Dispute, Settlement) */
static PyObject *setup(PyObject *self, PyObject *args)
{
    (void)self;
    if (PyTuple_GET_SIZE(args) != NKINDS + 1) {
        PyErr_SetString(PyExc_TypeError, "setup: the six record classes and Settlement");
        return NULL;
    }
    for (int k = 0; k < NKINDS; k++)
        Py_XSETREF(kinds[k], Py_NewRef(PyTuple_GET_ITEM(args, k)));
    Py_XSETREF(settlement_class, Py_NewRef(PyTuple_GET_ITEM(args, NKINDS)));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"plain", (PyCFunction)(void (*)(void))plain, METH_FASTCALL,
     "A plain hand's Settlement on its chain, or None for the Python code."},
    {"setup", setup, METH_VARARGS, "The record classes and Settlement."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_settle", "A plain hand settled, compiled.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__settle(void)
{
    struct { PyObject **at; const char *name; } names[] = {
        {&s_amount, "amount"}, {&s_players, "players"}, {&s_counts, "counts"}, {&s_amounts, "amounts"},
        {&s_seated, "seated"}, {&s_active, "active"}, {&s_tricks, "tricks"}, {&s_walkover, "walkover"},
        {&s_all_passed, "all_passed"}, {&s_complete, "complete"}, {&s_leads, "leads"}, {&s_carry, "carry"},
        {&s_exempt, "exempt"}, {&s_last, "last"}, {&s_ledger, "ledger"}, {&s_ante, "ante"}, {&s_limit, "limit"},
        {&s_limit_caps_win, "limit_caps_win"}, {&s_double_ante, "double_ante"}, {&s_settle, "settle"},
        {&s_standard, "standard"},
        {&s_all, "all"}, {&s_none, "none"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!(*names[i].at = PyUnicode_InternFromString(names[i].name)))
            return NULL;
    return PyModule_Create(&module);
}
