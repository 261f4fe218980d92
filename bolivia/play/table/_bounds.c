/* What the search for a way out reads of each state, native: the quick bounds of
 * bolivia/play/table/bounds.py (could_meet, stranded) and the state's masks and cells of
 * bolivia/play/table/runs.py (run_capable, run_cells), over machine numbers instead of
 * Python's lists.
 *
 * The compiled build uses it; the pure build has none and runs the Python, which stays the
 * reference: every function below names the Python it stands for and decides as it does
 * (tests/test_bounds_core.py compares them on every state of played hands and on random
 * ones). What a table's meld is made of is read once per meld (a meld is immutable) and kept
 * here with the meld; a run's placements are asked of the Python (bounds._run_places) once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../_ints.h"

typedef long long i64;

#define CARDS 53
#define RANKS 13
#define SUITS 4
#define KINDS 4
#define POSITIONS 14      /* a run's positions: the ace low (0) to the ace high (13) */
#define MOST_PLACES 16    /* placements of one run kept; a run with more is refused */
#define MOST_MELDS 1024   /* melds whose summaries are kept (then all are forgotten) */
#define MOST_PLAYERS 64   /* players whose requirement is kept */
#define MOST_COUNT (1 << 20) /* a card held more often than this is refused */
#define MOST_TABLE 512    /* melds of one side's table read at most */

enum { GROUP, SEQUENCE, WILD, THREES, OTHER };

/* What the bounds read off one meld of the table. */
typedef struct {
    PyObject *meld; /* kept (NULL: an empty slot) */
    int kind;
    int size;       /* len(meld.cards) */
    int wilds;
    int naturals;
    int plain;      /* its cards that are not wild */
    int rank;       /* rank index, -1: none */
    int suit;       /* suit index, -1: none */
    int nplaces;    /* -1: not read yet */
    int lo[MOST_PLACES], hi[MOST_PLACES];
    i64 taken[MOST_PLACES];
} Summary;

typedef struct {
    int known; /* 0: not read yet */
    int count;
    int nincluding;
    int kind[KINDS * 4], least[KINDS * 4];
    int escaleras; /* Limits.asks_escaleras */
} Requirement;

typedef struct {
    PyObject_HEAD
    PyObject *lim;        /* the Limits */
    PyObject *run_places; /* meld -> its placements (bounds._run_places) */
    PyObject *rank_index; /* rank -> index */
    PyObject *suit_index; /* suit -> index */
    int made;
    char wild[CARDS];
    int wild_indices[CARDS], nwild_indices;
    int decks;
    int natural_size, mixed_size, escalera_size, bolivia_size, group_canasta;
    int natural_reachable, mixed_reachable;
    int group_max_wild; /* -1: None */
    int group_min_natural;
    int sequence_allowed, sequence_min_size, sequence_max_wild;
    int sequence_max_going_out; /* -1: None */
    int span_low, span_high;
    int rank_positions[RANKS][2], nrank_positions[RANKS];
    int suit_places[SUITS][POSITIONS];
    int suit_span[SUITS][POSITIONS], nsuit_span[SUITS];
    int threes_never, threes_max_wild, threes_min_size;
    int wild_allowed;
    int natural_twos;
    int span_places, span_ranks; /* Limits.run_places, run_ranks: where a run's naturals go */
    int group_ranks[RANKS], ngroup_ranks;
    Requirement req[MOST_PLAYERS];
    Summary *slots; /* an open-addressing table by the meld's address */
    size_t used;
    size_t forgotten; /* how many times the melds kept were forgotten */
    /* the last table read, meld by meld, and their summaries (a search's states differ by a
     * meld or two): kept melds are held, so an address read again is the same meld while
     * nothing has been forgotten */
    PyObject *last[MOST_TABLE];
    Summary *last_summary[MOST_TABLE];
    int nlast;
    size_t last_forgotten;
} Bounds;

#define SLOTS (2 * MOST_MELDS) /* a power of two */

/* the attributes read off a meld and a card, interned once (a name made on each read would
 * miss the type's cache of attribute lookups) */
static PyObject *KIND, *CARDS_NAME, *WILDS, *NATURALS, *RANK, *SUIT, *INDEX;

/* ------------------------------------------------------------------ reading Python values */

static int as_int(PyObject *o, i64 *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "an int expected");
        return -1;
    }
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "an int out of range");
        return -1;
    }
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* An int within [low, high]; None reads as `none` where `none` is not -2. */
static int read_int(PyObject *o, i64 low, i64 high, int none, int *out, const char *what) {
    i64 x;
    if (o == Py_None && none != -2) {
        *out = none;
        return 0;
    }
    if (PyBool_Check(o)) {
        *out = o == Py_True;
        return 0;
    }
    if (as_int(o, &x)) return -1;
    if (x < low || x > high) {
        PyErr_Format(PyExc_ValueError, "%s: %lld out of range", what, x);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static int attr(PyObject *o, const char *name, i64 low, i64 high, int none, int *out) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    int err = read_int(a, low, high, none, out, name);
    Py_DECREF(a);
    return err;
}

/* attr, by an interned name (a meld's or a card's) */
static int attr_of(PyObject *o, PyObject *name, i64 low, i64 high, int *out) {
    PyObject *a = PyObject_GetAttr(o, name);
    if (a == NULL) return -1;
    int err = read_int(a, low, high, -2, out, "a meld's or card's number");
    Py_DECREF(a);
    return err;
}

/* A card count: an int within [0, MOST_COUNT] (the hand's counts, read at every call). */
static inline int read_count(PyObject *o, int *out) {
    long long v;
    if (read_long_long(o, &v)) return -1;
    if (v < 0 || v > MOST_COUNT) {
        PyErr_SetString(PyExc_ValueError, "counts: a count out of range");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A sequence of ints within [low, high] into out (at most most); how many, or -1. */
static int read_ints(PyObject *o, int *out, int most, i64 low, i64 high, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: more than %d values", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(seq, i), low, high, -2, &out[i], what)) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)n;
}

static int attr_ints(PyObject *o, const char *name, int *out, int most, i64 low, i64 high) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    int n = read_ints(a, out, most, low, high, name);
    Py_DECREF(a);
    return n;
}

/* Each item of the attribute `name` (a sequence of sequences, `rows` of them) read by
 * read_ints into out[row] (at most `most` each); the counts into n[row] where n is not NULL. */
static int attr_rows(PyObject *o, const char *name, int rows, int *out, int most, i64 low,
                     i64 high, int *n) {
    PyObject *a = PyObject_GetAttrString(o, name);
    if (a == NULL) return -1;
    PyObject *seq = PySequence_Fast(a, name);
    Py_DECREF(a);
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != rows) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: %d rows expected", name, rows);
        return -1;
    }
    for (int r = 0; r < rows; r++) {
        int k = read_ints(PySequence_Fast_GET_ITEM(seq, r), out + r * most, most, low, high, name);
        if (k < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (n != NULL) n[r] = k;
        else if (k != most) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: %d values a row expected", name, most);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* ------------------------------------------------------------------ the object */

static void forget(Bounds *b) {
    if (b->slots == NULL) return;
    for (size_t i = 0; i < SLOTS; i++) Py_CLEAR(b->slots[i].meld);
    b->used = 0;
    b->forgotten++;
}

static int bounds_clear(Bounds *b) {
    Py_CLEAR(b->lim);
    Py_CLEAR(b->run_places);
    Py_CLEAR(b->rank_index);
    Py_CLEAR(b->suit_index);
    forget(b);
    return 0;
}

static int bounds_traverse(Bounds *b, visitproc visit, void *arg) {
    Py_VISIT(b->lim);
    Py_VISIT(b->run_places);
    Py_VISIT(b->rank_index);
    Py_VISIT(b->suit_index);
    if (b->slots != NULL)
        for (size_t i = 0; i < SLOTS; i++) Py_VISIT(b->slots[i].meld);
    return 0;
}

static void bounds_dealloc(Bounds *b) {
    PyObject_GC_UnTrack(b);
    bounds_clear(b);
    PyMem_Free(b->slots);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* Bounds(limits, run_places, rank_index, suit_index): the limits' numbers read once. */
static int bounds_init(Bounds *b, PyObject *args, PyObject *kwds) {
    PyObject *lim, *run_places, *rank_index, *suit_index;
    if (!PyArg_ParseTuple(args, "OOO!O!", &lim, &run_places, &PyDict_Type, &rank_index,
                          &PyDict_Type, &suit_index))
        return -1;
    if (b->lim != NULL || b->slots != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "a Bounds is made once");
        return -1;
    }
    if (!PyCallable_Check(run_places)) {
        PyErr_SetString(PyExc_TypeError, "run_places is called with a meld");
        return -1;
    }
    const i64 big = 1 << 20;
    int wild[CARDS];
    if (attr_rows(lim, "suit_places", SUITS, &b->suit_places[0][0], POSITIONS, -1, CARDS - 1,
                  NULL) ||
        attr_rows(lim, "suit_span", SUITS, &b->suit_span[0][0], POSITIONS, 0, CARDS - 1,
                  b->nsuit_span) ||
        attr_rows(lim, "rank_positions", RANKS, &b->rank_positions[0][0], 2, 0, POSITIONS - 1,
                  b->nrank_positions) ||
        attr(lim, "decks", 1, big, -2, &b->decks) ||
        attr(lim, "natural_size", 0, big, -2, &b->natural_size) ||
        attr(lim, "mixed_size", 0, big, -2, &b->mixed_size) ||
        attr(lim, "escalera_size", 0, big, -2, &b->escalera_size) ||
        attr(lim, "bolivia_size", 1, big, -2, &b->bolivia_size) ||
        attr(lim, "group_canasta", 1, big, -2, &b->group_canasta) ||
        attr(lim, "natural_reachable", 0, 1, -2, &b->natural_reachable) ||
        attr(lim, "mixed_reachable", 0, 1, -2, &b->mixed_reachable) ||
        attr(lim, "group_max_wild", 0, big, -1, &b->group_max_wild) ||
        attr(lim, "group_min_natural", 0, big, -2, &b->group_min_natural) ||
        attr(lim, "sequence_allowed", 0, 1, -2, &b->sequence_allowed) ||
        attr(lim, "sequence_min_size", 0, big, -2, &b->sequence_min_size) ||
        attr(lim, "sequence_max_wild", 0, big, -2, &b->sequence_max_wild) ||
        attr(lim, "sequence_max_going_out", 0, big, -1, &b->sequence_max_going_out) ||
        attr(lim, "span_low", 0, POSITIONS - 1, -2, &b->span_low) ||
        attr(lim, "span_high", 0, POSITIONS - 1, -2, &b->span_high) ||
        attr(lim, "threes_max_wild", 0, big, -2, &b->threes_max_wild) ||
        attr(lim, "threes_min_size", 0, big, -2, &b->threes_min_size) ||
        attr(lim, "wild_allowed", 0, 1, -2, &b->wild_allowed) ||
        attr(lim, "natural_twos", 0, 1, -2, &b->natural_twos) ||
        attr(lim, "run_places", 0, (1 << POSITIONS) - 1, -2, &b->span_places) ||
        attr(lim, "run_ranks", 0, (1 << RANKS) - 1, -2, &b->span_ranks) ||
        attr_ints(lim, "wild", wild, CARDS, 0, 1) != CARDS)
        return -1;
    int n = attr_ints(lim, "wild_indices", b->wild_indices, CARDS, 0, CARDS - 1);
    if (n < 0) return -1;
    b->nwild_indices = n;
    n = attr_ints(lim, "group_ranks", b->group_ranks, RANKS, 0, RANKS - 1);
    if (n < 0) return -1;
    b->ngroup_ranks = n;
    for (int i = 0; i < CARDS; i++) b->wild[i] = (char)wild[i];
    PyObject *when = PyObject_GetAttrString(lim, "threes_when");
    if (when == NULL) return -1;
    b->threes_never = PyUnicode_Check(when) && PyUnicode_CompareWithASCIIString(when, "never") == 0;
    Py_DECREF(when);
    b->slots = PyMem_Calloc(SLOTS, sizeof(Summary));
    if (b->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(lim);
    b->lim = lim;
    Py_INCREF(run_places);
    b->run_places = run_places;
    Py_INCREF(rank_index);
    b->rank_index = rank_index;
    Py_INCREF(suit_index);
    b->suit_index = suit_index;
    b->made = 1;
    return 0;
}

static int ready(const Bounds *b) {
    if (!b->made) {
        PyErr_SetString(PyExc_RuntimeError, "a Bounds is used before it is made");
        return 0;
    }
    return 1;
}

/* Limits.requirement and Limits.asks_escaleras for this many players, asked once. */
static const Requirement *requirement(Bounds *b, int players) {
    if (players < 0 || players >= MOST_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "players: %d out of range", players);
        return NULL;
    }
    Requirement *r = &b->req[players];
    if (r->known) return r;
    PyObject *got = PyObject_CallMethod(b->lim, "requirement", "i", players);
    if (got == NULL) return NULL;
    PyObject *including = NULL;
    PyObject *seq = NULL;
    int err = -1;
    if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
        PyErr_SetString(PyExc_TypeError, "a requirement is (count, including)");
        goto done;
    }
    if (read_int(PyTuple_GET_ITEM(got, 0), 0, 1 << 20, -2, &r->count, "requirement")) goto done;
    including = PyTuple_GET_ITEM(got, 1);
    seq = PySequence_Fast(including, "the kinds a requirement includes");
    if (seq == NULL) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > KINDS * 4) {
        PyErr_SetString(PyExc_ValueError, "a requirement includes too many kinds");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int pair[2];
        if (read_ints(PySequence_Fast_GET_ITEM(seq, i), pair, 2, 0, 1 << 20, "including") != 2)
            goto done;
        if (pair[0] >= KINDS) {
            PyErr_SetString(PyExc_ValueError, "a requirement's kind out of range");
            goto done;
        }
        r->kind[i] = pair[0];
        r->least[i] = pair[1];
    }
    r->nincluding = (int)n;
    PyObject *runs = PyObject_CallMethod(b->lim, "asks_escaleras", "i", players);
    if (runs == NULL) goto done;
    r->escaleras = PyObject_IsTrue(runs);
    Py_DECREF(runs);
    if (r->escaleras < 0) goto done;
    r->known = 1;
    err = 0;
done:
    Py_XDECREF(seq);
    Py_DECREF(got);
    return err ? NULL : r;
}

/* An index of a rank or suit by its dict (-1: None). */
static int index_of(PyObject *dict, PyObject *key, int *out) {
    if (key == Py_None) {
        *out = -1;
        return 0;
    }
    PyObject *v = PyDict_GetItemWithError(dict, key);
    if (v == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an unknown rank or suit");
        return -1;
    }
    return read_int(v, 0, RANKS - 1, -2, out, "an index");
}

static int kind_code(PyObject *kind) {
    if (!PyUnicode_Check(kind)) return OTHER;
    if (PyUnicode_CompareWithASCIIString(kind, "group") == 0) return GROUP;
    if (PyUnicode_CompareWithASCIIString(kind, "sequence") == 0) return SEQUENCE;
    if (PyUnicode_CompareWithASCIIString(kind, "wild") == 0) return WILD;
    if (PyUnicode_CompareWithASCIIString(kind, "threes") == 0) return THREES;
    return OTHER;
}

/* A meld's cards: how many, and (where a run's own two may be natural) how many are not
 * wild. */
static int read_cards(Bounds *b, PyObject *meld, Summary *s) {
    PyObject *cards = PyObject_GetAttr(meld, CARDS_NAME);
    if (cards == NULL) return -1;
    PyObject *seq = PySequence_Fast(cards, "a meld's cards");
    Py_DECREF(cards);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MOST_COUNT) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a meld of too many cards");
        return -1;
    }
    s->size = (int)n;
    s->plain = 0;
    for (Py_ssize_t i = 0; i < n && b->natural_twos; i++) { /* (read by own_two alone) */
        int index;
        if (attr_of(PySequence_Fast_GET_ITEM(seq, i), INDEX, 0, CARDS - 1, &index)) {
            Py_DECREF(seq);
            return -1;
        }
        s->plain += !b->wild[index];
    }
    Py_DECREF(seq);
    return 0;
}

/* The summary of one meld of the table, read on first sight and kept with it. */
static Summary *summary(Bounds *b, PyObject *meld) {
    size_t mask = SLOTS - 1;
    size_t i = ((size_t)meld >> 4) & mask;
    while (b->slots[i].meld != NULL) {
        if (b->slots[i].meld == meld) return &b->slots[i];
        i = (i + 1) & mask;
    }
    if (b->used >= MOST_MELDS) {
        forget(b);
        i = ((size_t)meld >> 4) & mask;
    }
    Summary s;
    memset(&s, 0, sizeof s);
    s.nplaces = -1;
    PyObject *kind = PyObject_GetAttr(meld, KIND);
    if (kind == NULL) return NULL;
    s.kind = kind_code(kind);
    Py_DECREF(kind);
    PyObject *rank = PyObject_GetAttr(meld, RANK);
    if (rank == NULL) return NULL;
    int err = index_of(b->rank_index, rank, &s.rank);
    Py_DECREF(rank);
    if (err) return NULL;
    PyObject *suit = PyObject_GetAttr(meld, SUIT);
    if (suit == NULL) return NULL;
    err = index_of(b->suit_index, suit, &s.suit);
    Py_DECREF(suit);
    if (err) return NULL;
    if (s.suit >= SUITS) {
        PyErr_SetString(PyExc_ValueError, "a suit out of range");
        return NULL;
    }
    if (attr_of(meld, WILDS, 0, MOST_COUNT, &s.wilds) ||
        attr_of(meld, NATURALS, 0, MOST_COUNT, &s.naturals) || read_cards(b, meld, &s))
        return NULL;
    Py_INCREF(meld);
    s.meld = meld;
    b->slots[i] = s;
    b->used++;
    return &b->slots[i];
}

/* bounds._run_places: each placement of a run's naturals, asked of the Python once. */
static int places_of(Bounds *b, Summary *s) {
    if (s->nplaces >= 0) return 0;
    PyObject *got = PyObject_CallOneArg(b->run_places, s->meld);
    if (got == NULL) return -1;
    PyObject *seq = PySequence_Fast(got, "a run's placements");
    Py_DECREF(got);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MOST_PLACES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a run of too many placements");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "a placement is (low, high, taken)");
            return -1;
        }
        int taken;
        if (read_int(PyTuple_GET_ITEM(item, 0), 0, POSITIONS - 1, -2, &s->lo[k], "low") ||
            read_int(PyTuple_GET_ITEM(item, 1), 0, POSITIONS - 1, -2, &s->hi[k], "high") ||
            read_int(PyTuple_GET_ITEM(item, 2), 0, (1 << POSITIONS) - 1, -2, &taken, "taken")) {
            Py_DECREF(seq);
            return -1;
        }
        s->taken[k] = taken;
    }
    Py_DECREF(seq);
    s->nplaces = (int)n;
    return 0;
}

/* The hand (53 counts) and the table (its melds' summaries) of one call. */
typedef struct {
    int counts[CARDS];
    Summary *melds[MOST_TABLE];
    int nmelds;
} Input;

static int read_input(Bounds *b, PyObject *counts, PyObject *table, Input *in) {
    if (!PyList_Check(counts) || PyList_GET_SIZE(counts) != CARDS) {
        PyErr_SetString(PyExc_TypeError, "counts: a list of 53 ints");
        return -1;
    }
    for (int i = 0; i < CARDS; i++)
        if (read_count(PyList_GET_ITEM(counts, i), &in->counts[i])) return -1;
    PyObject *seq = PySequence_Fast(table, "the table: a sequence of melds");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MOST_TABLE) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a table of too many melds");
        return -1;
    }
    /* each meld's summary, read on first sight: reading one may forget those kept (all at
     * once, when MOST_MELDS are kept), and the melds are then read again from the first (at
     * most MOST_TABLE melds a reading, far from MOST_MELDS: nothing is forgotten twice) */
    for (;;) {
        size_t forgotten = b->forgotten;
        int known = forgotten == b->last_forgotten ? b->nlast : 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *meld = PySequence_Fast_GET_ITEM(seq, k);
            in->melds[k] = k < known && b->last[k] == meld ? b->last_summary[k] : summary(b, meld);
            if (in->melds[k] == NULL) {
                Py_DECREF(seq);
                b->nlast = 0;
                return -1;
            }
        }
        if (b->forgotten == forgotten) break;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        b->last[k] = PySequence_Fast_GET_ITEM(seq, k);
        b->last_summary[k] = in->melds[k];
    }
    b->nlast = (int)n;
    b->last_forgotten = b->forgotten;
    in->nmelds = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* ------------------------------------------------------------------ the bounds */

static int wilds_held(const Bounds *b, const int *counts) { /* _wilds_held */
    int wilds = 0;
    for (int i = 0; i < b->nwild_indices; i++) wilds += counts[b->wild_indices[i]];
    return wilds;
}

static int own_two(const Bounds *b, const Summary *s) { /* _own_two */
    if (!b->natural_twos || s->kind != SEQUENCE) return 0;
    return s->naturals > s->plain;
}

static int is_held(const int *counts, int cell) { return cell >= 0 && counts[cell]; }

/* _beyond: the naturals of a suit held from `start` towards `stop` (not reached), past up to
 * `gaps` positions not held. */
static int beyond(const int *counts, const int *cells, int start, int stop, int step, int gaps) {
    int more = 0;
    for (int q = start; q != stop; q += step) {
        if (q < 0 || q >= POSITIONS) break; /* (never: the span's ends stop it) */
        int i = cells[q];
        if (i >= 0) {
            if (counts[i]) more++;
            else if (--gaps < 0) break;
        }
    }
    return more;
}

/* _table_run: one run of the table; the canastas it adds. */
static int table_run(Bounds *b, const int *counts, Summary *s, int wilds, int *made, int *might,
                     int *err) {
    if (s->size >= b->escalera_size) {
        made[2]++;
        return 0;
    }
    if (s->suit < 0) return 0;
    const int *cells = b->suit_places[s->suit];
    int extra = (wilds < b->sequence_max_wild ? wilds : b->sequence_max_wild) + own_two(b, s);
    if (places_of(b, s)) {
        *err = 1;
        return 0;
    }
    int addable = 0;
    for (int k = 0; k < s->nplaces; k++) {
        int more = beyond(counts, cells, s->lo[k] - 1, b->span_low - 1, -1, extra) +
                   beyond(counts, cells, s->hi[k] + 1, b->span_high + 1, 1, extra);
        if (more > addable) addable = more;
    }
    if ((i64)s->size + addable + extra >= b->escalera_size) {
        might[2]++;
        return 1;
    }
    return 0;
}

/* _streaks: the suits' runs of ranks held; the canastas they add. */
static int streaks(const Bounds *b, const int *counts, int *might) {
    if (!b->sequence_allowed) return 0;
    int need = b->escalera_size - b->sequence_max_wild;
    int added = 0;
    for (int s = 0; s < SUITS; s++) {
        if (need > 0) {
            int streak = 0;
            for (int k = 0; k < b->nsuit_span[s]; k++) {
                if (!counts[b->suit_span[s][k]]) {
                    streak = 0;
                    continue;
                }
                if (++streak == need) break;
            }
            if (streak < need) continue;
        }
        added += 1 + b->decks;
        might[2] += 1 + b->decks;
    }
    return added;
}

static int enough(i64 total, const int *have, const Requirement *r) { /* _enough */
    if (total < r->count) return 0;
    for (int i = 0; i < r->nincluding; i++)
        if (have[r->kind[i]] < r->least[i]) return 0;
    return 1;
}

/* _table_meld: a group or wild meld of the table. */
static void table_meld(const Bounds *b, const Summary *s, int *made, i64 *open_groups,
                       int *open_wild, int *nopen_wild) {
    if (s->kind == GROUP) {
        if (s->wilds == 0) {
            if (s->size >= b->natural_size) {
                made[0]++;
                return;
            }
        } else if (s->size >= b->mixed_size) {
            made[1]++;
            return;
        }
        if (s->rank >= 0) open_groups[s->rank] += s->size;
    } else if (s->kind == WILD) {
        if (s->size >= b->bolivia_size) {
            made[3]++;
            return;
        }
        open_wild[(*nopen_wild)++] = s->size;
    }
}

/* _hand_canastas: the groups and wild melds the hand might make; the canastas they add. */
static i64 hand_canastas(const Bounds *b, const int *counts, int wilds, const i64 *open_groups,
                         const int *open_wild, int nopen_wild, int *might) {
    int room = b->group_max_wild < 0 || wilds < b->group_max_wild ? wilds : b->group_max_wild;
    i64 total = 0;
    if (b->natural_reachable || b->mixed_reachable) {
        for (int k = 0; k < b->ngroup_ranks; k++) {
            int r = b->group_ranks[k], base = r * 4;
            i64 same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3];
            i64 n = (open_groups[r] + same + room) / b->group_canasta;
            if (n) {
                total += n;
                if (b->natural_reachable) might[0] += (int)n;
                if (b->mixed_reachable) might[1] += (int)n;
            }
        }
    }
    for (int k = 0; k < nopen_wild; k++)
        if ((i64)open_wild[k] + wilds >= b->bolivia_size) {
            total++;
            might[3]++;
        }
    if (b->wild_allowed && wilds >= b->bolivia_size) {
        int n = wilds / b->bolivia_size;
        total += n;
        might[3] += n;
    }
    return total;
}

/* could_meet; -1 on an error. */
static int could_meet(Bounds *b, const Input *in, const Requirement *r) {
    const int *counts = in->counts;
    int made[KINDS] = {0}, might[KINDS] = {0}, err = 0;
    int wilds = wilds_held(b, counts);
    int runs_first = r->escaleras;
    i64 total = 0;
    if (runs_first) {
        for (int k = 0; k < in->nmelds; k++)
            if (in->melds[k]->kind == SEQUENCE) {
                total += table_run(b, counts, in->melds[k], wilds, made, might, &err);
                if (err) return -1;
            }
        total += streaks(b, counts, might);
        for (int i = 0; i < r->nincluding; i++) /* _escaleras_enough */
            if (r->kind[i] == 2 && made[2] + might[2] < r->least[i]) return 0;
    }
    i64 open_groups[RANKS] = {0};
    int open_wild[MOST_TABLE], nopen_wild = 0;
    for (int k = 0; k < in->nmelds; k++) {
        Summary *s = in->melds[k];
        if (s->kind == SEQUENCE) {
            if (!runs_first) {
                total += table_run(b, counts, s, wilds, made, might, &err);
                if (err) return -1;
            }
        } else
            table_meld(b, s, made, open_groups, open_wild, &nopen_wild);
    }
    int on_table = made[0] + made[1] + made[2] + made[3];
    if (enough(on_table, made, r)) return 1;
    if (!runs_first) total += streaks(b, counts, might);
    total += hand_canastas(b, counts, wilds, open_groups, open_wild, nopen_wild, might);
    for (int k = 0; k < KINDS; k++) might[k] += made[k];
    return enough(on_table + total, might, r);
}

/* _missing: the positions of a window (start to stop, leaving out p) not held in the suit. */
static int missing(const int *counts, const int *cells, int start, int stop, int p) {
    int n = 0;
    for (int q = start; q < stop; q++)
        if (q != p && !is_held(counts, cells[q])) n++;
    return n;
}

/* _could_start_run */
static int could_start_run(const Bounds *b, const int *counts, int r, int s, int budget) {
    int size = b->sequence_min_size;
    const int *cells = b->suit_places[s];
    for (int k = 0; k < b->nrank_positions[r]; k++) {
        int p = b->rank_positions[r][k];
        int from = p - size + 1 > b->span_low ? p - size + 1 : b->span_low;
        int to = p < b->span_high - size + 1 ? p : b->span_high - size + 1;
        for (int start = from; start <= to; start++) {
            if (start < 0 || start + size > POSITIONS) continue; /* (never, within the span) */
            if (missing(counts, cells, start, start + size, p) <= budget) return 1;
        }
    }
    return 0;
}

/* _run_takes: one of the side's runs has the rank's place free and room; -1 on an error. */
static int run_takes(Bounds *b, const int *counts, Summary *m, int r, int s, int budget) {
    const int *cells = b->suit_places[s];
    int most = b->sequence_max_going_out;
    int room = b->sequence_max_wild - m->wilds;
    i64 fill = (i64)(budget < room ? budget : room) + m->wilds + own_two(b, m);
    if (places_of(b, m)) return -1;
    for (int k = 0; k < m->nplaces; k++) {
        int lo = m->lo[k], hi = m->hi[k];
        for (int j = 0; j < b->nrank_positions[r]; j++) {
            int p = b->rank_positions[r][j];
            if (m->taken[k] >> p & 1) continue;
            int from = p < lo ? p + 1 : hi + 1, to = p < lo ? lo : p;
            int gap = to > from ? to - from : 0;
            if (most >= 0 && (i64)m->size + 1 + gap > most) continue;
            int n = 0;
            for (int q = from; q < to; q++)
                if (!is_held(counts, cells[q])) n++;
            if (n <= fill) return 1;
        }
    }
    return 0;
}

/* The cards found stranded: the first two kept, and how many. */
typedef struct {
    int first[2];
    i64 n;
} Found;

static void add(Found *out, int index, int copies) {
    for (int k = 0; k < copies && out->n < 2; k++) out->first[out->n++] = index;
    if (out->n >= 2) out->n += copies; /* (past two, only "more than one" is read) */
}

/* _rank_stranded: the lone naturals of rank r that no run could take; -1 on an error. */
static int rank_stranded(Bounds *b, const Input *in, int r, int wilds, Found *out) {
    const int *counts = in->counts;
    int base = r * 4;
    if (!b->sequence_allowed || !b->nrank_positions[r]) {
        for (int i = base; i < base + 4; i++) add(out, i, counts[i]);
        return 0;
    }
    int budget = wilds < b->sequence_max_wild ? wilds : b->sequence_max_wild;
    if (budget >= b->sequence_min_size - 1) return 0;
    for (int s = 0; s < SUITS; s++) {
        int n = counts[base + s];
        if (!n || could_start_run(b, counts, r, s, budget)) continue;
        int joins = 0;
        for (int k = 0; k < in->nmelds && !joins; k++) { /* _could_join_run */
            Summary *m = in->melds[k];
            if (m->kind == SEQUENCE && m->suit == s) {
                joins = run_takes(b, counts, m, r, s, budget);
                if (joins < 0) return -1;
            }
        }
        if (!joins) add(out, base + s, n);
    }
    return 0;
}

/* stranded; -1 on an error. */
static int stranded(Bounds *b, const Input *in, Found *out) {
    const int *counts = in->counts;
    int wilds = wilds_held(b, counts);
    int grouped[RANKS] = {0};
    for (int k = 0; k < in->nmelds; k++) {
        const Summary *s = in->melds[k];
        if ((s->kind == GROUP || s->kind == THREES) && s->rank >= 0) grouped[s->rank] = 1;
    }
    int anywhere = b->group_min_natural <= 1;
    for (int r = 0; r < RANKS; r++) {
        if (b->wild[r * 4]) continue;
        int base = r * 4;
        if (r == 1) { /* _threes_stranded */
            int black = counts[4] + counts[7];
            int reach = black + (wilds < b->threes_max_wild ? wilds : b->threes_max_wild);
            if (black > 0 && !(b->sequence_allowed && b->nrank_positions[1]) && !grouped[1] &&
                (b->threes_never || reach < b->threes_min_size)) {
                add(out, 4, counts[4]);
                add(out, 7, counts[7]);
            }
        } else if (!anywhere) {
            int same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3];
            if (0 < same && same < b->group_min_natural && !grouped[r] && /* _lone_natural */
                rank_stranded(b, in, r, wilds, out))
                return -1;
        }
        if (out->n > 1) return 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ a search's state */

/* runs.run_capable (with runs.held_ranks, runs.positions, runs.ranks): per suit, the ranks
 * whose cards held could be in a run. */
static void run_capable(const Bounds *b, const Input *in, i64 *out) {
    const int *counts = in->counts;
    for (int s = 0; s < SUITS; s++) out[s] = 0;
    if (!b->sequence_allowed) return;
    for (int r = 0; r < RANKS; r++) /* held_ranks */
        for (int s = 0; s < SUITS; s++)
            if (counts[r * 4 + s]) out[s] |= (i64)1 << r;
    int wilds = wilds_held(b, counts);
    i64 reach = 1 + (b->sequence_min_size - 1 > 1 ? b->sequence_min_size - 1 : 1) +
                (wilds < b->sequence_max_wild ? wilds : b->sequence_max_wild) + b->natural_twos;
    /* (a position is within 14 of any other: a reach past it adds nothing, and a shift of 64
     * or more would be undefined in C) */
    if (reach > POSITIONS) reach = POSITIONS;
    i64 span = b->span_places | (b->natural_twos ? 2 : 0);
    int laid = 0;
    for (int k = 0; k < in->nmelds; k++)
        if (in->melds[k]->kind == SEQUENCE && in->melds[k]->suit >= 0) laid |= 1 << in->melds[k]->suit;
    for (int s = 0; s < SUITS; s++) {
        if (laid >> s & 1) {
            out[s] &= b->span_ranks;
            continue;
        }
        i64 places = ((out[s] << 1) | (out[s] >> 12 & 1)) & span; /* positions */
        i64 near = 0;
        for (i64 d = 1; d <= reach; d++) near |= (places << d) | (places >> d);
        i64 both = places & near;
        out[s] = (both >> 1) | (both & 1) << 12; /* ranks */
    }
}

/* runs.run_cells: each rank's counts and its naturals no run could take, then the jokers. */
static PyObject *run_cells(const Bounds *b, const int *counts, const i64 *capable) {
    PyObject *cells = PyTuple_New(RANKS + 1);
    if (cells == NULL) return NULL;
    for (int r = 0; r < RANKS; r++) {
        int base = r << 2;
        i64 n[SUITS], loose = 0;
        for (int s = 0; s < SUITS; s++) {
            n[s] = counts[base + s];
            if (n[s] && !b->wild[base + s] && !(capable[s] >> r & 1)) {
                loose += n[s];
                n[s] = 0;
            }
        }
        PyObject *cell = PyLong_FromLongLong(loose << 32 | n[0] << 24 | n[1] << 16 | n[2] << 8 | n[3]);
        if (cell == NULL) {
            Py_DECREF(cells);
            return NULL;
        }
        PyTuple_SET_ITEM(cells, r, cell);
    }
    PyObject *jokers = PyLong_FromLong(counts[CARDS - 1]);
    if (jokers == NULL) {
        Py_DECREF(cells);
        return NULL;
    }
    PyTuple_SET_ITEM(cells, RANKS, jokers);
    return cells;
}

/* ------------------------------------------------------------------ the methods */

static PyObject *bounds_could_meet(Bounds *b, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(b)) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "could_meet(counts, table, players)");
        return NULL;
    }
    int players;
    if (read_int(args[2], 0, MOST_PLAYERS - 1, -2, &players, "players")) return NULL;
    const Requirement *r = requirement(b, players);
    Input in;
    if (r == NULL || read_input(b, args[0], args[1], &in)) return NULL;
    int met = could_meet(b, &in, r);
    if (met < 0) return NULL;
    return PyBool_FromLong(met);
}

static PyObject *bounds_stranded(Bounds *b, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(b)) return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "stranded(counts, table)");
        return NULL;
    }
    Input in;
    if (read_input(b, args[0], args[1], &in)) return NULL;
    Found out = {{0, 0}, 0};
    if (stranded(b, &in, &out)) return NULL;
    return int_list(out.first, out.n > 2 ? 2 : (int)out.n);
}

static PyObject *bounds_state(Bounds *b, PyObject *const *args, Py_ssize_t nargs) {
    if (!ready(b)) return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "state(counts, table)");
        return NULL;
    }
    Input in;
    if (read_input(b, args[0], args[1], &in)) return NULL;
    i64 capable[SUITS];
    run_capable(b, &in, capable);
    int bits[SUITS]; /* (13 bits a suit) */
    for (int s = 0; s < SUITS; s++) bits[s] = (int)capable[s];
    PyObject *masks = int_list(bits, SUITS);
    if (masks == NULL) return NULL;
    PyObject *cells = run_cells(b, in.counts, capable);
    if (cells == NULL) {
        Py_DECREF(masks);
        return NULL;
    }
    return Py_BuildValue("(NN)", masks, cells);
}

static PyMethodDef bounds_methods[] = {
    {"could_meet", (PyCFunction)(void (*)(void))bounds_could_meet, METH_FASTCALL,
     "could_meet(counts, table, players): bounds.could_meet"},
    {"stranded", (PyCFunction)(void (*)(void))bounds_stranded, METH_FASTCALL,
     "stranded(counts, table): bounds.stranded"},
    {"state", (PyCFunction)(void (*)(void))bounds_state, METH_FASTCALL,
     "state(counts, table): a search state's runs.run_capable and runs.run_cells"},
    {NULL},
};

static PyTypeObject BoundsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bolivia.play.table._bounds.Bounds",
    .tp_basicsize = sizeof(Bounds),
    .tp_dealloc = (destructor)bounds_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Bounds(limits, run_places, rank_index, suit_index): the quick bounds of the "
              "search for a way out over a ruleset's limits.",
    .tp_traverse = (traverseproc)bounds_traverse,
    .tp_clear = (inquiry)bounds_clear,
    .tp_methods = bounds_methods,
    .tp_init = (initproc)bounds_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bolivia.play.table._bounds",
    .m_doc = "The quick bounds of the search for a way out, native (see bounds.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__bounds(void) {
    if (PyType_Ready(&BoundsType) < 0) return NULL;
    PyObject **names[] = {&KIND, &CARDS_NAME, &WILDS, &NATURALS, &RANK, &SUIT, &INDEX};
    const char *texts[] = {"kind", "cards", "wilds", "naturals", "rank", "suit", "index"};
    for (int k = 0; k < 7; k++) {
        *names[k] = PyUnicode_InternFromString(texts[k]);
        if (*names[k] == NULL) return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&BoundsType);
    if (PyModule_AddObject(m, "Bounds", (PyObject *)&BoundsType) < 0) {
        Py_DECREF(&BoundsType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
