/* The packing bounds' dynamic program in C: PackingBounds._best_of of
 * rami_core/rl/packing.py, room for room and candidate for candidate.
 *
 * A Packer is made for one PackingBounds (its candidates, their lists per
 * face and the game's shared memo dict). best_of(room, jokerless) runs the
 * same recursion over the lowest card as the Python one, and reads and
 * writes the same memo: keys (room as an int, jokerless), values dicts
 * kinds -> most points, built in the order the Python one builds them (the
 * entries of the room without its lowest card first, then the kinds new to
 * each candidate holding that card, in the candidates' order). So a game's
 * memo holds the same entries whichever side filled them, its trim keeps
 * working, and the two sides can take turns on it.
 *
 * The room is carried down as its int (the memo's key: the int of a smaller
 * room is one subtraction) and as FACES bytes (what it holds). Where
 * something does not fit (a count past 127, kinds past 7, points past 64
 * bits, a memo entry that is not a dict of ints), best_of returns
 * NotImplemented and the Python one answers (what was memoised meanwhile is
 * right either way).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define FACES 53
#define MAX_COPIES 127
#define NKINDS 8 /* PURE | ANY_RUN | ANY_SET */

typedef struct {
    uint8_t face, n;
} Pair;

typedef struct {
    PyObject *bits; /* the candidate's need as an int (owned) */
    long long points;
    int kinds;
    int jokers; /* holds a joker */
    Py_ssize_t off, npairs; /* its need in Packer.pairs */
} Cand;

typedef struct {
    PyObject_HEAD
    PyObject *memo;  /* the shared dict (room, jokerless) -> {kinds: points} */
    PyObject *units; /* tuple: 1 << (8 * f) per face */
    Py_ssize_t ncands;
    Cand *cands;
    Pair *pairs;
    Py_ssize_t face_off[FACES + 1]; /* face f's candidates: with_face[face_off[f]:face_off[f+1]] */
    Py_ssize_t *with_face;
} Packer;

/* Results of the recursion. */
#define P_OK 0
#define P_ERROR 1 /* a Python exception is set */
#define P_BAIL 2  /* does not fit: the Python side answers */

/* FACES little-endian bytes of a non-negative int below 1 << (8 * FACES), each at
 * most MAX_COPIES; P_BAIL otherwise (the exception cleared). */
static int room_bytes(PyObject *v, uint8_t *out) {
    if (!PyLong_Check(v)) return P_BAIL;
    PyObject *b = PyObject_CallMethod(v, "to_bytes", "ns", (Py_ssize_t)FACES, "little");
    if (!b) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return P_BAIL;
        }
        return P_ERROR;
    }
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != FACES) {
        Py_DECREF(b);
        return P_BAIL;
    }
    memcpy(out, PyBytes_AS_STRING(b), FACES);
    Py_DECREF(b);
    for (int f = 0; f < FACES; f++)
        if (out[f] > MAX_COPIES) return P_BAIL;
    return P_OK;
}

/* An exact int as a long long; P_BAIL where it is not one or does not fit. */
static int as_ll(PyObject *v, long long *out) {
    if (!PyLong_CheckExact(v)) return P_BAIL;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return P_ERROR;
    if (overflow) return P_BAIL;
    *out = x;
    return P_OK;
}

/* The entries of a memoised dict, in its order: kinds[i], pts[i] for i < *n. */
static int read_entries(PyObject *d, int *kinds, long long *pts, int *n) {
    if (!PyDict_CheckExact(d) || PyDict_GET_SIZE(d) > NKINDS) return P_BAIL;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    int m = 0;
    while (PyDict_Next(d, &pos, &k, &v)) {
        long long kk, vv;
        int r = as_ll(k, &kk);
        if (r != P_OK) return r;
        if (kk < 0 || kk >= NKINDS) return P_BAIL;
        r = as_ll(v, &vv);
        if (r != P_OK) return r;
        kinds[m] = (int)kk;
        pts[m] = vv;
        m++;
    }
    *n = m;
    return P_OK;
}

/* best_of(room) into *result (a new reference, the dict in the memo). */
static int best_rec(Packer *P, const uint8_t *room, PyObject *room_int, PyObject *jl_obj, int jokerless,
                    PyObject **result) {
    int status = P_ERROR;
    PyObject *key = PyTuple_Pack(2, room_int, jl_obj);
    if (!key) return P_ERROR;
    PyObject *hit = PyDict_GetItemWithError(P->memo, key);
    if (hit && hit != Py_None) {
        Py_INCREF(hit);
        *result = hit;
        Py_DECREF(key);
        return P_OK;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return P_ERROR;
    }
    if (Py_EnterRecursiveCall(" in the packing bounds")) {
        Py_DECREF(key);
        return P_ERROR;
    }

    /* out, in insertion order: order[i] is a kinds, val[kinds] its points */
    int order[NKINDS], norder = 0, present[NKINDS] = {0};
    long long val[NKINDS];
    int x = 0;
    while (x < FACES && !room[x]) x++;
    if (x == FACES) { /* the empty room: the empty packing */
        order[norder++] = 0;
        present[0] = 1;
        val[0] = 0;
    } else {
        uint8_t sub[FACES];
        int skinds[NKINDS], sn;
        long long spts[NKINDS];
        PyObject *sub_int, *sub_out;
        /* x stays out of every meld */
        memcpy(sub, room, FACES);
        sub[x]--;
        sub_int = PyNumber_Subtract(room_int, PyTuple_GET_ITEM(P->units, x));
        if (!sub_int) goto done;
        status = best_rec(P, sub, sub_int, jl_obj, jokerless, &sub_out);
        Py_DECREF(sub_int);
        if (status != P_OK) goto done;
        status = read_entries(sub_out, skinds, spts, &sn);
        Py_DECREF(sub_out);
        if (status != P_OK) goto done;
        for (int i = 0; i < sn; i++) {
            order[norder++] = skinds[i];
            present[skinds[i]] = 1;
            val[skinds[i]] = spts[i];
        }
        /* or x is laid in a candidate holding it */
        for (Py_ssize_t w = P->face_off[x]; w < P->face_off[x + 1]; w++) {
            Cand *c = &P->cands[P->with_face[w]];
            if (jokerless && c->jokers) continue;
            const Pair *need = P->pairs + c->off;
            Py_ssize_t j;
            for (j = 0; j < c->npairs; j++)
                if (room[need[j].face] < need[j].n) break;
            if (j < c->npairs) continue; /* the room lacks some card of it */
            memcpy(sub, room, FACES);
            for (j = 0; j < c->npairs; j++) sub[need[j].face] -= need[j].n;
            sub_int = PyNumber_Subtract(room_int, c->bits);
            if (!sub_int) {
                status = P_ERROR;
                goto done;
            }
            status = best_rec(P, sub, sub_int, jl_obj, jokerless, &sub_out);
            Py_DECREF(sub_int);
            if (status != P_OK) goto done;
            status = read_entries(sub_out, skinds, spts, &sn);
            Py_DECREF(sub_out);
            if (status != P_OK) goto done;
            for (int i = 0; i < sn; i++) {
                int k = skinds[i] | c->kinds;
                long long v;
                if (__builtin_add_overflow(spts[i], c->points, &v)) {
                    status = P_BAIL;
                    goto done;
                }
                if ((present[k] ? val[k] : -1) < v) {
                    if (!present[k]) {
                        present[k] = 1;
                        order[norder++] = k;
                    }
                    val[k] = v;
                }
            }
        }
    }

    status = P_ERROR;
    PyObject *out = PyDict_New();
    if (!out) goto done;
    for (int i = 0; i < norder; i++) {
        PyObject *k = PyLong_FromLong(order[i]);
        PyObject *v = k ? PyLong_FromLongLong(val[order[i]]) : NULL;
        int bad = !v || PyDict_SetItem(out, k, v) < 0;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (bad) {
            Py_DECREF(out);
            goto done;
        }
    }
    if (PyDict_SetItem(P->memo, key, out) < 0) {
        Py_DECREF(out);
        goto done;
    }
    *result = out;
    status = P_OK;
done:
    Py_LeaveRecursiveCall();
    Py_DECREF(key);
    return status;
}

static PyObject *Packer_best_of(Packer *P, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "best_of(room, jokerless)");
        return NULL;
    }
    PyObject *room_int = args[0], *jl_obj = args[1];
    int jokerless = PyObject_IsTrue(jl_obj);
    if (jokerless < 0) return NULL;
    uint8_t room[FACES];
    int status = room_bytes(room_int, room);
    PyObject *out = NULL;
    if (status == P_OK) status = best_rec(P, room, room_int, jl_obj, jokerless, &out);
    if (status == P_OK) return out;
    if (status == P_BAIL) Py_RETURN_NOTIMPLEMENTED;
    return NULL;
}

static void Packer_dealloc(Packer *P) {
    if (P->cands)
        for (Py_ssize_t i = 0; i < P->ncands; i++) Py_XDECREF(P->cands[i].bits);
    PyMem_Free(P->cands);
    PyMem_Free(P->pairs);
    PyMem_Free(P->with_face);
    Py_XDECREF(P->memo);
    Py_XDECREF(P->units);
    Py_TYPE(P)->tp_free((PyObject *)P);
}

static PyMethodDef Packer_methods[] = {
    {"best_of", (PyCFunction)(void (*)(void))Packer_best_of, METH_FASTCALL,
     "best_of(room, jokerless) -> {kinds: points} (PackingBounds._best_of), or NotImplemented"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PackerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rami_core.rl._packingc.Packer",
    .tp_basicsize = sizeof(Packer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The packing bounds' dynamic program over one PackingBounds' candidates (see packing.py).",
    .tp_dealloc = (destructor)Packer_dealloc,
    .tp_methods = Packer_methods,
};

/* An attribute of a candidate as a long long, P_BAIL where it is not an exact int. */
static int attr_ll(PyObject *obj, const char *name, long long *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return P_ERROR;
    int r = as_ll(v, out);
    Py_DECREF(v);
    return r;
}

/* make(cands, with_face, memo, units) -> a Packer, or None where the
 * candidates do not fit (the Python side answers for them). */
static PyObject *make(PyObject *self, PyObject *args) {
    PyObject *cands, *with_face, *memo, *units;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:make", &PyList_Type, &cands, &PyList_Type, &with_face, &PyDict_Type,
                          &memo, &PyTuple_Type, &units))
        return NULL;
    if (PyList_GET_SIZE(with_face) != FACES || PyTuple_GET_SIZE(units) != FACES) Py_RETURN_NONE;
    for (int f = 0; f < FACES; f++)
        if (!PyLong_CheckExact(PyTuple_GET_ITEM(units, f))) Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(cands);
    Packer *P = PyObject_New(Packer, &PackerType);
    if (!P) return NULL;
    P->memo = memo;
    P->units = units;
    Py_INCREF(memo);
    Py_INCREF(units);
    P->ncands = n;
    P->cands = NULL;
    P->pairs = NULL;
    P->with_face = NULL;
    int status = P_ERROR;
    Py_ssize_t total = 0; /* entries of with_face */
    for (int f = 0; f < FACES; f++) {
        PyObject *lst = PyList_GET_ITEM(with_face, f);
        if (!PyList_Check(lst)) {
            status = P_BAIL;
            goto fail;
        }
        total += PyList_GET_SIZE(lst);
    }
    P->cands = PyMem_Calloc(n ? (size_t)n : 1, sizeof(Cand));
    P->pairs = PyMem_Calloc(n ? (size_t)n * FACES : 1, sizeof(Pair));
    P->with_face = PyMem_Calloc(total ? (size_t)total : 1, sizeof(Py_ssize_t));
    if (!P->cands || !P->pairs || !P->with_face) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_ssize_t npairs = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyList_GET_ITEM(cands, i);
        Cand *cc = &P->cands[i];
        long long kinds, jokers;
        uint8_t need[FACES];
        if ((status = attr_ll(c, "points", &cc->points)) != P_OK) goto fail;
        if ((status = attr_ll(c, "kinds", &kinds)) != P_OK) goto fail;
        if ((status = attr_ll(c, "jokers", &jokers)) != P_OK) goto fail;
        if (kinds < 0 || kinds >= NKINDS) {
            status = P_BAIL;
            goto fail;
        }
        cc->kinds = (int)kinds;
        cc->jokers = jokers != 0;
        cc->bits = PyObject_GetAttrString(c, "bits");
        if (!cc->bits) {
            status = P_ERROR;
            goto fail;
        }
        if ((status = room_bytes(cc->bits, need)) != P_OK) goto fail;
        cc->off = npairs;
        for (int f = 0; f < FACES; f++)
            if (need[f]) {
                P->pairs[npairs].face = (uint8_t)f;
                P->pairs[npairs].n = need[f];
                npairs++;
            }
        cc->npairs = npairs - cc->off;
    }
    Py_ssize_t w = 0;
    for (int f = 0; f < FACES; f++) {
        PyObject *lst = PyList_GET_ITEM(with_face, f);
        P->face_off[f] = w;
        if (PyList_GET_SIZE(lst) > total - w) { /* the lists changed meanwhile */
            status = P_BAIL;
            goto fail;
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(lst); j++) {
            long long i;
            if ((status = as_ll(PyList_GET_ITEM(lst, j), &i)) != P_OK) goto fail;
            if (i < 0 || i >= n) {
                status = P_BAIL;
                goto fail;
            }
            P->with_face[w++] = (Py_ssize_t)i;
        }
    }
    P->face_off[FACES] = w;
    return (PyObject *)P;
fail:
    Py_DECREF(P);
    if (status == P_BAIL) Py_RETURN_NONE;
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"make", make, METH_VARARGS,
     "make(cands, with_face, memo, units) -> Packer, or None where the candidates do not fit"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_packingc", "The packing bounds' dynamic program, compiled.",
                                    -1, module_methods};

PyMODINIT_FUNC PyInit__packingc(void) {
    if (PyType_Ready(&PackerType) < 0) return NULL;
    return PyModule_Create(&moddef);
}
