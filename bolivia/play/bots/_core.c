/* The expert's valuation core, native: what bolivia/play/bots/tables.py (Tables.grown) and
 * bolivia/play/bots/valuation.py (Position.shape_value, Position._own_parts) work out, over
 * machine numbers instead of Python's tuples and dicts.
 *
 * The compiled build uses it; the pure build has none and runs the Python, which stays the
 * reference: the same floating point operations in the same order, so that both builds give
 * the same values bit for bit (built without contraction into fused multiply-adds, and pow()
 * called as Python calls it, never folded into a product). What the ruleset alone decides (a
 * meld's value, what a rank's cards or a suit's ranks in hand add, what wild cards add) is
 * asked of the Python Tables once and kept here by the same keys.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../_ints.h"

typedef long long i64; /* (a long has 32 bits on Windows) */

/* ------------------------------------------------------------------ a map of int keys */

#define MOST_KEPT (1 << 16) /* as tables.MOST_KEPT: the map starts again when it is full */

typedef struct {
    uint64_t key; /* key + 1; 0 is an empty slot */
    double v[3];
    int n; /* values held; -1: None */
} Entry;

typedef struct {
    Entry *slots;
    size_t cap; /* a power of two */
    size_t used;
} Map;

static int map_init(Map *m) {
    m->cap = 256;
    m->used = 0;
    m->slots = PyMem_Calloc(m->cap, sizeof(Entry));
    if (m->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void map_free(Map *m) {
    PyMem_Free(m->slots);
    m->slots = NULL;
}

static inline size_t map_hash(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key;
}

static Entry *map_find(Map *m, uint64_t key) {
    size_t mask = m->cap - 1;
    size_t i = map_hash(key) & mask;
    for (;;) {
        Entry *e = &m->slots[i];
        if (e->key == key + 1) return e;
        if (e->key == 0) return NULL;
        i = (i + 1) & mask;
    }
}

/* A slot for a new key (not in the map); NULL with an exception set when out of memory. */
static Entry *map_add(Map *m, uint64_t key) {
    if (m->used >= MOST_KEPT) {
        memset(m->slots, 0, m->cap * sizeof(Entry));
        m->used = 0;
    }
    if (2 * (m->used + 1) > m->cap) {
        size_t cap = m->cap * 2;
        Entry *slots = PyMem_Calloc(cap, sizeof(Entry));
        if (slots == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        for (size_t j = 0; j < m->cap; j++) {
            Entry *e = &m->slots[j];
            if (e->key == 0) continue;
            size_t i = map_hash(e->key - 1) & (cap - 1);
            while (slots[i].key != 0) i = (i + 1) & (cap - 1);
            slots[i] = *e;
        }
        PyMem_Free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    size_t mask = m->cap - 1;
    size_t i = map_hash(key) & mask;
    while (m->slots[i].key != 0) i = (i + 1) & mask;
    m->slots[i].key = key + 1;
    m->used++;
    return &m->slots[i];
}

/* ------------------------------------------------------------------ the objects */

enum { GROUP = 0, SEQUENCE = 1, WILD = 2, OTHER = 3 };
#define RANKS 13
#define SUITS 4
#define KINDS 4

/* A table as the valuation reads it (tables.TableView). */
typedef struct {
    PyObject_HEAD
    double value;
    double partial;
    int done[KINDS];
    int gsize[RANKS]; /* the biggest unfinished group's size, -1 where none */
    int gwilds[RANKS];
    int wild_meld;
    int runmask[SUITS]; /* the longest unfinished run's ranks, -1 where none */
    int longest;
    int nsuits; /* the suits with unfinished runs, in the order first read */
    int suit_order[SUITS];
    Py_ssize_t nruns[SUITS];
    Py_ssize_t caps[SUITS];
    double *runs[SUITS]; /* each suit's unfinished runs' values, in order */
    double run_terms[SUITS];
} View;

/* The parts of the hand's own value beside the side's table (valuation._OwnParts). */
typedef struct {
    PyObject_HEAD
    int nterms[RANKS];
    double terms[RANKS][3];
    int masks[SUITS];
    int has_gain[SUITS];
    double gains[SUITS];
} Parts;

/* The cards in hand as the valuation reads them (valuation._Shape). */
typedef struct {
    PyObject_HEAD
    i64 penalty;
    int by_rank[RANKS];
    int wilds;
    int masks[SUITS];
} Shape;

#define CARDS 53
/* a card's penalty is within the ruleset's bounds of points (rules.fields.MAX_POINTS, a
 * million) by far: with at most 2^20 cards, every sum stays exact in a double */
#define PENALTY_BOUND ((i64)1 << 30)

/* What the valuation works out from the ruleset, the players and the weights (tables.Tables). */
typedef struct {
    PyObject_HEAD
    PyObject *tables; /* the Python Tables, asked what is not yet kept */
    PyObject *kind_names[3]; /* "group", "sequence", "wild" */
    int ngroup_ranks;
    int group_ranks[RANKS];
    int natural_size, mixed_size, escalera_size, bolivia_size;
    int wild_allowed, sequence_allowed;
    int span_low, span_high, run_places; /* the sequences' span, by position (an ace at both ends) */
    int run_ranks;                       /* the ranks a run may hold */
    i64 penalties[CARDS];               /* by card index */
    char wild[CARDS];
    int nwild_indices;
    int wild_indices[CARDS];
    i64 pack[CARDS]; /* the pack's cards by index */
    i64 points[CARDS]; /* each card's points in a meld */
    int nred_threes;
    int red_threes[CARDS];
    char black_three[CARDS]; /* whether each card is a black three */
    double second_run, wild_weight, run_weight, req_value;
    int req_count;
    int nreq;
    int req_kind[KINDS];
    int req_n[KINDS];
    int escalera; /* the escalera's kind index */
    int made;     /* Core.__init__ has read every number */
    Map melds, ranks, suits, wilds;
} Core;

static PyTypeObject ViewType;
static PyTypeObject PartsType;
static PyTypeObject ShapeType;

/* ------------------------------------------------------------------ View */

static View *view_new(void) {
    View *v = PyObject_New(View, &ViewType);
    if (v == NULL) return NULL;
    v->value = 0.0;
    v->partial = 0.0;
    for (int k = 0; k < KINDS; k++) v->done[k] = 0;
    for (int r = 0; r < RANKS; r++) {
        v->gsize[r] = -1;
        v->gwilds[r] = 0;
    }
    v->wild_meld = 0;
    for (int s = 0; s < SUITS; s++) {
        v->runmask[s] = -1;
        v->nruns[s] = 0;
        v->caps[s] = 0;
        v->runs[s] = NULL;
        v->run_terms[s] = 0.0;
    }
    v->longest = 0;
    v->nsuits = 0;
    return v;
}

static void view_dealloc(View *v) {
    for (int s = 0; s < SUITS; s++) PyMem_Free(v->runs[s]);
    PyObject_Free(v);
}

static int view_push_run(View *v, int suit, double value) {
    if (v->nruns[suit] == v->caps[suit]) {
        Py_ssize_t cap = v->caps[suit] ? 2 * v->caps[suit] : 4;
        double *runs = PyMem_Realloc(v->runs[suit], (size_t)cap * sizeof(double));
        if (runs == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        v->runs[suit] = runs;
        v->caps[suit] = cap;
    }
    if (v->nruns[suit] == 0) v->suit_order[v->nsuits++] = suit;
    v->runs[suit][v->nruns[suit]++] = value;
    return 0;
}

static PyObject *view_get_value(View *v, void *closure) { return PyFloat_FromDouble(v->value); }

static PyGetSetDef view_getset[] = {
    {"value", (getter)view_get_value, NULL, "the table's value", NULL},
    {NULL},
};

static PyTypeObject ViewType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bolivia.play.bots._core.View",
    .tp_basicsize = sizeof(View),
    .tp_dealloc = (destructor)view_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A table as the valuation reads it (made by Core.grown).",
    .tp_getset = view_getset,
};

static PyObject *shape_get_penalty(Shape *sh, void *closure) {
    return PyLong_FromLongLong(sh->penalty);
}

static PyObject *shape_get_wilds(Shape *sh, void *closure) { return PyLong_FromLong(sh->wilds); }


static PyObject *shape_get_by_rank(Shape *sh, void *closure) { return int_list(sh->by_rank, RANKS); }

static PyObject *shape_get_masks(Shape *sh, void *closure) { return int_list(sh->masks, SUITS); }

static PyGetSetDef shape_getset[] = {
    {"penalty", (getter)shape_get_penalty, NULL, "the cards' penalty", NULL},
    {"by_rank", (getter)shape_get_by_rank, NULL, "the cards of each rank (a new list)", NULL},
    {"wilds", (getter)shape_get_wilds, NULL, "the wild cards", NULL},
    {"masks", (getter)shape_get_masks, NULL, "the ranks held of each suit (a new list)", NULL},
    {NULL},
};

static PyTypeObject ShapeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bolivia.play.bots._core.Shape",
    .tp_basicsize = sizeof(Shape),
    .tp_dealloc = (destructor)PyObject_Free,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The cards in hand as the valuation reads them (made by Core.shape and the like).",
    .tp_getset = shape_getset,
};

static PyTypeObject PartsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bolivia.play.bots._core.Parts",
    .tp_basicsize = sizeof(Parts),
    .tp_dealloc = (destructor)PyObject_Free,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The parts of the hand's own value beside the side's table (made by Core.parts).",
};

/* ------------------------------------------------------------------ reading Python values */

static int as_int(PyObject *o, i64 *out) { return read_long_long(o, out); }

static int attr_int(PyObject *o, const char *name, int *out) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    i64 x;
    int err = as_int(a, &x);
    Py_DECREF(a);
    if (err) return -1;
    *out = (int)x;
    return 0;
}

static int attr_double(PyObject *o, const char *name, double *out) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    double x = PyFloat_AsDouble(a);
    Py_DECREF(a);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

/* A meld's kind: GROUP, SEQUENCE, WILD or OTHER. */
static int kind_of(Core *c, PyObject *name) {
    for (int k = 0; k < 3; k++) {
        if (name == c->kind_names[k]) return k;
    }
    for (int k = 0; k < 3; k++) {
        int eq = PyUnicode_Compare(name, c->kind_names[k]);
        if (eq == -1 && PyErr_Occurred()) return -1;
        if (eq == 0) return k;
    }
    return OTHER;
}

/* A summary (kind, size, wild cards, key, mask) read off its tuple. */
typedef struct {
    int kind;
    i64 size, wilds, key, mask;
} Summary;

static int read_summary(Core *c, PyObject *s, Summary *out) {
    if (!PyTuple_Check(s) || PyTuple_GET_SIZE(s) != 5) {
        PyErr_SetString(PyExc_TypeError, "a meld summary is a tuple of five");
        return -1;
    }
    out->kind = kind_of(c, PyTuple_GET_ITEM(s, 0));
    if (out->kind < 0) return -1;
    if (as_int(PyTuple_GET_ITEM(s, 1), &out->size) || as_int(PyTuple_GET_ITEM(s, 2), &out->wilds) ||
        as_int(PyTuple_GET_ITEM(s, 3), &out->key) || as_int(PyTuple_GET_ITEM(s, 4), &out->mask))
        return -1;
    if (out->size < 0 || out->size >= 1024 || out->wilds < 0 || out->wilds >= 1024 ||
        out->key < -1 || out->key >= RANKS || out->mask < 0 || out->mask >= (1 << RANKS)) {
        PyErr_SetString(PyExc_ValueError, "a meld summary out of its bounds");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ what the Tables decide */

/* tables.meld_value: asked of the Python Tables once a key. */
static int meld_value(Core *c, const Summary *s, PyObject *kind_name, double *out) {
    if (s->kind == OTHER) { /* any other kind is worth nothing */
        *out = 0.0;
        return 0;
    }
    uint64_t key = (uint64_t)s->kind | (uint64_t)s->size << 2 | (uint64_t)s->wilds << 12 |
                   (uint64_t)(s->key + 1) << 22;
    Entry *e = map_find(&c->melds, key);
    if (e != NULL) {
        *out = e->v[0];
        return 0;
    }
    PyObject *r = PyObject_CallMethod(c->tables, "_meld_value", "Olll", kind_name, s->size,
                                      s->wilds, s->key);
    if (r == NULL) return -1;
    double x = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    e = map_add(&c->melds, key);
    if (e == NULL) return -1;
    e->v[0] = x;
    e->n = 1;
    *out = x;
    return 0;
}

/* tables.rank_terms: what c cards of rank r in hand add beside the side's group. */
static Entry *rank_terms(Core *c, int r, int n, const View *view) {
    int size = view->gsize[r];
    uint64_t key = size < 0 ? (uint64_t)(r | n << 4)
                            : (uint64_t)r | (uint64_t)n << 4 | (uint64_t)(size + 1) << 14 |
                                  (uint64_t)view->gwilds[r] << 24;
    Entry *e = map_find(&c->ranks, key);
    if (e != NULL) return e;
    PyObject *r_ = size < 0 ? PyObject_CallMethod(c->tables, "_rank_terms", "iiO", r, n, Py_None)
                            : PyObject_CallMethod(c->tables, "_rank_terms", "ii(ii)", r, n, size,
                                                  view->gwilds[r]);
    if (r_ == NULL) return NULL;
    if (!PyTuple_Check(r_) || PyTuple_GET_SIZE(r_) > 3) {
        Py_DECREF(r_);
        PyErr_SetString(PyExc_TypeError, "a rank's terms are a tuple of at most three");
        return NULL;
    }
    double v[3];
    int k = (int)PyTuple_GET_SIZE(r_);
    for (int i = 0; i < k; i++) {
        v[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(r_, i));
        if (v[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(r_);
            return NULL;
        }
    }
    Py_DECREF(r_);
    e = map_add(&c->ranks, key);
    if (e == NULL) return NULL;
    for (int i = 0; i < k; i++) e->v[i] = v[i];
    e->n = k;
    return e;
}

static inline int ones(i64 mask) {
    int n = 0;
    while (mask) {
        mask &= mask - 1;
        n++;
    }
    return n;
}

/* a volatile exponent: pow() is called as Python calls it, never folded into x * x */
static volatile double TWO = 2.0;

/* The positions from `start` on, `span` of them (a span past the 14 positions takes all of
 * them from `start`, as Python's unbounded ints do). */
static inline i64 window_of(i64 span, i64 start) {
    if (span > 40) span = 40;
    return (((i64)1 << span) - 1) << start;
}

/* runs.positions: a mask of ranks as a mask of positions, the ace at both ends */
static inline i64 positions(i64 mask) { return (mask << 1) | (mask >> 12 & 1); }

/* A sequence of `size` cards, none wild (a summary for tables.meld_value). */
static int sequence_value(Core *c, i64 size, double *out) {
    Summary s = {SEQUENCE, size, 0, -1, 0};
    return meld_value(c, &s, c->kind_names[SEQUENCE], out);
}

/* tables._run_gain: what the hand's ranks `mask` of a suit add to the side's run `on` (its
 * ranks), weighted; *none set where they add nothing. */
static int run_gain_of(Core *c, i64 mask, i64 on, double *out, int *none) {
    i64 span = c->escalera_size;
    i64 places = positions(mask) & c->run_places;
    i64 laid = positions(on) & c->run_places;
    i64 ons[2] = {laid, 0};
    int nons = 1;
    if (laid & 1 && laid >> 13 & 1) { /* the side's run with its ace low or high */
        ons[0] = laid & ~(i64)1;
        ons[1] = laid & ~((i64)1 << 13);
        nons = 2;
    }
    int best = 0;
    i64 stop = c->span_high - span + 2;
    if (stop < c->span_low + 1) stop = c->span_low + 1;
    for (i64 start = c->span_low; start < stop; start++) {
        i64 window = window_of(span, start);
        for (int i = 0; i < nons; i++) {
            if (!(ons[i] & ~window)) {
                int n = ones((places | ons[i]) & window);
                if (n > best) best = n;
            }
        }
    }
    int have = ones(on);
    if (best <= have) {
        *none = 1;
        return 0;
    }
    double grown, was;
    if (sequence_value(c, best, &grown) || sequence_value(c, have, &was)) return -1;
    double gain = grown - was;
    double weight = on ? c->run_weight : c->run_weight * 0.7;
    int needs = 0;
    for (int i = 0; i < c->nreq; i++) {
        if (c->req_kind[i] == c->escalera) needs = c->req_n[i];
    }
    if (needs) {
        double b = (double)best / (double)span, h = (double)have / (double)span;
        gain += c->req_value * (pow(b, TWO) - pow(h, TWO));
    }
    *none = 0;
    *out = weight * gain;
    return 0;
}

/* tables.run_gain, kept: an entry of n == -1 where the ranks add nothing. */
static Entry *run_gain(Core *c, int mask, int on) {
    uint64_t key = (uint64_t)mask | (uint64_t)on << 13;
    Entry *e = map_find(&c->suits, key);
    if (e != NULL) return e;
    if (c->escalera_size <= 0) {
        PyErr_SetString(PyExc_ZeroDivisionError, "an escalera of no cards");
        return NULL;
    }
    double x = 0.0;
    int none;
    if (run_gain_of(c, mask, on, &x, &none)) return NULL;
    e = map_add(&c->suits, key);
    if (e == NULL) return NULL;
    e->v[0] = x;
    e->n = none ? -1 : 1;
    return e;
}

/* tables.wild_gain */
static int wild_gain(Core *c, int wild_meld, int wilds, double *out) {
    uint64_t key = (uint64_t)wild_meld << 10 | (uint64_t)wilds;
    Entry *e = map_find(&c->wilds, key);
    if (e != NULL) {
        *out = e->v[0];
        return 0;
    }
    PyObject *r = PyObject_CallMethod(c->tables, "wild_gain", "ii", wild_meld, wilds);
    if (r == NULL) return -1;
    double x = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    e = map_add(&c->wilds, key);
    if (e == NULL) return -1;
    e->v[0] = x;
    e->n = 1;
    *out = x;
    return 0;
}

/* ------------------------------------------------------------------ Core */

static int core_clear(Core *c) {
    Py_CLEAR(c->tables);
    for (int k = 0; k < 3; k++) Py_CLEAR(c->kind_names[k]);
    return 0;
}

static int core_traverse(Core *c, visitproc visit, void *arg) {
    Py_VISIT(c->tables);
    return 0;
}

static void core_dealloc(Core *c) {
    PyObject_GC_UnTrack(c);
    core_clear(c);
    map_free(&c->melds);
    map_free(&c->ranks);
    map_free(&c->suits);
    map_free(&c->wilds);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* A sequence of ints read into `out` (n of them, each within [low, high)). */
static int read_bounded(PyObject *o, i64 *out, Py_ssize_t n, i64 low, i64 high,
                        const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (seq == NULL) return -1;
    if (n >= 0 && PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: %zd values expected", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        i64 x;
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), &x)) {
            Py_DECREF(seq);
            return -1;
        }
        if (x < low || x >= high) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: a value out of range", what);
            return -1;
        }
        out[i] = x;
    }
    Py_DECREF(seq);
    return 0;
}

/* The attribute `name` of `o`, a sequence of ints within [low, high): n of them, or as many as
 * it holds (at most CARDS) where n is -1, the count then put in *count. */
static int read_attr(PyObject *o, const char *name, i64 *out, Py_ssize_t n, i64 low, i64 high,
                     int *count) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    if (n < 0) {
        n = PyObject_Length(a);
        if (n < 0 || n > CARDS) {
            Py_DECREF(a);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: too many values", name);
            return -1;
        }
        *count = (int)n;
    }
    int err = read_bounded(a, out, n, low, high, name);
    Py_DECREF(a);
    return err;
}

/* The cards' penalties, which are wild, the pack and the red threes (by index), read off the
 * tables and their limits. */
static int read_cards(Core *c, PyObject *lim) {
    i64 wild[CARDS], wilds[CARDS], threes[CARDS], blacks[CARDS];
    int nblacks;
    if (read_attr(c->tables, "penalties", c->penalties, CARDS, -PENALTY_BOUND, PENALTY_BOUND,
                  NULL) ||
        read_attr(lim, "wild", wild, CARDS, 0, 2, NULL) ||
        read_attr(lim, "wild_indices", wilds, -1, 0, CARDS, &c->nwild_indices) ||
        read_attr(c->tables, "pack", c->pack, CARDS, 0, 1 << 20, NULL) ||
        read_attr(c->tables, "points", c->points, CARDS, -PENALTY_BOUND, PENALTY_BOUND, NULL) ||
        read_attr(c->tables, "red_threes", threes, -1, 0, CARDS, &c->nred_threes) ||
        read_attr(c->tables, "black_threes", blacks, -1, 0, CARDS, &nblacks))
        return -1;
    memset(c->black_three, 0, sizeof c->black_three);
    for (int i = 0; i < nblacks; i++) c->black_three[blacks[i]] = 1;
    for (int i = 0; i < CARDS; i++) c->wild[i] = (char)wild[i];
    for (int i = 0; i < c->nwild_indices; i++) c->wild_indices[i] = (int)wilds[i];
    for (int i = 0; i < c->nred_threes; i++) c->red_threes[i] = (int)threes[i];
    return 0;
}

/* Core(tables, escalera): the numbers read off the Python Tables once. */
static int core_init(Core *c, PyObject *args, PyObject *kwds) {
    PyObject *tables;
    int escalera;
    if (!PyArg_ParseTuple(args, "Oi", &tables, &escalera)) return -1;
    if (c->tables != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a Core is made once");
        return -1;
    }
    Py_INCREF(tables);
    c->tables = tables;
    c->escalera = escalera;
    const char *names[3] = {"group", "sequence", "wild"};
    for (int k = 0; k < 3; k++) {
        c->kind_names[k] = PyUnicode_InternFromString(names[k]);
        if (c->kind_names[k] == NULL) return -1;
    }
    if (map_init(&c->melds) || map_init(&c->ranks) || map_init(&c->suits) || map_init(&c->wilds))
        return -1;
    PyObject *lim = PyObject_GetAttrString(tables, "lim");
    if (lim == NULL) return -1;
    int err = attr_int(lim, "natural_size", &c->natural_size) ||
              attr_int(lim, "mixed_size", &c->mixed_size) ||
              attr_int(lim, "escalera_size", &c->escalera_size) ||
              attr_int(lim, "bolivia_size", &c->bolivia_size) ||
              attr_int(lim, "wild_allowed", &c->wild_allowed) ||
              attr_int(lim, "sequence_allowed", &c->sequence_allowed) ||
              attr_int(lim, "span_low", &c->span_low) || attr_int(lim, "span_high", &c->span_high) ||
              attr_int(lim, "run_places", &c->run_places) ||
              attr_int(lim, "run_ranks", &c->run_ranks) || read_cards(c, lim);
    PyObject *ranks = err ? NULL : PyObject_GetAttrString(lim, "group_ranks");
    Py_DECREF(lim);
    if (ranks == NULL) return -1;
    PyObject *seq = PySequence_Fast(ranks, "the group ranks are a sequence");
    Py_DECREF(ranks);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > RANKS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more group ranks than ranks");
        return -1;
    }
    c->ngroup_ranks = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 r;
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), &r)) {
            Py_DECREF(seq);
            return -1;
        }
        if (r < 0 || r >= RANKS) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a group rank out of range");
            return -1;
        }
        c->group_ranks[i] = (int)r;
    }
    Py_DECREF(seq);
    PyObject *w = PyObject_GetAttrString(tables, "w");
    if (w == NULL) return -1;
    err = attr_double(w, "second_run", &c->second_run) || attr_double(w, "wild", &c->wild_weight) ||
          attr_double(w, "run", &c->run_weight);
    Py_DECREF(w);
    if (err || attr_double(tables, "req_value", &c->req_value) ||
        attr_int(tables, "req_count", &c->req_count))
        return -1;
    PyObject *kinds = PyObject_GetAttrString(tables, "req_kinds");
    if (kinds == NULL) return -1;
    if (!PyDict_Check(kinds) || PyDict_GET_SIZE(kinds) > KINDS) {
        Py_DECREF(kinds);
        PyErr_SetString(PyExc_TypeError, "the requirement's kinds are a dict of at most four");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    c->nreq = 0;
    while (PyDict_Next(kinds, &pos, &key, &value)) { /* in the dict's order, as Python reads it */
        i64 k, m;
        if (as_int(key, &k) || as_int(value, &m)) {
            Py_DECREF(kinds);
            return -1;
        }
        if (k < 0 || k >= KINDS || m <= 0) {
            Py_DECREF(kinds);
            PyErr_SetString(PyExc_ValueError, "a requirement's kind out of range");
            return -1;
        }
        c->req_kind[c->nreq] = (int)k;
        c->req_n[c->nreq] = (int)m;
        c->nreq++;
    }
    Py_DECREF(kinds);
    c->made = 1;
    return 0;
}

/* Whether the core was made (Core.__init__ ran): a core only allocated has no maps. */
static int ready(const Core *c) {
    if (!c->made) {
        PyErr_SetString(PyExc_RuntimeError, "a Core is used before it is made (Core(tables, k))");
        return 0;
    }
    return 1;
}

/* tables.canasta_kind: the kind of canasta a meld is, or -1. */
static int canasta_kind(const Core *c, const Summary *s) {
    switch (s->kind) {
    case GROUP:
        if (s->wilds == 0) return s->size >= c->natural_size ? 0 : -1;
        return s->size >= c->mixed_size ? 1 : -1;
    case SEQUENCE:
        return s->size >= c->escalera_size ? 2 : -1;
    case WILD:
        return s->size >= c->bolivia_size ? 3 : -1;
    default:
        return -1;
    }
}

/* tables._with_requirement */
static double with_requirement(const Core *c, double value, const int *done, int longest) {
    i64 total = 0;
    for (int k = 0; k < KINDS; k++) total += done[k];
    i64 have = total < c->req_count ? total : c->req_count;
    i64 of = c->req_count > 1 ? c->req_count : 1;
    value += c->req_value * (double)have / (double)of;
    for (int i = 0; i < c->nreq; i++) {
        int kind = c->req_kind[i], n = c->req_n[i];
        int got = done[kind] < n ? done[kind] : n;
        value += c->req_value * (double)got / (double)n;
        if (done[kind] < n && kind == c->escalera) {
            double share = (double)longest / (double)c->escalera_size;
            value += c->req_value * pow(share, TWO);
        }
    }
    return value;
}

/* A copy of a view's melds as read so far, to read more onto. */
static View *view_copy(const View *base) {
    View *v = view_new();
    if (v == NULL) return NULL;
    v->partial = base->partial;
    memcpy(v->done, base->done, sizeof v->done);
    memcpy(v->gsize, base->gsize, sizeof v->gsize);
    memcpy(v->gwilds, base->gwilds, sizeof v->gwilds);
    v->wild_meld = base->wild_meld;
    memcpy(v->runmask, base->runmask, sizeof v->runmask);
    v->longest = base->longest;
    v->nsuits = base->nsuits;
    memcpy(v->suit_order, base->suit_order, sizeof v->suit_order);
    memcpy(v->run_terms, base->run_terms, sizeof v->run_terms);
    for (int s = 0; s < SUITS; s++) {
        Py_ssize_t n = base->nruns[s];
        if (n == 0) continue;
        v->runs[s] = PyMem_Malloc((size_t)n * sizeof(double));
        if (v->runs[s] == NULL) {
            Py_DECREF(v);
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(v->runs[s], base->runs[s], (size_t)n * sizeof(double));
        v->nruns[s] = v->caps[s] = n;
    }
    return v;
}

/* Read one meld onto the view; *runs_changed set where it is an unfinished run. */
static int view_add(Core *c, View *v, const Summary *sp, int *runs_changed) {
    Summary s = *sp;
    int done = canasta_kind(c, &s);
    double value;
    if (meld_value(c, &s, s.kind == OTHER ? NULL : c->kind_names[s.kind], &value)) return -1;
    if (done >= 0) {
        v->done[done]++;
        v->partial += value;
    } else if (s.kind == GROUP) {
        v->partial += value;
        if (s.key < 0) {
            PyErr_SetString(PyExc_ValueError, "a group summary without its rank");
            return -1;
        }
        if (v->gsize[s.key] < 0 || s.size > v->gsize[s.key]) {
            v->gsize[s.key] = (int)s.size;
            v->gwilds[s.key] = (int)s.wilds;
        }
    } else if (s.kind == WILD) {
        v->partial += value;
        if (s.size > v->wild_meld) v->wild_meld = (int)s.size;
    } else if (s.kind == SEQUENCE) {
        if (s.key < 0 || s.key >= SUITS) {
            PyErr_SetString(PyExc_ValueError, "a sequence summary without its suit");
            return -1;
        }
        if (view_push_run(v, (int)s.key, value)) return -1;
        *runs_changed = 1;
        if (s.size > v->longest) v->longest = (int)s.size;
        int run = v->runmask[s.key];
        if (run < 0 || ones(s.mask) > ones(run)) v->runmask[s.key] = (int)s.mask;
    } else {
        v->partial += value;
    }
    return 0;
}

/* Read one meld's summary (a tuple) onto the view. */
static int view_read(Core *c, View *v, PyObject *item, int *runs_changed) {
    Summary s;
    if (read_summary(c, item, &s)) return -1;
    return view_add(c, v, &s, runs_changed);
}

/* One unfinished run a suit worth its way, another beside it less (sorted, the best first). */
static int view_run_terms(const Core *c, View *v) {
    for (int i = 0; i < v->nsuits; i++) {
        int suit = v->suit_order[i];
        Py_ssize_t n = v->nruns[suit];
        double *ranked = PyMem_Malloc((size_t)n * sizeof(double));
        if (ranked == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t j = 0; j < n; j++) { /* a stable insertion, greatest first */
            double x = v->runs[suit][j];
            Py_ssize_t at = j;
            while (at > 0 && ranked[at - 1] < x) {
                ranked[at] = ranked[at - 1];
                at--;
            }
            ranked[at] = x;
        }
        double rest = 0.0;
        for (Py_ssize_t j = 1; j < n; j++) rest += ranked[j];
        v->run_terms[i] = ranked[0] + c->second_run * rest;
        PyMem_Free(ranked);
    }
    return 0;
}

/* The view's value, once its melds are read (its runs' terms worked out again where a run
 * was read). */
static int view_total(const Core *c, View *v, int runs_changed) {
    if (runs_changed && view_run_terms(c, v)) return -1;
    double total = v->partial;
    for (int i = 0; i < v->nsuits; i++) total += v->run_terms[i];
    v->value = with_requirement(c, total, v->done, v->longest);
    return 0;
}

/* Core.grown(base, added): the view of base's melds (none when None), then added. */
static PyObject *core_grown(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "grown(base, added)");
        return NULL;
    }
    View *v;
    if (args[0] == Py_None) {
        v = view_new();
    } else if (Py_IS_TYPE(args[0], &ViewType)) {
        v = view_copy((View *)args[0]);
    } else {
        PyErr_SetString(PyExc_TypeError, "the base is a View or None");
        return NULL;
    }
    if (v == NULL) return NULL;
    PyObject *seq = PySequence_Fast(args[1], "the melds added are a sequence");
    if (seq == NULL) {
        Py_DECREF(v);
        return NULL;
    }
    int runs_changed = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (view_read(c, v, PySequence_Fast_GET_ITEM(seq, i), &runs_changed)) {
            Py_DECREF(seq);
            Py_DECREF(v);
            return NULL;
        }
    }
    Py_DECREF(seq);
    if (view_total(c, v, runs_changed)) {
        Py_DECREF(v);
        return NULL;
    }
    return (PyObject *)v;
}

/* The view of the table (a sequence of summaries) with its meld k now `meld` (tables.Tables.
 * replaced: the same numbers as reading the table so made); NULL on an error. */
static View *replaced_view(Core *c, PyObject *table, i64 k, const Summary *meld) {
    PyObject *seq = PySequence_Fast(table, "the table is a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (k < 0 || k >= n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_IndexError, "no such meld on the table");
        return NULL;
    }
    View *v = view_new();
    if (v == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    int runs_changed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int err = i == k ? view_add(c, v, meld, &runs_changed)
                         : view_read(c, v, PySequence_Fast_GET_ITEM(seq, i), &runs_changed);
        if (err) {
            Py_DECREF(seq);
            Py_DECREF(v);
            return NULL;
        }
    }
    Py_DECREF(seq);
    if (view_total(c, v, runs_changed)) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

/* Core.replaced(table, k, meld): the view of the table with its meld k now meld. */
static PyObject *core_replaced(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "replaced(table, k, meld)");
        return NULL;
    }
    i64 k;
    Summary meld;
    if (as_int(args[1], &k) || read_summary(c, args[2], &meld)) return NULL;
    return (PyObject *)replaced_view(c, args[0], k, &meld);
}

/* ------------------------------------------------------------------ shapes */

static Shape *shape_new(void) { return PyObject_New(Shape, &ShapeType); }

static Shape *as_shape(PyObject *o) {
    if (!Py_IS_TYPE(o, &ShapeType)) {
        PyErr_SetString(PyExc_TypeError, "the shape is a Shape");
        return NULL;
    }
    return (Shape *)o;
}

/* The penalty of these cards (counts by index), and how many of them are wild
 * (valuation.Position._penalty_and_wilds). */
static void penalty_and_wilds(const Core *c, const i64 *counts, Shape *sh) {
    i64 penalty = 0;
    for (int i = 0; i < CARDS; i++) {
        if (counts[i]) penalty += counts[i] * c->penalties[i];
    }
    int wilds = 0;
    for (int i = 0; i < c->nwild_indices; i++) wilds += (int)counts[c->wild_indices[i]];
    sh->penalty = penalty;
    sh->wilds = wilds;
}

/* Core.shape(counts): valuation.Position.shape, the cards in hand by index. */
static PyObject *core_shape(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "shape(counts)");
        return NULL;
    }
    i64 counts[CARDS];
    if (read_bounded(args[0], counts, CARDS, 0, 1 << 20, "counts")) return NULL;
    Shape *sh = shape_new();
    if (sh == NULL) return NULL;
    penalty_and_wilds(c, counts, sh);
    for (int r = 0; r < RANKS; r++) {
        i64 b = r * 4;
        sh->by_rank[r] = (int)(counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3]);
    }
    for (int suit = 0; suit < SUITS; suit++) {
        int mask = 0;
        if (c->sequence_allowed) {
            for (int r = 0; r < RANKS; r++) {
                if (c->run_ranks >> r & 1 && counts[r * 4 + suit]) mask |= 1 << r;
            }
        }
        sh->masks[suit] = mask;
    }
    return (PyObject *)sh;
}

/* Core.own_shape(counts, by_rank, held): valuation.Position._own_shape, from the counts the
 * hand keeps by rank (by_rank) and the ranks it keeps by suit (held). */
static PyObject *core_own_shape(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "own_shape(counts, by_rank, held)");
        return NULL;
    }
    i64 counts[CARDS], by_rank[RANKS], held[SUITS];
    if (read_bounded(args[0], counts, CARDS, 0, 1 << 20, "counts") ||
        read_bounded(args[1], by_rank, RANKS, 0, 1 << 20, "by_rank") ||
        read_bounded(args[2], held, SUITS, 0, 1 << 14, "held"))
        return NULL;
    Shape *sh = shape_new();
    if (sh == NULL) return NULL;
    penalty_and_wilds(c, counts, sh);
    for (int r = 0; r < RANKS; r++) sh->by_rank[r] = (int)by_rank[r];
    for (int suit = 0; suit < SUITS; suit++)
        sh->masks[suit] = c->sequence_allowed ? (int)(held[suit] & c->run_ranks) : 0;
    return (PyObject *)sh;
}

/* The count of one card index in the hand's counts (a list), bounded. */
static int count_at(PyObject *counts, i64 index, i64 *out) {
    if (!PyList_Check(counts) || PyList_GET_SIZE(counts) != CARDS) {
        PyErr_SetString(PyExc_TypeError, "the counts are a list of 53");
        return -1;
    }
    return as_int(PyList_GET_ITEM(counts, index), out);
}

/* valuation.Position.shape_without: `was` without the cards of these indices (`n`, each
 * checked), held (`counts`: the hand's counts by index, a list), into `sh`. */
static int without_into(const Core *c, const Shape *was, const i64 *indices, Py_ssize_t n,
                        PyObject *counts, Shape *sh) {
    sh->penalty = was->penalty;
    sh->wilds = was->wilds;
    memcpy(sh->by_rank, was->by_rank, sizeof sh->by_rank);
    memcpy(sh->masks, was->masks, sizeof sh->masks);
    i64 left[CARDS];
    uint64_t gone = 0; /* the indices seen so far (a bit each): their count left in `left` */
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 index = indices[i];
        if (index < 0 || index >= CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card index out of range");
            return -1;
        }
        sh->penalty -= c->penalties[index];
        if (c->wild[index]) sh->wilds--;
        if (index < 52) {
            int r = (int)(index >> 2);
            sh->by_rank[r]--;
            if (!(gone >> index & 1)) {
                if (count_at(counts, index, &left[index])) return -1;
                gone |= (uint64_t)1 << index;
            }
            left[index]--;
            if (left[index] == 0 && c->run_ranks >> r & 1) sh->masks[index & 3] &= ~(1 << r);
        }
    }
    return 0;
}

/* At most this many cards go in one action (a hand holds at most rules.fields.MAX_CARDS, 440). */
#define MOST_CARDS 1024

/* The indices of a sequence of ints (at most MOST_CARDS) into `out`; their count, or -1. */
static Py_ssize_t read_indices(PyObject *o, i64 *out) {
    PyObject *seq = PySequence_Fast(o, "the cards' indices are a sequence");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MOST_CARDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more cards than a hand holds");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), &out[i])) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return n;
}

/* Core.without(shape, indices, counts): valuation.Position.shape_without, the shape without
 * these cards (held: counts by index). */
static PyObject *core_without(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "without(shape, indices, counts)");
        return NULL;
    }
    Shape *was = as_shape(args[0]);
    if (was == NULL) return NULL;
    i64 indices[MOST_CARDS];
    Py_ssize_t n = read_indices(args[1], indices);
    if (n < 0) return NULL;
    Shape *sh = shape_new();
    if (sh == NULL) return NULL;
    if (without_into(c, was, indices, n, args[2], sh)) {
        Py_DECREF(sh);
        return NULL;
    }
    return (PyObject *)sh;
}

/* valuation.Position.discarded: `was` without one card of `index` (`count` of it held). */
static int discarded_into(const Core *c, const Shape *was, i64 index, i64 count, Shape *sh) {
    if (index < 0 || index >= CARDS) {
        PyErr_SetString(PyExc_ValueError, "a card index out of range");
        return -1;
    }
    memcpy(sh->by_rank, was->by_rank, sizeof sh->by_rank);
    memcpy(sh->masks, was->masks, sizeof sh->masks);
    sh->wilds = c->wild[index] ? was->wilds - 1 : was->wilds;
    if (index < 52) {
        int r = (int)(index >> 2);
        sh->by_rank[r]--;
        if (count == 1 && c->run_ranks >> r & 1) sh->masks[index & 3] &= ~(1 << r);
    }
    sh->penalty = was->penalty - c->penalties[index];
    return 0;
}

/* Core.discarded(shape, index, count): the shape without one card of `index` (count: how
 * many of it are held). */
static PyObject *core_discarded(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "discarded(shape, index, count)");
        return NULL;
    }
    Shape *was = as_shape(args[0]);
    i64 index, count;
    if (was == NULL || as_int(args[1], &index) || as_int(args[2], &count)) return NULL;
    Shape *sh = shape_new();
    if (sh == NULL) return NULL;
    if (discarded_into(c, was, index, count, sh)) {
        Py_DECREF(sh);
        return NULL;
    }
    return (PyObject *)sh;
}

/* ------------------------------------------------------------------ the hand's value */

/* valuation._run_part: the entry of what a suit's ranks add, or NULL (no mask: nothing) with
 * *failed set on an error. */
static Entry *run_part(Core *c, int suit, int mask, const View *view, int *failed) {
    *failed = 0;
    if (!mask) return NULL;
    int on = view->runmask[suit] < 0 ? 0 : view->runmask[suit];
    Entry *e = run_gain(c, mask, on);
    if (e == NULL) *failed = 1;
    return e;
}

static const View *as_view(PyObject *o) {
    if (!Py_IS_TYPE(o, &ViewType)) {
        PyErr_SetString(PyExc_TypeError, "the view is a View");
        return NULL;
    }
    return (const View *)o;
}

/* valuation.Position.shape_value, with its _rank_part and _runs_value: what the cards in hand
 * (`shape`) are worth beside the view, the parts `kept` (or NULL) taken as they are for the
 * ranks not in `ranks` and the suits not in `suits`. */
static int shape_value_of(Core *c, const Shape *shape, const View *view, const Parts *kept,
                          i64 ranks, i64 suits, double risk, double *out) {
    double value = 0.0;
    value -= risk * (double)shape->penalty;
    for (int i = 0; i < c->ngroup_ranks; i++) {
        int r = c->group_ranks[i];
        if (kept != NULL && !(ranks >> r & 1)) {
            for (int j = 0; j < kept->nterms[r]; j++) value += kept->terms[r][j];
            continue;
        }
        int n = shape->by_rank[r];
        if (n) {
            Entry *e = rank_terms(c, r, n, view);
            if (e == NULL) return -1;
            for (int j = 0; j < e->n; j++) value += e->v[j];
        }
    }
    int wilds = shape->wilds;
    if (wilds) {
        value += c->wild_weight * (double)wilds;
        if (c->wild_allowed) {
            double gain;
            if (wild_gain(c, view->wild_meld, wilds, &gain)) return -1;
            value += gain;
        }
    }
    if (c->sequence_allowed) {
        double runs = 0.0;
        for (int suit = 0; suit < SUITS; suit++) {
            int mask = shape->masks[suit];
            if (kept != NULL && mask == kept->masks[suit] && !(suits >> suit & 1)) {
                if (kept->has_gain[suit]) runs += kept->gains[suit];
                continue;
            }
            int failed;
            Entry *e = run_part(c, suit, mask, view, &failed);
            if (failed) return -1;
            if (e != NULL && e->n >= 0) runs += e->v[0];
        }
        value += runs;
    }
    *out = value;
    return 0;
}

/* The parts kept: Parts, or NULL for None (0), or -1 with an error. */
static int as_parts(PyObject *o, const Parts **out) {
    *out = NULL;
    if (o == Py_None) return 0;
    if (!Py_IS_TYPE(o, &PartsType)) {
        PyErr_SetString(PyExc_TypeError, "the parts kept are Parts or None");
        return -1;
    }
    *out = (const Parts *)o;
    return 0;
}

static int as_double(PyObject *o, double *out) {
    *out = PyFloat_AsDouble(o);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* Core.shape_value(shape, view, kept, ranks, suits, risk): the cards in hand beside the view. */
static PyObject *core_shape_value(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "shape_value(shape, view, kept, ranks, suits, risk)");
        return NULL;
    }
    i64 ranks, suits;
    double risk, value;
    const Parts *kept;
    const Shape *shape = as_shape(args[0]);
    if (shape == NULL) return NULL;
    const View *view = as_view(args[1]);
    if (view == NULL || as_parts(args[2], &kept) || as_int(args[3], &ranks) ||
        as_int(args[4], &suits) || as_double(args[5], &risk) ||
        shape_value_of(c, shape, view, kept, ranks, suits, risk, &value))
        return NULL;
    return PyFloat_FromDouble(value);
}

/* ------------------------------------------------------------------ an action's value */

static PyObject *INDEX; /* "index", a card's attribute */

/* The indices of a sequence of cards (each read off its `index`), appended to `out` from *n
 * (at most MOST_CARDS in all). */
static int card_indices(PyObject *cards, i64 *out, Py_ssize_t *n) {
    PyObject *seq = PySequence_Fast(cards, "the cards are a sequence");
    if (seq == NULL) return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (*n + k > MOST_CARDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more cards than a hand holds");
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *index = PyObject_GetAttr(PySequence_Fast_GET_ITEM(seq, i), INDEX);
        if (index == NULL) {
            Py_DECREF(seq);
            return -1;
        }
        i64 x;
        int err = as_int(index, &x);
        Py_DECREF(index);
        if (err || x < 0 || x >= CARDS) {
            Py_DECREF(seq);
            if (!err) PyErr_SetString(PyExc_ValueError, "a card index out of range");
            return -1;
        }
        out[(*n)++] = x;
    }
    Py_DECREF(seq);
    return 0;
}

/* valuation.Position.cards_summary: a new meld of these cards (legal: the engine offered it). */
static void cards_summary(const Core *c, const i64 *cards, Py_ssize_t n, Summary *s) {
    int wilds = 0, ranks = 0;
    i64 first = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (c->wild[cards[i]]) {
            wilds++;
            continue;
        }
        if (first < 0) first = cards[i];
        ranks |= 1 << (cards[i] >> 2);
    }
    s->size = n;
    s->wilds = wilds;
    s->mask = 0;
    if (first < 0) {
        s->kind = WILD;
        s->key = -1;
    } else if (ones(ranks) == 1) { /* a group, or black or red threes (worth nothing here) */
        s->key = first >> 2;
        s->kind = s->key == 1 ? OTHER : GROUP;
    } else {
        s->kind = SEQUENCE;
        s->key = first & 3;
        s->mask = ranks;
    }
}

/* valuation._touched: the ranks and suits (bits) whose part of the hand's value these cards
 * leaving it for these melds may change. */
static void touched(const i64 *cards, Py_ssize_t n, const Summary *melds, Py_ssize_t m,
                    i64 *ranks, i64 *suits) {
    *ranks = 0;
    *suits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cards[i] < 52) *ranks |= (i64)1 << (cards[i] >> 2);
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        if (melds[i].kind == GROUP) *ranks |= (i64)1 << melds[i].key;
        else if (melds[i].kind == SEQUENCE) *suits |= (i64)1 << melds[i].key;
    }
}

/* The value once these cards leave the hand (`own`) for a table read as `view`, and the cards'
 * points: the tuple (value, points) Core.laying and Core.melding give. */
static PyObject *value_after(Core *c, const Shape *own, View *view, const Parts *kept,
                             PyObject *counts, const i64 *cards, Py_ssize_t n,
                             const Summary *melds, Py_ssize_t m, double risk) {
    i64 ranks, suits, points = 0;
    touched(cards, n, melds, m, &ranks, &suits);
    Shape shape;
    double value;
    if (without_into(c, own, cards, n, counts, &shape) ||
        shape_value_of(c, &shape, view, kept, ranks, suits, risk, &value))
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) points += c->points[cards[i]];
    return Py_BuildValue("(dd)", view->value + value, (double)points);
}

/* valuation.Position.value_discarding: the value once one card of `index` (`count` of it
 * held) leaves the hand (`own`) beside the side's table (`view`). */
static int discard_value(Core *c, const Shape *own, const View *view, const Parts *kept,
                         i64 index, i64 count, double risk, double *out) {
    Shape shape;
    double value;
    i64 ranks = index < 52 ? (i64)1 << (index >> 2) : 0; /* (a joker changes no rank) */
    if (discarded_into(c, own, index, count, &shape) ||
        shape_value_of(c, &shape, view, kept, ranks, 0, risk, &value))
        return -1;
    *out = view->value + value;
    return 0;
}

/* The hand's own shape, the side's table and the parts kept: the first three arguments of
 * Core.laying, Core.discarding and Core.discard_scores. */
static int own_view_kept(PyObject *const *args, const Shape **own, const View **view,
                         const Parts **kept) {
    *own = as_shape(args[0]);
    if (*own == NULL) return -1;
    *view = as_view(args[1]);
    return *view == NULL || as_parts(args[2], kept) ? -1 : 0;
}

/* Core.laying(own, view, kept, counts, melds, risk): valuation.Position.laying, the value once
 * these new melds (sequences of cards) are laid from the hand onto the side's table (`view`),
 * and their cards' points. */
static PyObject *core_laying(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "laying(own, view, kept, counts, melds, risk)");
        return NULL;
    }
    const Parts *kept;
    double risk;
    const Shape *own;
    const View *base;
    if (own_view_kept(args, &own, &base, &kept) || as_double(args[5], &risk)) return NULL;
    PyObject *seq = PySequence_Fast(args[4], "the melds are a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq), n = 0;
    if (m > MOST_CARDS / 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more melds than a hand makes");
        return NULL;
    }
    i64 cards[MOST_CARDS];
    Summary melds[MOST_CARDS / 2];
    for (Py_ssize_t j = 0; j < m; j++) {
        Py_ssize_t from = n;
        if (card_indices(PySequence_Fast_GET_ITEM(seq, j), cards, &n)) {
            Py_DECREF(seq);
            return NULL;
        }
        cards_summary(c, cards + from, n - from, &melds[j]);
    }
    Py_DECREF(seq);
    View *view = view_copy(base);
    if (view == NULL) return NULL;
    int runs_changed = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        if (view_add(c, view, &melds[j], &runs_changed)) {
            Py_DECREF(view);
            return NULL;
        }
    }
    PyObject *found = view_total(c, view, runs_changed)
                          ? NULL
                          : value_after(c, own, view, kept, args[3], cards, n, melds, m, risk);
    Py_DECREF(view);
    return found;
}

/* Core.melding(own, table, target, cards, counts, kept, risk): valuation.Position.melding, the
 * value once these cards of the hand go onto the side's meld `target` of `table` (summaries),
 * and their points. */
static PyObject *core_melding(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "melding(own, table, target, cards, counts, kept, risk)");
        return NULL;
    }
    const Parts *kept;
    double risk;
    i64 target;
    const Shape *own = as_shape(args[0]);
    if (own == NULL || as_int(args[2], &target) || as_parts(args[5], &kept) ||
        as_double(args[6], &risk))
        return NULL;
    Py_ssize_t size = PyObject_Length(args[1]);
    if (size < 0) return NULL;
    if (target < 0 || target >= size) {
        PyErr_SetString(PyExc_IndexError, "no such meld on the table");
        return NULL;
    }
    PyObject *was = PySequence_GetItem(args[1], target);
    if (was == NULL) return NULL;
    Summary grown;
    int err = read_summary(c, was, &grown);
    Py_DECREF(was);
    i64 cards[MOST_CARDS];
    Py_ssize_t n = 0;
    if (err || card_indices(args[3], cards, &n)) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) { /* valuation.Position.extended */
        if (c->wild[cards[i]]) grown.wilds++;
        else if (grown.kind == SEQUENCE) grown.mask |= (i64)1 << (cards[i] >> 2);
    }
    grown.size += n;
    View *view = replaced_view(c, args[1], target, &grown);
    if (view == NULL) return NULL;
    PyObject *found = value_after(c, own, view, kept, args[4], cards, n, &grown, 1, risk);
    Py_DECREF(view);
    return found;
}

/* Core.discarding(own, view, kept, index, count, risk): valuation.Position.value_discarding,
 * the value once one card of `index` (`count` of it held) is discarded. */
static PyObject *core_discarding(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "discarding(own, view, kept, index, count, risk)");
        return NULL;
    }
    const Parts *kept;
    double risk, value;
    i64 index, count;
    const Shape *own;
    const View *view;
    if (own_view_kept(args, &own, &view, &kept) || as_int(args[3], &index) ||
        as_int(args[4], &count) || as_double(args[5], &risk))
        return NULL;
    if (discard_value(c, own, view, kept, index, count, risk, &value)) return NULL;
    return PyFloat_FromDouble(value);
}

/* Core.parts(shape, view): valuation.Position._own_parts. */
static PyObject *core_parts(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "parts(shape, view)");
        return NULL;
    }
    const Shape *shape = as_shape(args[0]);
    if (shape == NULL) return NULL;
    const View *view = as_view(args[1]);
    if (view == NULL) return NULL;
    Parts *p = PyObject_New(Parts, &PartsType);
    if (p == NULL) return NULL;
    for (int r = 0; r < RANKS; r++) p->nterms[r] = 0;
    for (int i = 0; i < c->ngroup_ranks; i++) {
        int r = c->group_ranks[i];
        if (!shape->by_rank[r]) continue;
        Entry *e = rank_terms(c, r, shape->by_rank[r], view);
        if (e == NULL) {
            Py_DECREF(p);
            return NULL;
        }
        p->nterms[r] = e->n;
        for (int j = 0; j < e->n; j++) p->terms[r][j] = e->v[j];
    }
    for (int suit = 0; suit < SUITS; suit++) {
        p->masks[suit] = shape->masks[suit];
        int failed;
        Entry *e = run_part(c, suit, shape->masks[suit], view, &failed);
        if (failed) {
            Py_DECREF(p);
            return NULL;
        }
        p->has_gain[suit] = e != NULL && e->n >= 0;
        p->gains[suit] = p->has_gain[suit] ? e->v[0] : 0.0;
    }
    return (PyObject *)p;
}

/* valuation.Position._take_chance past the meld it may go onto: the chance that a player of
 * `size` cards takes the pile on the natural card `index`, from the cards unseen (a list of
 * counts by index; `total` of them, `wild` wild), by a natural pair (`pair`) or a natural and a
 * wild card (`with_wild`). */
static int chance_of(PyObject *unseen, i64 total, i64 wild, i64 index, i64 size, int pair,
                     int with_wild, double *out) {
    if (index < 0 || index >= CARDS || total <= 0 || size < 0 || size > 1000) {
        PyErr_SetString(PyExc_ValueError, "take_chance: a value out of range");
        return -1;
    }
    if (!PyList_Check(unseen) || PyList_GET_SIZE(unseen) != CARDS) {
        PyErr_SetString(PyExc_TypeError, "the unseen cards are a list of 53");
        return -1;
    }
    i64 base = (index >> 2) * 4, left = 0;
    for (i64 i = base; i < base + 4 && i < CARDS; i++) { /* (as Python slices) */
        i64 n;
        if (as_int(PyList_GET_ITEM(unseen, i), &n)) return -1;
        left += n;
    }
    double p = (double)left / (double)total;
    if (1.0 < p) p = 1.0;
    double miss = pow(1 - p, (double)size);
    double one = (double)size * p * pow(1 - p, (double)(size - 1 > 0 ? size - 1 : 0));
    double chance = 0.0;
    if (pair) {
        double x = 1 - miss - one;
        if (x > chance) chance = x;
    }
    if (with_wild) {
        double wilds = (double)wild / (double)total;
        double has_wild = 1 - pow(1 - wilds, (double)size);
        double x = (1 - miss) * has_wild;
        if (x > chance) chance = x;
    }
    *out = chance;
    return 0;
}

/* Core.take_chance(unseen, total, wild, index, size, pair, with_wild): chance_of. */
static PyObject *core_take_chance(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "take_chance(unseen, total, wild, index, size, pair, with_wild)");
        return NULL;
    }
    i64 total, wild, index, size;
    if (as_int(args[1], &total) || as_int(args[2], &wild) || as_int(args[3], &index) ||
        as_int(args[4], &size))
        return NULL;
    int pair = PyObject_IsTrue(args[5]), with_wild = PyObject_IsTrue(args[6]);
    double chance;
    if (pair < 0 || with_wild < 0 ||
        chance_of(args[0], total, wild, index, size, pair, with_wild, &chance))
        return NULL;
    return PyFloat_FromDouble(chance);
}

/* valuation.Position._with_card: what the pile is worth to its taker with the card `i` on it. */
static double with_card(const Core *c, double worth, i64 i) {
    if (c->black_three[i]) return worth - (double)c->penalties[i] * 0.5;
    return worth + (12.0 + (double)c->points[i]);
}

/* how the next player may take the pile on a discard (valuation._NONE, _SURE, _PAIR, ...) */
enum { TAKE_NONE = -1, TAKE_SURE = 1, TAKE_PAIR = 2, TAKE_WITH_WILD = 4 };

/* Core.discard_scores(own, view, kept, counts, risk, indices, ways, unseen, total, wild, size,
 * weight, pile): valuation.Position.discard_scores, what discarding each card scores: the
 * danger of feeding the pile (valuation.Position.danger: `ways` says how the next player, of
 * `size` cards, may take it on each; `weight` is what the danger weighs; `pile` its cards)
 * less the value after it (Core.discarding). */
static PyObject *core_discard_scores(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "discard_scores(own, view, kept, counts, risk, indices, "
                                         "ways, unseen, total, wild, size, weight, pile)");
        return NULL;
    }
    const Parts *kept;
    double risk, weight;
    i64 total, wild, size;
    const Shape *own;
    const View *view;
    if (own_view_kept(args, &own, &view, &kept) || as_double(args[4], &risk) ||
        as_int(args[8], &total) || as_int(args[9], &wild) || as_int(args[10], &size) ||
        as_double(args[11], &weight))
        return NULL;
    if (!PyList_Check(args[3]) || PyList_GET_SIZE(args[3]) != CARDS) {
        PyErr_SetString(PyExc_TypeError, "the counts are a list of 53");
        return NULL;
    }
    i64 indices[CARDS], ways[CARDS];
    Py_ssize_t n = PyObject_Length(args[5]);
    if (n < 0) return NULL;
    if (n > CARDS || PyObject_Length(args[6]) != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a way a card, 53 at most");
        return NULL;
    }
    if (read_bounded(args[5], indices, n, 0, CARDS, "indices") ||
        read_bounded(args[6], ways, n, TAKE_NONE, 8, "ways"))
        return NULL;
    double base = 60.0; /* valuation.Position._pile_worth: the pile's cards, once */
    PyObject *pile = PySequence_Fast(args[12], "the pile is a sequence");
    if (pile == NULL) return NULL;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(pile); j++) {
        i64 i;
        if (as_int(PySequence_Fast_GET_ITEM(pile, j), &i) || i < 0 || i >= CARDS) {
            Py_DECREF(pile);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card index out of range");
            return NULL;
        }
        base = with_card(c, base, i);
    }
    Py_DECREF(pile);
    PyObject *scores = PyList_New(n);
    if (scores == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        i64 index = indices[k], count;
        double value, danger = 0.0;
        if (as_int(PyList_GET_ITEM(args[3], index), &count) ||
            discard_value(c, own, view, kept, index, count, risk, &value))
            goto failed;
        if (ways[k] != TAKE_NONE) {
            double chance = 1.0;
            if (ways[k] != TAKE_SURE &&
                chance_of(args[7], total, wild, index, size, (int)(ways[k] & TAKE_PAIR),
                          (int)(ways[k] & TAKE_WITH_WILD), &chance))
                goto failed;
            if (chance > 0.0) {
                double worth = with_card(c, base, index);
                danger = weight * chance * (0.0 > worth ? 0.0 : worth);
            }
        }
        PyObject *x = PyFloat_FromDouble(danger - value);
        if (x == NULL) goto failed;
        PyList_SET_ITEM(scores, k, x);
    }
    return scores;
failed:
    Py_DECREF(scores);
    return NULL;
}

/* Core.unseen(counts, table, pile): valuation.Position._unseen, the cards the player cannot
 * see (the pack less its hand, the table's cards by index, the pile's), none below 0 and no red
 * three: (them by index, how many (at least 1), how many wild, their mean penalty). */
static PyObject *core_unseen(Core *c, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(c)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "unseen(counts, table, pile)");
        return NULL;
    }
    i64 counts[CARDS], table[CARDS], unseen[CARDS];
    if (read_bounded(args[0], counts, CARDS, 0, 1 << 20, "counts") ||
        read_bounded(args[1], table, CARDS, 0, 1 << 20, "table"))
        return NULL;
    for (int i = 0; i < CARDS; i++) unseen[i] = c->pack[i] - counts[i] - table[i];
    PyObject *pile = PySequence_Fast(args[2], "the pile is a sequence");
    if (pile == NULL) return NULL;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(pile); j++) {
        i64 index;
        if (as_int(PySequence_Fast_GET_ITEM(pile, j), &index)) {
            Py_DECREF(pile);
            return NULL;
        }
        if (index < 0 || index >= CARDS) {
            Py_DECREF(pile);
            PyErr_SetString(PyExc_ValueError, "a card index out of range");
            return NULL;
        }
        unseen[index]--;
    }
    Py_DECREF(pile);
    for (int i = 0; i < c->nred_threes; i++) unseen[c->red_threes[i]] = 0;
    i64 total = 0, weighted = 0, wild = 0;
    for (int i = 0; i < CARDS; i++) {
        if (unseen[i] < 0) unseen[i] = 0;
        total += unseen[i];
        weighted += unseen[i] * c->penalties[i];
    }
    if (total < 1) total = 1;
    for (int i = 0; i < c->nwild_indices; i++) wild += unseen[c->wild_indices[i]];
    PyObject *list = PyList_New(CARDS);
    if (list == NULL) return NULL;
    for (int i = 0; i < CARDS; i++) {
        PyObject *x = PyLong_FromLongLong(unseen[i]);
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return Py_BuildValue("(NLLd)", list, total, wild, (double)weighted / (double)total);
}

static PyMethodDef core_methods[] = {
    {"discard_scores", (PyCFunction)(void (*)(void))core_discard_scores, METH_FASTCALL,
     "discard_scores(own, view, kept, counts, risk, indices, ways, unseen, total, wild, size, "
     "weight, pile): what discarding each card scores"},
    {"laying", (PyCFunction)(void (*)(void))core_laying, METH_FASTCALL,
     "laying(own, view, kept, counts, melds, risk): (the value once these melds are laid, "
     "their points)"},
    {"melding", (PyCFunction)(void (*)(void))core_melding, METH_FASTCALL,
     "melding(own, table, target, cards, counts, kept, risk): (the value once these cards go "
     "onto the meld target, their points)"},
    {"discarding", (PyCFunction)(void (*)(void))core_discarding, METH_FASTCALL,
     "discarding(own, view, kept, index, count, risk): the value once one card of index is "
     "discarded"},
    {"unseen", (PyCFunction)(void (*)(void))core_unseen, METH_FASTCALL,
     "unseen(counts, table, pile): the cards unseen, how many, how many wild, their mean "
     "penalty"},
    {"take_chance", (PyCFunction)(void (*)(void))core_take_chance, METH_FASTCALL,
     "take_chance(unseen, total, wild, index, size, pair, with_wild): the chance the next "
     "player takes the pile"},
    {"grown", (PyCFunction)(void (*)(void))core_grown, METH_FASTCALL,
     "grown(base, added): the view of base's melds (none when None), then added"},
    {"replaced", (PyCFunction)(void (*)(void))core_replaced, METH_FASTCALL,
     "replaced(table, k, meld): the view of the table with its meld k now meld"},
    {"shape_value", (PyCFunction)(void (*)(void))core_shape_value, METH_FASTCALL,
     "shape_value(shape, view, kept, ranks, suits, risk): the cards in hand beside the view"},
    {"parts", (PyCFunction)(void (*)(void))core_parts, METH_FASTCALL,
     "parts(shape, view): the parts of the hand's own value beside the view"},
    {"shape", (PyCFunction)(void (*)(void))core_shape, METH_FASTCALL,
     "shape(counts): the cards in hand (counts by index) as the valuation reads them"},
    {"own_shape", (PyCFunction)(void (*)(void))core_own_shape, METH_FASTCALL,
     "own_shape(counts, by_rank, held): the player's own cards, from what the hand keeps"},
    {"without", (PyCFunction)(void (*)(void))core_without, METH_FASTCALL,
     "without(shape, indices, counts): the shape without these cards"},
    {"discarded", (PyCFunction)(void (*)(void))core_discarded, METH_FASTCALL,
     "discarded(shape, index, count): the shape without one card of index"},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bolivia.play.bots._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_dealloc = (destructor)core_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Core(tables, escalera): the valuation's core over the Python Tables' numbers.",
    .tp_traverse = (traverseproc)core_traverse,
    .tp_clear = (inquiry)core_clear,
    .tp_methods = core_methods,
    .tp_init = (initproc)core_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bolivia.play.bots._core",
    .m_doc = "The expert's valuation core, native (see tables.py and valuation.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&ViewType) < 0 || PyType_Ready(&PartsType) < 0 ||
        PyType_Ready(&ShapeType) < 0 || PyType_Ready(&CoreType) < 0)
        return NULL;
    INDEX = PyUnicode_InternFromString("index");
    if (INDEX == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
