/* best_opening's exact search in C: the twin of the nested function `rec` in
 * rami_core/solver/best_opening.py, state for state. Python builds the
 * candidates and the integer data (`by_first`, `left`); this file only runs
 * the depth-first exact cover over face counts and answers which candidates
 * the best opening holds (in the order the search chose them) and how many
 * states it visited, so that both paths meet the same `limit` at the same
 * state and return the same opening, a cut search's included.
 *
 * No global mutable state: every search has its own context, and the search
 * runs with the GIL released (it touches no Python object).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The recursion goes one level deeper per card laid or left out: a hand of
 * more cards than this is refused (ValueError) and the caller runs the Python
 * search, whose own recursion limit is near it anyway. */
#define MAX_CARDS 1000
/* points of one candidate, in absolute value: sums of MAX_CARDS of them stay
 * far from overflow */
#define MAX_POINTS (1LL << 40)

typedef struct {
    int nfaces;
    int *left;    /* per face, the copies not yet used nor left out */
    int *row_off; /* per face, its candidates: row_off[f] .. row_off[f + 1] - 1 */
    int *need_off; /* per candidate, its needs: need_off[c] .. need_off[c + 1] - 1 */
    int *need_f, *need_k;
    int *ncards;
    long long *pts;
    unsigned long long *kinds;
    long long need_points;
    unsigned long long need_kinds;
    long long limit, calls, total;
    long long best_n, best_p;
    int *chosen, nchosen;
    int *best, nbest, have_best;
} Ctx;

static void rec(Ctx *C, int start, long long ncards, long long pts, unsigned long long kinds, long long remaining) {
    if (ncards + remaining < C->best_n || C->calls >= C->limit) return;
    C->calls++;
    if (pts >= C->need_points && (kinds & C->need_kinds) == C->need_kinds && C->nchosen > 0 &&
        (ncards > C->best_n || (ncards == C->best_n && pts > C->best_p))) {
        C->best_n = ncards;
        C->best_p = pts;
        memcpy(C->best, C->chosen, (size_t)C->nchosen * sizeof(int));
        C->nbest = C->nchosen;
        C->have_best = 1;
    }
    int *left = C->left;
    int first = start;
    while (first < C->nfaces && !left[first]) first++;
    if (first == C->nfaces) return;
    for (int c = C->row_off[first]; c < C->row_off[first + 1]; c++) {
        int a = C->need_off[c], b = C->need_off[c + 1], i;
        for (i = a; i < b; i++)
            if (left[C->need_f[i]] < C->need_k[i]) break;
        if (i < b) continue;
        for (i = a; i < b; i++) left[C->need_f[i]] -= C->need_k[i];
        C->chosen[C->nchosen++] = c;
        rec(C, first, ncards + C->ncards[c], pts + C->pts[c], kinds | C->kinds[c], remaining - C->ncards[c]);
        C->nchosen--;
        for (i = a; i < b; i++) left[C->need_f[i]] += C->need_k[i];
    }
    /* or leave one copy of `first` out of every meld */
    left[first]--;
    rec(C, first, ncards, pts, kinds, remaining - 1);
    left[first]++;
}

/* An int in [lo, hi] from a Python int, else -1 with ValueError/TypeError set. */
static int int_in(PyObject *o, long long lo, long long hi, long long *out, const char *what) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

static void ctx_free(Ctx *C) {
    free(C->left);
    free(C->row_off);
    free(C->need_off);
    free(C->need_f);
    free(C->need_k);
    free(C->ncards);
    free(C->pts);
    free(C->kinds);
    free(C->chosen);
    free(C->best);
}

/* The Python lists, read into the context's arrays; -1 with an exception set. */
static int ctx_fill(Ctx *C, PyObject *by_first, PyObject *left_seq, PyObject *need_points_o,
                    PyObject *need_kinds_o, PyObject *limit_o, PyObject *total_o) {
    long long v;
    PyObject *rows = NULL, *lefts = NULL;
    int rc = -1;

    lefts = PySequence_Fast(left_seq, "left: a sequence of counts expected");
    if (!lefts) goto done;
    rows = PySequence_Fast(by_first, "by_first: a sequence of rows expected");
    if (!rows) goto done;
    Py_ssize_t nfaces = PySequence_Fast_GET_SIZE(lefts);
    if (PySequence_Fast_GET_SIZE(rows) != nfaces) {
        PyErr_SetString(PyExc_ValueError, "by_first and left differ in length");
        goto done;
    }
    if (nfaces > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "too many faces");
        goto done;
    }
    C->nfaces = (int)nfaces;
    C->left = malloc(((size_t)nfaces + 1) * sizeof(int));
    C->row_off = malloc(((size_t)nfaces + 1) * sizeof(int));
    if (!C->left || !C->row_off) {
        PyErr_NoMemory();
        goto done;
    }
    long long sum = 0;
    for (Py_ssize_t f = 0; f < nfaces; f++) {
        if (int_in(PySequence_Fast_GET_ITEM(lefts, f), 0, MAX_CARDS, &v, "left") < 0) goto done;
        C->left[f] = (int)v;
        sum += v;
    }
    if (sum > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "too many cards for the compiled search");
        goto done;
    }
    if (int_in(total_o, 0, MAX_CARDS, &v, "total_cards") < 0) goto done;
    if (v != sum) {
        PyErr_SetString(PyExc_ValueError, "total_cards is not the sum of left");
        goto done;
    }
    C->total = sum;
    if (int_in(need_points_o, -MAX_POINTS, MAX_POINTS, &C->need_points, "need_points") < 0) goto done;
    if (int_in(need_kinds_o, 0, LLONG_MAX, &v, "need_kinds") < 0) goto done;
    C->need_kinds = (unsigned long long)v;
    {
        int overflow = 0;
        C->limit = PyLong_AsLongLongAndOverflow(limit_o, &overflow);
        if (C->limit == -1 && PyErr_Occurred()) goto done;
        if (overflow > 0) C->limit = LLONG_MAX;
        if (overflow < 0) C->limit = LLONG_MIN;
    }

    /* first pass: how many candidates and needs */
    size_t ncand = 0, nneed = 0;
    for (Py_ssize_t f = 0; f < nfaces; f++) {
        PyObject *row = PySequence_Fast_GET_ITEM(rows, f);
        if (!PyList_Check(row) && !PyTuple_Check(row)) {
            PyErr_SetString(PyExc_TypeError, "by_first: each row a list or tuple");
            goto done;
        }
        Py_ssize_t nr = PySequence_Fast_GET_SIZE(row);
        for (Py_ssize_t j = 0; j < nr; j++) {
            PyObject *cand = PySequence_Fast_GET_ITEM(row, j);
            if (!PyTuple_Check(cand) || PyTuple_GET_SIZE(cand) < 4 || !PyTuple_Check(PyTuple_GET_ITEM(cand, 0))) {
                PyErr_SetString(PyExc_TypeError, "by_first: each candidate a tuple (needs, n, points, kinds, ...)");
                goto done;
            }
            nneed += (size_t)PyTuple_GET_SIZE(PyTuple_GET_ITEM(cand, 0));
            ncand++;
        }
        if (ncand > INT_MAX / 2 || nneed > INT_MAX / 2) {
            PyErr_SetString(PyExc_ValueError, "too many candidates");
            goto done;
        }
    }
    C->need_off = malloc((ncand + 1) * sizeof(int));
    C->need_f = malloc((nneed + 1) * sizeof(int));
    C->need_k = malloc((nneed + 1) * sizeof(int));
    C->ncards = malloc((ncand + 1) * sizeof(int));
    C->pts = malloc((ncand + 1) * sizeof(long long));
    C->kinds = malloc((ncand + 1) * sizeof(unsigned long long));
    /* a candidate lays at least one card (a need is at least one copy): at
     * most `sum` of them are chosen at once */
    C->chosen = malloc(((size_t)sum + 1) * sizeof(int));
    C->best = malloc(((size_t)sum + 1) * sizeof(int));
    if (!C->need_off || !C->need_f || !C->need_k || !C->ncards || !C->pts || !C->kinds || !C->chosen || !C->best) {
        PyErr_NoMemory();
        goto done;
    }
    /* second pass: the values */
    int c = 0, e = 0;
    for (Py_ssize_t f = 0; f < nfaces; f++) {
        PyObject *row = PySequence_Fast_GET_ITEM(rows, f);
        C->row_off[f] = c;
        Py_ssize_t nr = PySequence_Fast_GET_SIZE(row);
        for (Py_ssize_t j = 0; j < nr; j++, c++) {
            PyObject *cand = PySequence_Fast_GET_ITEM(row, j);
            PyObject *needs = PyTuple_GET_ITEM(cand, 0);
            Py_ssize_t nn = PyTuple_GET_SIZE(needs);
            if (nn == 0) {
                PyErr_SetString(PyExc_ValueError, "a candidate with no needs");
                goto done;
            }
            C->need_off[c] = e;
            for (Py_ssize_t i = 0; i < nn; i++, e++) {
                PyObject *pair = PyTuple_GET_ITEM(needs, i);
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                    PyErr_SetString(PyExc_TypeError, "a need is a (face index, count) tuple");
                    goto done;
                }
                if (int_in(PyTuple_GET_ITEM(pair, 0), 0, nfaces - 1, &v, "a need's face index") < 0) goto done;
                C->need_f[e] = (int)v;
                if (int_in(PyTuple_GET_ITEM(pair, 1), 1, MAX_CARDS, &v, "a need's count") < 0) goto done;
                C->need_k[e] = (int)v;
            }
            if (int_in(PyTuple_GET_ITEM(cand, 1), 0, MAX_CARDS, &v, "a candidate's card count") < 0) goto done;
            C->ncards[c] = (int)v;
            if (int_in(PyTuple_GET_ITEM(cand, 2), -MAX_POINTS, MAX_POINTS, &C->pts[c], "a candidate's points") < 0)
                goto done;
            if (int_in(PyTuple_GET_ITEM(cand, 3), 0, LLONG_MAX, &v, "a candidate's kinds") < 0) goto done;
            C->kinds[c] = (unsigned long long)v;
        }
    }
    C->row_off[nfaces] = c;
    C->need_off[c] = e;
    rc = 0;
done:
    Py_XDECREF(rows);
    Py_XDECREF(lefts);
    return rc;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *by_first, *left, *need_points, *need_kinds, *limit, *total;
    if (!PyArg_ParseTuple(args, "OOOOOO:search", &by_first, &left, &need_points, &need_kinds, &limit, &total))
        return NULL;
    Ctx C;
    memset(&C, 0, sizeof(C));
    if (ctx_fill(&C, by_first, left, need_points, need_kinds, limit, total) < 0) {
        ctx_free(&C);
        return NULL;
    }
    C.best_n = -1;
    C.best_p = -1;
    Py_BEGIN_ALLOW_THREADS;
    rec(&C, 0, 0, 0, 0, C.total);
    Py_END_ALLOW_THREADS;
    PyObject *chosen = NULL, *out = NULL;
    if (C.have_best) {
        chosen = PyList_New(C.nbest);
        if (!chosen) goto done;
        for (int i = 0; i < C.nbest; i++) {
            int c = C.best[i], f = 0;
            while (C.row_off[f + 1] <= c) f++; /* the row of candidate c */
            PyObject *pair = Py_BuildValue("(ii)", f, c - C.row_off[f]);
            if (!pair) goto done;
            PyList_SET_ITEM(chosen, i, pair);
        }
    } else {
        chosen = Py_NewRef(Py_None);
    }
    out = Py_BuildValue("(LO)", C.calls, chosen);
done:
    Py_XDECREF(chosen);
    ctx_free(&C);
    return out;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(by_first, left, need_points, need_kinds, limit, total_cards) -> (calls, chosen): best_opening's rec;\n"
     "chosen: the best opening's candidates as (face index, index in by_first[face]) in the order chosen, or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_openingc", "best_opening's search, compiled.", 0, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__openingc(void) { return PyModule_Create(&moddef); }
