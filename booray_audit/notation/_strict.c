/* The fast reader of plain hands, compiled: strict.py's ``items`` line for line, the
 * Python one kept as the reference.  It reads a chunk's (line, text) pairs of the plain
 * subset of BHH into the same records, and returns None for a chunk with anything else
 * in it, which then goes to the Python reader and from there to Lark (every error
 * message is Lark's).  tests/test_strict_compiled.py holds the two to each other on
 * every shipped file and on mutated and random lines. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define MAXTOK 100001  /* tokens in one line (reader.MAX_LINE bytes at most); past them, None */

/* the record classes, set once by setup() */
enum { TAG, SEATS, DEALER, ANTE, POT, DEAL, UP, TRUMP, TRICK, TRICKS, NET, DISPUTE, RECALL, FORFEIT,
       DECISION, NKINDS };
static PyObject *kinds[NKINDS];
static PyObject *hand_class;  /* Hand (setup), for ``hand`` */
static PyObject *s_players, *s_number, *s_plays, *s_seat_cards, *s_note, *s_line, *s_name, *kw_line_note_written;
static PyObject *kw_line, *kw_line_column, *s_hand, *s_pass, *s_play, *s_draw, *s_all, *s_none;

typedef struct { const char *at; Py_ssize_t len; } Tok;

static const char *KEYWORDS[] = {"hand", "seats", "dealer", "ante", "pot", "deal", "up", "trump", "trick",
                                 "tricks", "net", "dispute", "pass", "play", "draw", "all", "none", "recall",
                                 "forfeits", NULL};

/* the token, lower-cased, equals ``word`` */
static int is(Tok t, const char *word)
{
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    if (t.len != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char c = t.at[i];
        if (c >= 'A' && c <= 'Z')
            c += 'a' - 'A';
        if (c != word[i])
            return 0;
    }
    return 1;
}

static int keyword(Tok t)
{
    static Py_ssize_t lens[sizeof KEYWORDS / sizeof *KEYWORDS];  /* each keyword's length, once */
    if (!lens[0])
        for (int i = 0; KEYWORDS[i]; i++)
            lens[i] = (Py_ssize_t)strlen(KEYWORDS[i]);
    for (int i = 0; KEYWORDS[i]; i++)
        if (lens[i] == t.len && is(t, KEYWORDS[i]))
            return 1;
    return 0;
}

static int same(Tok t, const char *text) { return t.len == (Py_ssize_t)strlen(text) && !memcmp(t.at, text, t.len); }

static int suit_of(char c)
{
    switch (c) {
    case 's': case 'S': return 0;
    case 'h': case 'H': return 1;
    case 'd': case 'D': return 2;
    case 'c': case 'C': return 3;
    }
    return -1;
}

/* strict._CARDS: the card, or -1 for a token that is not one of its spellings */
static int card_of(Tok t)
{
    if (t.len == 2 && t.at[0] == '?' && t.at[1] == '?')
        return 64;
    int rank = -1;
    if (t.len == 3 && t.at[0] == '1' && t.at[1] == '0')
        rank = 10;
    else if (t.len == 2) {
        switch (t.at[0]) {
        case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': rank = t.at[0] - '0'; break;
        case 'a': case 'A': rank = 14; break;
        case 'k': case 'K': rank = 13; break;
        case 'q': case 'Q': rank = 12; break;
        case 'j': case 'J': rank = 11; break;
        case 't': case 'T': rank = 10; break;
        case '?': rank = 0; break;
        }
    }
    int suit = suit_of(t.at[t.len - 1]);
    return rank < 0 || suit < 0 ? -1 : suit * 16 + rank;
}

static PyObject *card(Tok t)
{
    int c = card_of(t);
    return c < 0 ? NULL : PyLong_FromLong(c);
}

static int name_char(char c, int first)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
        return 1;
    return !first && ((c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '\'');
}

/* The names read lately, by a hash of their bytes: a table's names come back on every line,
 * and each is made once (the same string object, so the dictionaries keyed by name
 * downstream find it by identity); a name not kept here is checked and made as usual. */
#define NAMES_KEPT 64
#define NAME_BYTES 24
static struct { Py_ssize_t len; char text[NAME_BYTES]; PyObject *name; } kept[NAMES_KEPT];

/* strict._name: the name, or NULL (no error set) where the token is none */
static PyObject *name(Tok t)
{
    unsigned h = 2166136261u;
    if (t.len <= NAME_BYTES) {
        for (Py_ssize_t i = 0; i < t.len; i++)
            h = (h ^ (unsigned char)t.at[i]) * 16777619u;
        h &= NAMES_KEPT - 1;
        if (kept[h].name && kept[h].len == t.len && !memcmp(kept[h].text, t.at, (size_t)t.len))
            return Py_NewRef(kept[h].name);  /* these bytes made a name before */
    }
    for (Py_ssize_t i = 0; i < t.len; i++)
        if (!name_char(t.at[i], i == 0))
            return NULL;
    if (keyword(t) || card_of(t) >= 0)
        return NULL;
    PyObject *made = PyUnicode_FromStringAndSize(t.at, t.len);
    if (made && t.len <= NAME_BYTES) {
        Py_XSETREF(kept[h].name, Py_NewRef(made));
        kept[h].len = t.len;
        memcpy(kept[h].text, t.at, (size_t)t.len);
    }
    return made;
}

static int digits(Tok t, Py_ssize_t from, Py_ssize_t most)
{
    Py_ssize_t n = t.len - from;
    if (n < 1 || n > most)
        return 0;
    for (Py_ssize_t i = from; i < t.len; i++)
        if (t.at[i] < '0' || t.at[i] > '9')
            return 0;
    return 1;
}

/* strict._int: one to nine digits */
static PyObject *count(Tok t)
{
    if (!digits(t, 0, 9))
        return NULL;
    long v = 0;
    for (Py_ssize_t i = 0; i < t.len; i++)
        v = v * 10 + (t.at[i] - '0');
    return PyLong_FromLong(v);
}

/* strict._signed: a sign, then one to thirty digits */
static PyObject *signed_amount(Tok t)
{
    Py_ssize_t from = t.len && (t.at[0] == '+' || t.at[0] == '-');
    if (!digits(t, from, 30))
        return NULL;
    char buf[40];
    memcpy(buf, t.at, t.len);
    buf[t.len] = 0;
    return PyLong_FromString(buf, NULL, 10);
}

typedef PyObject *(*Value)(Tok);

/* strict._pairs: NAME value (","? NAME value)* as a tuple of pairs, or NULL */
static PyObject *pairs(const Tok *toks, Py_ssize_t n, Value value)
{
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    Py_ssize_t i = 0;
    while (i < n) {
        if (PyList_GET_SIZE(out) && same(toks[i], ","))
            i++;
        if (i + 1 >= n)
            goto fail;
        PyObject *who = name(toks[i]);
        PyObject *what = who ? value(toks[i + 1]) : NULL;
        PyObject *pair = what ? PyTuple_Pack(2, who, what) : NULL;
        Py_XDECREF(who);
        Py_XDECREF(what);
        if (!pair || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
        i += 2;
    }
    if (!PyList_GET_SIZE(out))
        goto fail;
    PyObject *res = PyList_AsTuple(out);
    Py_DECREF(out);
    return res;
fail:
    Py_DECREF(out);
    return NULL;
}

/* a tuple of the tokens read by ``value``, or NULL */
static PyObject *each(const Tok *toks, Py_ssize_t n, Value value)
{
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = value(toks[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *new_ref(PyObject *o) { Py_INCREF(o); return o; }

/* How a record class's instances are laid out (set up by ``layout`` from the class's
 * dataclass fields): each field's slot, its default, the fields its positional
 * arguments fill in order, and the slots of ``line`` and ``column``.  The records are
 * frozen dataclasses with slots, no __post_init__ and constant defaults, so an instance
 * made by filling its slots equals the one its __init__ makes; a class that is not so
 * laid out is called instead (``fast`` 0). */
#define MAXF 10
typedef struct {
    int fast, nf, npos, line_at, column_at;
    Py_ssize_t offset[MAXF];
    PyObject *deflt[MAXF];  /* NULL: none */
    int pos[MAXF];
} Layout;
static Layout layouts[NKINDS];

static int layout(int k, PyObject *missing)
{
    Layout *l = &layouts[k];
    PyObject *cls = kinds[k], *fields = NULL, *key, *f;
    Py_ssize_t at = 0;
    for (int i = 0; i < l->nf; i++)
        Py_CLEAR(l->deflt[i]);
    memset(l, 0, sizeof *l);
    l->line_at = l->column_at = -1;
    if (!PyType_Check(cls) || PyObject_HasAttrString(cls, "__post_init__"))
        return 0;
    if (!(fields = PyObject_GetAttrString(cls, "__dataclass_fields__")) || !PyDict_Check(fields)) {
        PyErr_Clear();
        Py_XDECREF(fields);
        return 0;
    }
    while (PyDict_Next(fields, &at, &key, &f)) {
        int i = l->nf;
        PyObject *descr = NULL, *kw = NULL, *factory = NULL, *d = NULL;
        int ok = 0;
        if (i >= MAXF || !PyUnicode_Check(key))
            goto next;
        descr = PyObject_GetAttr(cls, key);
        kw = PyObject_GetAttrString(f, "kw_only");
        factory = PyObject_GetAttrString(f, "default_factory");
        d = PyObject_GetAttrString(f, "default");
        if (!descr || !kw || !factory || !d || !Py_IS_TYPE(descr, &PyMemberDescr_Type) || factory != missing)
            goto next;
        PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY))
            goto next;
        l->offset[i] = m->offset;
        l->deflt[i] = d == missing ? NULL : new_ref(d);
        if (kw == Py_False)
            l->pos[l->npos++] = i;
        else if (kw != Py_True)
            goto next;
        if (PyUnicode_CompareWithASCIIString(key, "line") == 0)
            l->line_at = i;
        else if (PyUnicode_CompareWithASCIIString(key, "column") == 0)
            l->column_at = i;
        l->nf++;
        ok = 1;
    next:
        Py_XDECREF(descr);
        Py_XDECREF(kw);
        Py_XDECREF(factory);
        Py_XDECREF(d);
        if (!ok) {
            PyErr_Clear();
            Py_DECREF(fields);
            return 0;
        }
    }
    Py_DECREF(fields);
    l->fast = l->line_at >= 0;
    return 0;
}

/* kinds[k](*args, line=line[, column=column]), the args' references taken (none NULL):
 * its slots filled where the class is laid out so (``layout``), else called */
static PyObject *made(int k, PyObject *line, PyObject *column, Py_ssize_t nargs, PyObject **args)
{
    Layout *l = &layouts[k];
    PyObject *res = NULL;
    int fast = l->fast && nargs <= l->npos && (!column || l->column_at >= 0);
    for (int i = (int)nargs; fast && i < l->npos; i++)
        fast = l->deflt[l->pos[i]] != NULL;
    if (fast) {
        PyTypeObject *tp = (PyTypeObject *)kinds[k];
        PyObject *values[MAXF];
        if (!(res = tp->tp_alloc(tp, 0)))
            goto done;
        for (int i = 0; i < l->nf; i++)
            values[i] = l->deflt[i];
        for (Py_ssize_t i = 0; i < nargs; i++)
            values[l->pos[i]] = args[i];
        values[l->line_at] = line;
        if (column)
            values[l->column_at] = column;
        for (int i = 0; i < l->nf; i++) {  /* every field has a value: a default, or given */
            Py_INCREF(values[i]);
            *(PyObject **)((char *)res + l->offset[i]) = values[i];
        }
    } else {
        PyObject *stack[8];
        for (Py_ssize_t i = 0; i < nargs; i++)
            stack[i] = args[i];
        stack[nargs] = line;
        if (column)
            stack[nargs + 1] = column;
        res = PyObject_Vectorcall(kinds[k], stack, (size_t)nargs, column ? kw_line_column : kw_line);
    }
done:
    for (Py_ssize_t i = 0; i < nargs; i++)
        Py_DECREF(args[i]);
    return res;
}

/* kinds[k](*args, line=n), the args' references taken (NULL among them: NULL) */
static PyObject *make(int k, PyObject *line, Py_ssize_t nargs, PyObject **args)
{
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (!args[i]) {
            for (Py_ssize_t j = 0; j < nargs; j++)
                Py_XDECREF(args[j]);
            return NULL;
        }
    return made(k, line, NULL, nargs, args);
}

#define MAKE(k, ...) make(k, line, sizeof((PyObject *[]){__VA_ARGS__}) / sizeof(PyObject *), (PyObject *[]){__VA_ARGS__})

/* strict._cards_or_count */
static PyObject *cards_or_count(const Tok *toks, Py_ssize_t n)
{
    if (n == 1 && digits(toks[0], 0, 9))
        return count(toks[0]);
    if (!n)
        return NULL;
    return each(toks, n, card);
}

/* strict._decision */
static PyObject *decision(const Tok *toks, Py_ssize_t n, PyObject *line)
{
    if (n < 2)
        return NULL;
    PyObject *action = is(toks[1], "pass") ? s_pass : is(toks[1], "play") ? s_play : is(toks[1], "draw") ? s_draw : NULL;
    if (!action)
        return NULL;
    const Tok *rest = toks + 2;
    Py_ssize_t nrest = n - 2, at = -1;
    if (action == s_pass) {
        if (nrest)
            return NULL;
        return MAKE(DECISION, name(toks[0]), new_ref(s_pass), new_ref(Py_None), new_ref(Py_None));
    }
    for (Py_ssize_t i = 0; i < nrest && at < 0; i++)
        if (same(rest[i], "->"))
            at = i;
    PyObject *draws, *discards;
    Py_ssize_t nbefore = at < 0 ? nrest : at;
    if (at >= 0) {
        draws = cards_or_count(rest + at + 1, nrest - at - 1);
        if (!draws)
            return NULL;
    } else
        draws = new_ref(Py_None);
    if (nbefore)
        discards = cards_or_count(rest, nbefore);
    else if (action == s_play && at < 0)
        discards = PyLong_FromLong(0);
    else
        discards = NULL;
    return MAKE(DECISION, name(toks[0]), new_ref(action), discards, draws);
}

/* strict._trick */
static PyObject *trick(const Tok *rest, Py_ssize_t n, PyObject *line)
{
    PyObject *number = NULL;
    if (n >= 2 && same(rest[1], ":") && digits(rest[0], 0, 9)) {
        number = count(rest[0]);
        rest += 2;
        n -= 2;
    }
    if (!number)
        number = new_ref(Py_None);
    if (n >= 3 && same(rest[1], ":")) {  /* by seat: NAME ":" CARD (","? CARD)* */
        PyObject *cards = PyList_New(0);
        int expect_card = 1;
        for (Py_ssize_t i = 2; cards && i < n; i++) {
            if (same(rest[i], ",") && !expect_card) {
                expect_card = 1;
                continue;
            }
            PyObject *c = card(rest[i]);
            if (!c || PyList_Append(cards, c) < 0)
                Py_CLEAR(cards);
            Py_XDECREF(c);
            expect_card = 0;
        }
        if (!cards || expect_card) {
            Py_XDECREF(cards);
            Py_DECREF(number);
            return NULL;
        }
        PyObject *leader = name(rest[0]);
        PyObject *first = leader ? PyTuple_Pack(2, leader, PyList_GET_ITEM(cards, 0)) : NULL;
        PyObject *plays = first ? PyTuple_Pack(1, first) : NULL;
        PyObject *others = plays ? PyList_GetSlice(cards, 1, PyList_GET_SIZE(cards)) : NULL;
        PyObject *seat_cards = others ? PyList_AsTuple(others) : NULL;
        Py_XDECREF(leader);
        Py_XDECREF(first);
        Py_XDECREF(others);
        Py_DECREF(cards);
        return MAKE(TRICK, number, plays, seat_cards);
    }
    return MAKE(TRICK, number, pairs(rest, n, card));
}

/* strict._line: the record of one line's tokens, or NULL */
static PyObject *line_of(const Tok *toks, Py_ssize_t n, PyObject *line)
{
    Tok head = toks[0];
    const Tok *rest = toks + 1;
    Py_ssize_t nrest = n - 1;
    if (is(head, "hand")) {
        if (nrest > 1)
            return NULL;
        PyObject *number = nrest ? count(rest[0]) : new_ref(Py_None);
        return number ? Py_BuildValue("(ONO)", s_hand, number, line) : NULL;
    }
    if (is(head, "seats") && nrest)
        return MAKE(SEATS, each(rest, nrest, name));
    if (is(head, "dealer") && nrest == 1)
        return MAKE(DEALER, name(rest[0]));
    if (is(head, "ante") && nrest) {
        if (nrest == 1 && (is(rest[0], "all") || is(rest[0], "none")))
            return MAKE(ANTE, new_ref(is(rest[0], "all") ? s_all : s_none));
        return MAKE(ANTE, each(rest, nrest, name));
    }
    if (is(head, "pot") && nrest == 1)
        return MAKE(POT, count(rest[0]));
    if (is(head, "deal") && nrest >= 2)
        return MAKE(DEAL, name(rest[0]), each(rest + 1, nrest - 1, card));
    if (is(head, "up") && nrest == 1)
        return MAKE(UP, card(rest[0]));
    if (is(head, "trump") && nrest == 1 && rest[0].len == 1 && suit_of(rest[0].at[0]) >= 0)
        return MAKE(TRUMP, PyLong_FromLong(suit_of(rest[0].at[0])));
    if (is(head, "trick") && nrest)
        return trick(rest, nrest, line);
    if (is(head, "tricks") && nrest)
        return MAKE(TRICKS, pairs(rest, nrest, count));
    if (is(head, "net") && nrest)
        return MAKE(NET, pairs(rest, nrest, signed_amount));
    if (is(head, "dispute") && (nrest == 2 || nrest == 3)) {
        Tok kind = rest[1];
        if (!kind.len || keyword(kind))
            return NULL;
        for (Py_ssize_t i = 0; i < kind.len; i++) {
            char c = kind.at[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i && c == '-')))
                return NULL;
        }
        PyObject *lower = PyUnicode_FromStringAndSize(kind.at, kind.len);
        PyObject *low = lower ? PyObject_CallMethod(lower, "lower", NULL) : NULL;
        Py_XDECREF(lower);
        return MAKE(DISPUTE, name(rest[0]), low, nrest == 3 ? count(rest[2]) : new_ref(Py_None));
    }
    if (is(head, "recall") && (nrest == 2 || nrest == 3))
        return MAKE(RECALL, name(rest[0]), card(rest[1]), nrest == 3 ? count(rest[2]) : new_ref(Py_None));
    if (keyword(head))
        return NULL;
    if (n == 3 && is(toks[1], "forfeits") && is(toks[2], "deal"))
        return MAKE(FORFEIT, name(toks[0]));
    return decision(toks, n, line);
}

/* strict._PLAIN: printable ASCII but for " # { }, and tab, CR, LF */
static int plain_char(unsigned char c)
{
    return c == ' ' || c == '!' || (c >= '$' && c <= 'z') || c == '|' || c == '~' || c == '\t' || c == '\r'
           || c == '\n';
}

static int blank(char c) { return c == ' ' || c == '\t'; }

/* a token's end: white space, a comma or a colon (a NUL is not plain: the line is not taken) */
static inline int ends_token(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':';
}

/* the place of the first character at or after i that is not a space or a tab */
static Py_ssize_t past_blanks(const char *s, Py_ssize_t n, Py_ssize_t i)
{
    while (i < n && blank(s[i]))
        i++;
    return i;
}

/* strict._TAG: the tag line's name and value (their offsets and lengths), or 0 */
static int tag_line(const char *s, Py_ssize_t n, Py_ssize_t *name_at, Py_ssize_t *name_len, Py_ssize_t *value_at,
                    Py_ssize_t *value_len)
{
    Py_ssize_t i = past_blanks(s, n, 0);
    if (i == n || s[i++] != '[')
        return 0;
    i = past_blanks(s, n, i);
    *name_at = i;
    if (i == n || !((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
        return 0;
    while (i < n && (name_char(s[i], 0) && s[i] != '.' && s[i] != '\''))
        i++;
    *name_len = i - *name_at;
    i = past_blanks(s, n, i);
    if (i == n || s[i++] != '"')
        return 0;
    *value_at = i;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (!(c == ' ' || c == '!' || (c >= '$' && c <= '[') || (c >= ']' && c <= 'z') || c == '|' || c == '~'))
            break;
        i++;
    }
    *value_len = i - *value_at;
    if (i == n || s[i++] != '"')
        return 0;
    i = past_blanks(s, n, i);
    if (i == n || s[i++] != ']')
        return 0;
    i = past_blanks(s, n, i);
    if (i < n && s[i] == '\r')
        i++;
    if (i < n && s[i] == '\n')
        i++;
    return i == n;
}

static Tok toks[MAXTOK];

/* One line's item: a record, a tuple for a `Hand` line, Py_None for a line with no
 * tokens; NULL with no error set where the chunk is not plain, with one set on failure. */
static PyObject *item(PyObject *line, PyObject *text)
{
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    if (!s || n < 0)
        return NULL;
    /* a carriage return but in a \r\n line end: Lark reads (and reports) it */
    Py_ssize_t end = n;
    if (end && s[end - 1] == '\n')
        end -= end >= 2 && s[end - 2] == '\r' ? 2 : 1;
    if (end > 0 && memchr(s, '\r', (size_t)end))
        return NULL;
    Py_ssize_t name_at, name_len, value_at, value_len;
    if (memchr(s, '[', (size_t)n) && tag_line(s, n, &name_at, &name_len, &value_at, &value_len)) {
        PyObject *args[2] = {PyUnicode_FromStringAndSize(s + name_at, name_len),
                             PyUnicode_FromStringAndSize(s + value_at, value_len)};
        PyObject *column = PyLong_FromSsize_t(value_at + 1), *res = NULL;
        if (args[0] && args[1] && column)
            res = made(TAG, line, column, 2, args);
        else {
            Py_XDECREF(args[0]);
            Py_XDECREF(args[1]);
        }
        Py_XDECREF(column);
        return res;
    }
    const char *hash = memchr(s, '#', (size_t)n);
    if (hash)
        n = hash - s;
    Py_ssize_t ntoks = 0;
    for (Py_ssize_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (!plain_char(c))
            return NULL;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            i++;
            continue;
        }
        if (ntoks == MAXTOK)
            return NULL;
        Py_ssize_t j = i + 1;
        if (c != ',' && c != ':')
            while (j < n && !ends_token((unsigned char)s[j])) {
                if (!plain_char((unsigned char)s[j]))
                    return NULL;
                j++;
            }
        toks[ntoks].at = s + i;
        toks[ntoks++].len = j - i;
        i = j;
    }
    if (!ntoks)
        return new_ref(Py_None);
    return line_of(toks, ntoks, line);
}

/* items(body) -> the chunk's items as strict.items gives them, or None */
static PyObject *items(PyObject *self, PyObject *body)
{
    (void)self;
    PyObject *fast = PySequence_Fast(body, "items: a sequence of (line, text)");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "items: a sequence of (line, text)");
            Py_CLEAR(out);
            break;
        }
        PyObject *text = PyTuple_GET_ITEM(pair, 1);
        if (!PyUnicode_Check(text)) {  /* a line that cannot be read */
            Py_CLEAR(out);
            break;
        }
        PyObject *it = item(PyTuple_GET_ITEM(pair, 0), text);
        if (!it) {
            Py_CLEAR(out);
            break;
        }
        if (it != Py_None && PyList_Append(out, it) < 0)
            Py_CLEAR(out);
        Py_DECREF(it);
    }
    Py_DECREF(fast);
    if (out || PyErr_Occurred())
        return out;
    Py_RETURN_NONE;
}

/* setup(TagChange, Seats, Dealer, Ante, PotClaim, Deal, Up, Trump, Trick, TricksClaim,
 *       NetClaim, Dispute, Recall, Forfeit, Decision[, Hand]): the record classes (``hand``
 *       needs Hand) */
static PyObject *setup(PyObject *self, PyObject *args)
{
    (void)self;
    if (PyTuple_GET_SIZE(args) != NKINDS && PyTuple_GET_SIZE(args) != NKINDS + 1) {
        PyErr_SetString(PyExc_TypeError, "setup: the fifteen record classes, then Hand");
        return NULL;
    }
    Py_XSETREF(hand_class, PyTuple_GET_SIZE(args) > NKINDS ? Py_NewRef(PyTuple_GET_ITEM(args, NKINDS)) : NULL);
    PyObject *dataclasses = PyImport_ImportModule("dataclasses");
    PyObject *missing = dataclasses ? PyObject_GetAttrString(dataclasses, "MISSING") : NULL;
    Py_XDECREF(dataclasses);
    if (!missing)
        return NULL;
    for (int k = 0; k < NKINDS; k++) {
        Py_XSETREF(kinds[k], new_ref(PyTuple_GET_ITEM(args, k)));
        layout(k, missing);
    }
    Py_DECREF(missing);
    Py_RETURN_NONE;
}

/* ---- the chunker: reader._chunks(reader._lines(...)) in one, line for line ---------- */

/* Chunks(readline, first, kind, too_long, not_utf8, too_many, max_line, max_hand_lines):
 * an iterator of (kind, first line, [(line, text or Unreadable)...]) as reader._chunks
 * yields them over reader._lines: ``readline`` reads the stream (at most n bytes a call),
 * ``kind`` is reader._kind (asked of a line that does not start with a letter but h),
 * the three Unreadable values and the two limits are the reader's. */
typedef struct {
    PyObject_HEAD
    PyObject *readline, *kind, *too_long, *not_utf8, *too_many;
    Py_ssize_t max_line, max_lines;
    long long number;   /* the last line read */
    int in_hand;        /* the chunk under way: a hand (else tags) */
    long long start;
    PyObject *body, *pending;  /* lists; pending NULL when empty */
    int body_over, pending_over;
    PyObject *ready[3];  /* chunks made, to hand out in order */
    int nready, at, done;
} Chunks;

static PyObject *s_tags, *s_blank, *s_tag;

/* _Body.append: past max_lines, only the first line and one that says so are kept */
static int body_append(Chunks *c, PyObject *list, int *over, PyObject *item)
{
    if (PyList_GET_SIZE(list) < c->max_lines)
        return PyList_Append(list, item);
    if (*over)
        return 0;
    *over = 1;
    if (PyList_SetSlice(list, 1, PyList_GET_SIZE(list), NULL) < 0)
        return -1;
    PyObject *first = PyTuple_GET_ITEM(PyList_GET_ITEM(list, 0), 0);
    PyObject *say = PyTuple_Pack(2, first, c->too_many);
    if (!say)
        return -1;
    int r = PyList_Append(list, say);
    Py_DECREF(say);
    return r;
}

static int make_ready(Chunks *c, PyObject *kind, long long start, PyObject *body)
{
    PyObject *n = PyLong_FromLongLong(start);
    if (!n)
        return -1;
    PyObject *chunk = PyTuple_Pack(3, kind, n, body);
    Py_DECREF(n);
    if (!chunk)
        return -1;
    c->ready[c->nready++] = chunk;
    return 0;
}

/* the next line as reader._lines gives it: 1 (*item a new (number, text) pair), 0 at the
 * end, -1 with an error */
static int next_line(Chunks *c, PyObject **item)
{
    PyObject *raw = PyObject_CallFunction(c->readline, "n", c->max_line + 1);
    if (!raw)
        return -1;
    if (!PyBytes_Check(raw)) {
        Py_DECREF(raw);
        PyErr_SetString(PyExc_TypeError, "Chunks: readline must give bytes");
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(raw);
    const char *b = PyBytes_AS_STRING(raw);
    if (!n) {
        Py_DECREF(raw);
        return 0;
    }
    c->number++;
    PyObject *text;
    if (n > c->max_line && b[n - 1] != '\n') {  /* read on in pieces, dropped */
        Py_DECREF(raw);
        for (;;) {
            PyObject *more = PyObject_CallFunction(c->readline, "i", 1 << 20);
            if (!more)
                return -1;
            int end = !PyBytes_Check(more) || !PyBytes_GET_SIZE(more)
                      || PyBytes_AS_STRING(more)[PyBytes_GET_SIZE(more) - 1] == '\n';
            Py_DECREF(more);
            if (end)
                break;
        }
        text = Py_NewRef(c->too_long);
    } else {
        if (c->number == 1 && n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
            b += 3, n -= 3;
        text = PyUnicode_DecodeUTF8(b, n, "strict");
        Py_DECREF(raw);
        if (!text) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
                return -1;
            PyErr_Clear();
            text = Py_NewRef(c->not_utf8);
        }
    }
    PyObject *number = PyLong_FromLongLong(c->number);
    *item = number ? PyTuple_Pack(2, number, text) : NULL;
    Py_XDECREF(number);
    Py_DECREF(text);
    return *item ? 1 : -1;
}

enum { LINE_BLANK, LINE_TAG, LINE_HAND, LINE_EVENT };

/* reader._kind's answer for the lines most files are made of past their events (a blank
 * line, a comment, a tag, a line starting with h: `Hand` or an event), as its pattern
 * gives it; -1 for any other (one starting with a space, say), which _kind is asked */
static int quick_kind(PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (!n)
        return LINE_BLANK;
    int kind = PyUnicode_KIND(text);
    const void *d = PyUnicode_DATA(text);
    Py_UCS4 ch = PyUnicode_READ(kind, d, 0);
    if (ch == '[')
        return LINE_TAG;
    if (ch == '#' || (ch == '\n' && n == 1) || (ch == '\r' && n == 2 && PyUnicode_READ(kind, d, 1) == '\n'))
        return LINE_BLANK;
    if (ch != 'h' && ch != 'H')
        return -1;
    for (Py_ssize_t i = 1; i < 4; i++) {  /* "and", in either case: a `Hand` line, if what follows allows */
        if (i >= n)
            return LINE_EVENT;
        ch = PyUnicode_READ(kind, d, i);
        if (ch >= 128)
            return -1;
        if ((ch | 0x20) != (Py_UCS4)"and"[i - 1])
            return LINE_EVENT;
    }
    if (n == 4)
        return LINE_HAND;
    ch = PyUnicode_READ(kind, d, 4);  /* not a word character, -, . or ' (reader._HAND_LINE) */
    if (ch >= 128)
        return -1;
    int word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    return word || ch == '-' || ch == '.' || ch == '\'' ? LINE_EVENT : LINE_HAND;
}

/* reader._chunks's step for one line: 0, or -1 with an error */
static int take(Chunks *c, PyObject *item)
{
    PyObject *text = PyTuple_GET_ITEM(item, 1);
    int k = LINE_EVENT;
    if (PyUnicode_Check(text)) {
        Py_UCS4 ch = PyUnicode_GET_LENGTH(text) ? PyUnicode_READ_CHAR(text, 0) : 0;
        int letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        if ((!letter || ch == 'h' || ch == 'H') && (k = quick_kind(text)) < 0) {
            PyObject *got = PyObject_CallOneArg(c->kind, text);
            if (!got)
                return -1;
            k = PyUnicode_Compare(got, s_blank) == 0 ? LINE_BLANK : PyUnicode_Compare(got, s_tag) == 0 ? LINE_TAG
                : PyUnicode_Compare(got, s_hand) == 0 ? LINE_HAND : LINE_EVENT;
            Py_DECREF(got);
            if (PyErr_Occurred())
                return -1;
        }
    }
    long long n = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 0));
    if (k == LINE_BLANK)
        return 0;
    if (k == LINE_TAG) {
        if (!c->in_hand)
            return body_append(c, c->body, &c->body_over, item);
        if (!c->pending && !(c->pending = PyList_New(0)))
            return -1;
        return body_append(c, c->pending, &c->pending_over, item);
    }
    if (k == LINE_HAND) {
        if (PyList_GET_SIZE(c->body) || c->in_hand)
            if (make_ready(c, c->in_hand ? s_hand : s_tags, c->start, c->body) < 0)
                return -1;
        if (c->pending && PyList_GET_SIZE(c->pending)) {
            long long first = PyLong_AsLongLong(PyTuple_GET_ITEM(PyList_GET_ITEM(c->pending, 0), 0));
            if (make_ready(c, s_tags, first, c->pending) < 0)
                return -1;
        }
        Py_CLEAR(c->pending);
        c->pending_over = 0;
        Py_SETREF(c->body, PyList_New(0));
        if (!c->body || PyList_Append(c->body, item) < 0)
            return -1;
        c->body_over = 0;
        c->in_hand = 1;
        c->start = n;
        return 0;
    }
    if (c->pending && PyList_GET_SIZE(c->pending)) {  /* tags met inside a hand belong to it */
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(c->pending); i++)
            if (body_append(c, c->body, &c->body_over, PyList_GET_ITEM(c->pending, i)) < 0)
                return -1;
    }
    Py_CLEAR(c->pending);
    c->pending_over = 0;
    if (!PyList_GET_SIZE(c->body))
        c->start = n;
    return body_append(c, c->body, &c->body_over, item);
}

static PyObject *chunks_next(Chunks *c)
{
    while (c->at >= c->nready) {
        for (int i = 0; i < c->nready; i++)
            Py_CLEAR(c->ready[i]);
        c->nready = c->at = 0;
        if (c->done)
            return NULL;
        PyObject *item = NULL;
        int got = next_line(c, &item);
        if (got < 0)
            return NULL;
        if (got == 0) {  /* the end: what is under way */
            c->done = 1;
            if (PyList_GET_SIZE(c->body) && make_ready(c, c->in_hand ? s_hand : s_tags, c->start, c->body) < 0)
                return NULL;
            if (c->pending && PyList_GET_SIZE(c->pending)) {
                long long first = PyLong_AsLongLong(PyTuple_GET_ITEM(PyList_GET_ITEM(c->pending, 0), 0));
                if (make_ready(c, s_tags, first, c->pending) < 0)
                    return NULL;
            }
            continue;
        }
        int r = take(c, item);
        Py_DECREF(item);
        if (r < 0)
            return NULL;
    }
    PyObject *out = c->ready[c->at];
    c->ready[c->at++] = NULL;
    return out;
}

static void chunks_dealloc(Chunks *c)
{
    Py_XDECREF(c->readline);
    Py_XDECREF(c->kind);
    Py_XDECREF(c->too_long);
    Py_XDECREF(c->not_utf8);
    Py_XDECREF(c->too_many);
    Py_XDECREF(c->body);
    Py_XDECREF(c->pending);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(c->ready[i]);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

static PyObject *chunks_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *readline, *kind, *too_long, *not_utf8, *too_many;
    long long first;
    Py_ssize_t max_line, max_lines;
    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Chunks: positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OLOOOOnn", &readline, &first, &kind, &too_long, &not_utf8, &too_many, &max_line,
                          &max_lines))
        return NULL;
    if (max_line < 1 || max_lines < 1) {
        PyErr_SetString(PyExc_ValueError, "Chunks: the limits must be positive");
        return NULL;
    }
    Chunks *c = (Chunks *)type->tp_alloc(type, 0);
    if (!c)
        return NULL;
    c->readline = Py_NewRef(readline);
    c->kind = Py_NewRef(kind);
    c->too_long = Py_NewRef(too_long);
    c->not_utf8 = Py_NewRef(not_utf8);
    c->too_many = Py_NewRef(too_many);
    c->max_line = max_line;
    c->max_lines = max_lines;
    c->number = first - 1;
    c->start = first;
    if (!(c->body = PyList_New(0))) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

static PyTypeObject ChunksType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "booray_audit.notation._strict.Chunks",
    .tp_basicsize = sizeof(Chunks),
    .tp_dealloc = (destructor)chunks_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "reader._chunks over reader._lines, compiled.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)chunks_next,
    .tp_new = chunks_new,
};

/* ---- a hand's events: reader.Reader._hand, for a hand without annotations -------------- */


/* hand(number, line, items, seats) -> (Hand, seats) as Reader._hand makes them, or None
 * for the Python code: a hand with an annotation, a `Seats` tag or a seat-order trick */
static PyObject *hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4 || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "hand: number, line, a list of items, seats");
        return NULL;
    }
    if (!hand_class)
        Py_RETURN_NONE;
    PyObject *items = args[2], *seats = args[3];
    Py_ssize_t n = PyList_GET_SIZE(items);
    PyObject *events = PyTuple_New(n), *out = NULL;
    if (!events)
        return NULL;
    Py_INCREF(seats);
    long long tricks = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = PyList_GET_ITEM(items, i), *kind = (PyObject *)Py_TYPE(e);
        if (PyUnicode_Check(e))
            goto python;  /* an annotation */
        if (kind == kinds[SEATS]) {
            PyObject *players = PyObject_GetAttr(e, s_players);
            if (!players)
                goto done;
            Py_SETREF(seats, players);
        } else if (kind == kinds[TAG]) {
            PyObject *name = PyObject_GetAttr(e, s_name);
            if (!name)
                goto done;
            PyObject *lower = PyObject_CallMethod(name, "lower", NULL);
            Py_DECREF(name);
            if (!lower)
                goto done;
            int is_seats = PyUnicode_Check(lower) && PyUnicode_CompareWithASCIIString(lower, "seats") == 0;
            Py_DECREF(lower);
            if (is_seats)
                goto python;
        } else if (kind == kinds[TRICK]) {
            PyObject *number = PyObject_GetAttr(e, s_number), *sc = PyObject_GetAttr(e, s_seat_cards);
            int seat_order = sc ? PyObject_IsTrue(sc) : -1;
            Py_XDECREF(sc);
            if (!number || seat_order < 0) {
                Py_XDECREF(number);
                goto done;
            }
            if (seat_order) {
                Py_DECREF(number);
                goto python;
            }
            if (number == Py_None) {  /* numbered as the one before + 1, not written */
                PyObject *stack[7] = {NULL, NULL, NULL, NULL, NULL, Py_False, NULL};
                stack[0] = PyLong_FromLongLong(tricks + 1);
                stack[1] = PyObject_GetAttr(e, s_plays);
                stack[2] = PyObject_GetAttr(e, s_seat_cards);
                stack[3] = PyObject_GetAttr(e, s_line);
                stack[4] = PyObject_GetAttr(e, s_note);
                PyObject *made = NULL;
                if (stack[0] && stack[1] && stack[2] && stack[3] && stack[4])
                    made = PyObject_Vectorcall(kinds[TRICK], stack, 3, kw_line_note_written);
                for (int j = 0; j < 5; j++)
                    Py_XDECREF(stack[j]);
                Py_DECREF(number);
                if (!made)
                    goto done;
                tricks++;
                PyTuple_SET_ITEM(events, i, made);
                continue;
            }
            int over = 0, is_int = PyLong_Check(number);
            tricks = is_int ? PyLong_AsLongLongAndOverflow(number, &over) : 0;
            Py_DECREF(number);
            if (!is_int || over || PyErr_Occurred()) {  /* past 64 bits: the Python code counts on */
                PyErr_Clear();
                goto python;
            }
        }
        PyTuple_SET_ITEM(events, i, Py_NewRef(e));
    }
    {
        PyObject *stack[4] = {args[0], events, PyTuple_New(0), args[1]};
        if (!stack[2])
            goto done;
        PyObject *made = PyObject_Vectorcall(hand_class, stack, 3, kw_line);
        Py_DECREF(stack[2]);
        if (!made)
            goto done;
        out = PyTuple_Pack(2, made, seats);
        Py_DECREF(made);
    }
    goto done;
python:
    out = Py_NewRef(Py_None);
done:
    Py_DECREF(events);
    Py_DECREF(seats);
    return out;
}

/* direct() -> for each record class, in setup's order, whether its instances are made by
 * filling their slots (``layout``): the tests ask that every one is */
static PyObject *direct(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *out = PyTuple_New(NKINDS);
    for (int k = 0; out && k < NKINDS; k++)
        PyTuple_SET_ITEM(out, k, PyBool_FromLong(layouts[k].fast));
    return out;
}

static PyMethodDef methods[] = {
    {"hand", (PyCFunction)(void (*)(void))hand, METH_FASTCALL,
     "A hand's events as Reader._hand makes them, or None for the Python code."},
    {"direct", direct, METH_NOARGS, "Whether each record class's instances are made by filling their slots."},
    {"items", items, METH_O, "A chunk's (line, text) pairs read as strict.items reads them, or None."},
    {"setup", setup, METH_VARARGS, "The record classes the items are made of."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_strict", "The fast reader of plain hands, compiled.",
                                     -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__strict(void)
{
    kw_line = Py_BuildValue("(s)", "line");
    kw_line_column = Py_BuildValue("(ss)", "line", "column");
    struct { PyObject **at; const char *name; } words[] = {
        {&s_hand, "hand"}, {&s_pass, "pass"}, {&s_play, "play"}, {&s_draw, "draw"}, {&s_all, "all"},
        {&s_none, "none"}, {&s_players, "players"}, {&s_number, "number"}, {&s_plays, "plays"},
        {&s_seat_cards, "seat_cards"}, {&s_note, "note"}, {&s_line, "line"}, {&s_name, "name"},
        {&s_tags, "tags"}, {&s_blank, "blank"}, {&s_tag, "tag"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!(*words[i].at = PyUnicode_InternFromString(words[i].name)))
            return NULL;
    kw_line_note_written = Py_BuildValue("(sss)", "line", "note", "written");
    if (!kw_line || !kw_line_column || !kw_line_note_written)
        return NULL;
    if (PyType_Ready(&ChunksType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "Chunks", (PyObject *)&ChunksType) < 0)
        Py_CLEAR(m);
    return m;
}
