/* A plain hand's report as the JSON document writes it, compiled: document.py's
 * ``_dumps(hand_json(report))`` (json.dumps, ensure_ascii=False) for a hand with no
 * finding, ruling, undecidable check or annotation, the Python code kept as the
 * reference.  Anything it does not expect (another type, an int past 64 bits, a string
 * that is not UTF-8) it leaves (None) to the Python code.  tests/test_document_compiled.py
 * holds the two to the same bytes. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <string.h>

static PyObject *s_replay, *s_settlement, *s_findings, *s_rulings, *s_hand, *s_undecidable, *s_notes, *s_events,
    *s_note, *s_number, *s_dealer, *s_trump, *s_active, *s_passed, *s_tricks, *s_complete, *s_pot, *s_winner,
    *s_bourre, *s_penalties, *s_net, *s_carry;

typedef struct {
    char *at;
    size_t len, cap;
    int failed;  /* out of memory: MemoryError set */
    int left;    /* a value it does not write: the Python code does */
} Out;

static void put(Out *o, const char *s, size_t n)
{
    if (o->failed || o->left)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 1024;
        while (cap < o->len + n)
            cap *= 2;
        char *more = PyMem_Realloc(o->at, cap);
        if (!more) {
            o->failed = 1;
            PyErr_NoMemory();
            return;
        }
        o->at = more;
        o->cap = cap;
    }
    memcpy(o->at + o->len, s, n);
    o->len += n;
}

static void puts_(Out *o, const char *s) { put(o, s, strlen(s)); }

/* a str as json.dumps writes it with ensure_ascii=False */
static void str_(Out *o, PyObject *v)
{
    if (!PyUnicode_CheckExact(v)) {
        o->left = 1;
        return;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(v, &n);
    if (!s) {  /* a lone surrogate: the Python code writes it */
        PyErr_Clear();
        o->left = 1;
        return;
    }
    put(o, "\"", 1);
    Py_ssize_t from = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(o, s + from, (size_t)(i - from));
        from = i + 1;
        char esc[8];
        switch (c) {
        case '"': puts_(o, "\\\""); break;
        case '\\': puts_(o, "\\\\"); break;
        case '\n': puts_(o, "\\n"); break;
        case '\r': puts_(o, "\\r"); break;
        case '\t': puts_(o, "\\t"); break;
        case '\b': puts_(o, "\\b"); break;
        case '\f': puts_(o, "\\f"); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04x", c);
            puts_(o, esc);
        }
    }
    put(o, s + from, (size_t)(n - from));
    put(o, "\"", 1);
}

static void int_(Out *o, PyObject *v)
{
    if (!PyLong_CheckExact(v)) {
        o->left = 1;
        return;
    }
    int over = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &over);
    if (over || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        o->left = 1;
        return;
    }
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", x);
    puts_(o, buf);
}

/* None, or what ``value`` writes */
static void or_null(Out *o, PyObject *v, void (*value)(Out *, PyObject *))
{
    if (v == Py_None)
        puts_(o, "null");
    else
        value(o, v);
}

static void int_or_null(Out *o, PyObject *v) { or_null(o, v, int_); }

static void names(Out *o, PyObject *v)
{
    if (!PyList_CheckExact(v)) {
        o->left = 1;
        return;
    }
    put(o, "[", 1);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++) {
        if (i)
            put(o, ", ", 2);
        str_(o, PyList_GET_ITEM(v, i));
    }
    put(o, "]", 1);
}

/* a dict of names to ints (or None, where ``nulls``) */
static void counts(Out *o, PyObject *v, int nulls)
{
    if (!PyDict_CheckExact(v)) {
        o->left = 1;
        return;
    }
    put(o, "{", 1);
    Py_ssize_t at = 0, i = 0;
    PyObject *k, *x;
    while (PyDict_Next(v, &at, &k, &x)) {
        if (i++)
            put(o, ", ", 2);
        str_(o, k);
        put(o, ": ", 2);
        if (nulls)
            int_or_null(o, x);
        else
            int_(o, x);
    }
    put(o, "}", 1);
}

static void counts_(Out *o, PyObject *v) { counts(o, v, 0); }

/* ``"key": `` */
static void key(Out *o, const char *k, int first)
{
    if (!first)
        put(o, ", ", 2);
    put(o, "\"", 1);
    puts_(o, k);
    put(o, "\": ", 3);
}

/* an attribute, or o->left (and an error, where there is one) */
static PyObject *get(Out *o, PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v)
        o->failed = 1;
    return v;
}

/* nonzero: the sequence attribute is empty; else o->left (or o->failed) */
static int empty(Out *o, PyObject *obj, PyObject *name)
{
    PyObject *v = get(o, obj, name);
    if (!v)
        return 0;
    Py_ssize_t n = PyObject_Length(v);
    Py_DECREF(v);
    if (n < 0)
        o->failed = 1;
    else if (n > 0)
        o->left = 1;
    return n == 0;
}

/* plain(report) -> the hand's JSON text, or None for the Python code */
static PyObject *plain(PyObject *self, PyObject *report)
{
    (void)self;
    Out o = {0};
    PyObject *rep = NULL, *s = NULL, *hand = NULL, *events = NULL, *v = NULL, *result = NULL;
    if (!empty(&o, report, s_findings) || !empty(&o, report, s_rulings))
        goto done;
    if (!(rep = get(&o, report, s_replay)) || !(s = get(&o, report, s_settlement)) || !(hand = get(&o, report, s_hand)))
        goto done;
    if (!empty(&o, rep, s_undecidable) || !empty(&o, hand, s_notes))
        goto done;
    if (!(events = get(&o, hand, s_events)))
        goto done;
    if (!PyTuple_Check(events)) {
        o.left = 1;
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(events); i++) {  /* annotations: the Python code writes them */
        PyObject *note = PyObject_GetAttr(PyTuple_GET_ITEM(events, i), s_note);
        if (!note) {
            o.failed = 1;
            goto done;
        }
        Py_DECREF(note);
        if (note != Py_None) {
            o.left = 1;
            goto done;
        }
    }
    struct { const char *name; PyObject *of, *attr; void (*write)(Out *, PyObject *); } fields[] = {
        {"hand", rep, s_number, int_}, {"dealer", rep, s_dealer, NULL}, {"trump", rep, s_trump, NULL},
        {"active", rep, s_active, names}, {"passed", rep, s_passed, names}, {"tricks", rep, s_tricks, NULL},
        {"pot", s, s_pot, int_or_null}, {"winner", s, s_winner, NULL}, {"bourre", s, s_bourre, names},
        {"penalties", s, s_penalties, NULL}, {"net", s, s_net, NULL}, {"carry", s, s_carry, int_or_null}};
    put(&o, "{", 1);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0] && !o.left && !o.failed; i++) {
        key(&o, fields[i].name, i == 0);
        if (!(v = get(&o, fields[i].of, fields[i].attr)))
            goto done;
        if (fields[i].write)
            fields[i].write(&o, v);
        else if (fields[i].attr == s_dealer || fields[i].attr == s_winner)
            or_null(&o, v, str_);
        else if (fields[i].attr == s_trump) {
            long t = v == Py_None ? -1 : PyLong_CheckExact(v) ? PyLong_AsLong(v) : -2;
            if (t == -1 && v == Py_None)
                puts_(&o, "null");
            else if (t >= 0 && t < 4) {
                char letter[4] = {'"', "shdc"[t], '"', 0};
                puts_(&o, letter);
            } else {
                PyErr_Clear();
                o.left = 1;
            }
        } else if (fields[i].attr == s_tricks) {
            PyObject *c = PyObject_GetAttr(rep, s_complete);
            if (!c) {
                o.failed = 1;
                goto done;
            }
            int complete = PyObject_IsTrue(c);
            Py_DECREF(c);
            if (complete < 0) {
                o.failed = 1;
                goto done;
            }
            if (complete && v != Py_None)
                counts_(&o, v);
            else
                puts_(&o, "null");
        } else if (fields[i].attr == s_penalties)
            counts(&o, v, 1);
        else  /* net */
            or_null(&o, v, counts_);
        Py_CLEAR(v);
    }
    puts_(&o, ", \"findings\": [], \"rulings\": [], \"undecidable\": []}");
done:
    Py_XDECREF(v);
    Py_XDECREF(events);
    Py_XDECREF(hand);
    Py_XDECREF(s);
    Py_XDECREF(rep);
    if (o.failed || PyErr_Occurred())
        result = NULL;
    else if (o.left)
        result = Py_NewRef(Py_None);
    else
        result = PyUnicode_DecodeUTF8(o.at, (Py_ssize_t)o.len, "strict");
    PyMem_Free(o.at);
    return result;
}

static PyMethodDef methods[] = {
    {"plain", plain, METH_O, "A plain hand's report as the JSON document writes it, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_document", "A plain hand's JSON, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__document(void)
{
    struct { PyObject **at; const char *name; } all[] = {
        {&s_replay, "replay"}, {&s_settlement, "settlement"}, {&s_findings, "findings"}, {&s_rulings, "rulings"},
        {&s_hand, "hand"}, {&s_undecidable, "undecidable"}, {&s_notes, "notes"}, {&s_events, "events"},
        {&s_note, "note"}, {&s_number, "number"}, {&s_dealer, "dealer"}, {&s_trump, "trump"},
        {&s_active, "active"}, {&s_passed, "passed"}, {&s_tricks, "tricks"}, {&s_complete, "complete"},
        {&s_pot, "pot"}, {&s_winner, "winner"}, {&s_bourre, "bourre"}, {&s_penalties, "penalties"},
        {&s_net, "net"}, {&s_carry, "carry"}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!(*all[i].at = PyUnicode_InternFromString(all[i].name)))
            return NULL;
    return PyModule_Create(&module);
}
