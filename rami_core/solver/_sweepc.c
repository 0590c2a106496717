/* The sweep's search in C: the same memoised branch and bound as
 * rami_core/solver/sweep.py (_Sweep.best, hval, relaxed_bound), state for
 * state and option for option, so that both count the same states, meet the
 * same budgets and prove the same optima. Python keeps the root loop, the
 * rebuild and every table that depends on the rules (sets, caps, potentials);
 * this file only runs the recursion on integer codes.
 *
 * A run in progress is a code: ((ln*(N+1)+nt)*(Kc+1)+jk)*3+ld, which keeps
 * the order of the Python tuples (ln, nt, jk, ld), so a suit's sorted tuple of
 * runs is a sorted array of codes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#define NEG (-1000000000000000000LL)
#define MAXR 24       /* runs in progress per suit */
#define MAXP 14       /* places */
#define MAXOPTS 128   /* (ends, naturals, jokers) splits of one group of equal runs */
#define ST_OK 0
#define ST_BUDGET 1
#define ST_TIMEOUT 2
#define ST_ERROR 3
#define ST_BOUND_SPENT 4 /* the relaxation's work reached the limit: the search goes on without it */
#define ST_PRICES_SPENT 5 /* the priced relaxation's did: the plain one goes on alone */

typedef struct {
    uint8_t pi, si, jl;
    uint8_t res[8];
    uint8_t msum[4]; /* sorted, largest first, zero padded */
    uint8_t nr[4];
    uint16_t codes[4][MAXR];
} State;

/* ------------------------------------------------------------------ a hash map of word keys
 * A key is whole 64-bit words, its last one zero padded (key_words): hashing
 * and comparing it is then a short inline loop, where keys of odd byte
 * lengths cost a libc memcpy, memcmp and tail copy per look-up, and the
 * look-ups are most of the search's work (the relaxation's above all). Every
 * key's layout tells its own length (its run counts), so equal padded words
 * are equal keys. */

typedef struct {
    uint64_t h;
    uint32_t off, len; /* in words */
    int64_t v;
    int64_t x; /* a second word: exact flag, or an options offset/count */
} Entry;

typedef struct {
    uint64_t *slots; /* 0: empty; else the hash's high 32 bits, then the entry's index + 1 */
    size_t nslots;
    Entry *ent;
    size_t nent, cap;
    uint64_t *keys;
    size_t klen, kcap; /* in words */
} Map;

static inline size_t key_words(uint64_t *key, size_t kn) {
    memset((uint8_t *)key + kn, 0, 8);
    return (kn + 7) >> 3;
}

/* the words of a key of one header word and a suit's runs: the runs are
 * copied whole (a fixed-size copy, inline), the padding word after them */
#define RUNS_KEY_WORDS (1 + (2 * MAXR + 8) / 8)

/* key = the header word, then runs R (nr codes); returns the words */
static inline size_t runs_key(uint64_t *key, uint64_t head, const uint16_t *R, int nr) {
    key[0] = head;
    memcpy(key + 1, R, 2 * MAXR);
    return key_words(key, 8 + 2 * (size_t)nr);
}

static inline uint64_t hash_words(const uint64_t *w, size_t nw) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ nw;
    for (size_t i = 0; i < nw; i++) {
        h = (h ^ w[i]) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    /* murmur's finaliser: every input bit reaches the low bits used as the index */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline int words_equal(const uint64_t *a, const uint64_t *b, size_t nw) {
    for (size_t i = 0; i < nw; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static inline uint64_t slot_of(uint64_t h, size_t e) { return (h & 0xffffffff00000000ULL) | (uint64_t)(e + 1); }

static int map_init(Map *m) {
    memset(m, 0, sizeof(*m));
    m->nslots = 1024;
    m->slots = calloc(m->nslots, sizeof(uint64_t));
    return m->slots ? 0 : -1;
}

static void map_free(Map *m) {
    free(m->slots);
    free(m->ent);
    free(m->keys);
    memset(m, 0, sizeof(*m));
}

/* the key's entry, or NULL with *slot the empty slot where it would go */
static inline Entry *map_find(Map *m, const uint64_t *k, size_t nw, uint64_t h, size_t *slot) {
    size_t mask = m->nslots - 1, i = h & mask;
    uint64_t tag = h & 0xffffffff00000000ULL;
    for (;;) {
        uint64_t sl = m->slots[i];
        if (!sl) {
            *slot = i;
            return NULL;
        }
        if ((sl & 0xffffffff00000000ULL) == tag) {
            Entry *en = &m->ent[(sl & 0xffffffffULL) - 1];
            if (en->h == h && en->len == nw && words_equal(m->keys + en->off, k, nw)) return en;
        }
        i = (i + 1) & mask;
    }
}

static inline Entry *map_get(Map *m, const uint64_t *k, size_t nw, uint64_t h) {
    size_t slot;
    return map_find(m, k, nw, h, &slot);
}

static int map_grow(Map *m) {
    size_t ns = m->nslots * 2;
    uint64_t *sl = calloc(ns, sizeof(uint64_t));
    if (!sl) return -1;
    for (size_t e = 0; e < m->nent; e++) {
        size_t i = m->ent[e].h & (ns - 1);
        while (sl[i]) i = (i + 1) & (ns - 1);
        sl[i] = slot_of(m->ent[e].h, e);
    }
    free(m->slots);
    m->slots = sl;
    m->nslots = ns;
    return 0;
}

/* insert or overwrite; returns the entry or NULL on memory failure. The
 * table grows before the probe, so that one probe finds the key or its slot. */
static Entry *map_put(Map *m, const uint64_t *k, size_t nw, uint64_t h, int64_t v, int64_t x) {
    if ((m->nent + 1) * 2 > m->nslots && map_grow(m) < 0) return NULL;
    size_t slot;
    Entry *en = map_find(m, k, nw, h, &slot);
    if (en) {
        en->v = v;
        en->x = x;
        return en;
    }
    if (m->nent == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 1024;
        Entry *ne = realloc(m->ent, nc * sizeof(Entry));
        if (!ne) return NULL;
        m->ent = ne;
        m->cap = nc;
    }
    if (m->klen + nw > m->kcap) {
        size_t nc = m->kcap ? m->kcap * 2 : 8192;
        while (nc < m->klen + nw) nc *= 2;
        uint64_t *nk = realloc(m->keys, nc * sizeof(uint64_t));
        if (!nk) return NULL;
        m->keys = nk;
        m->kcap = nc;
    }
    memcpy(m->keys + m->klen, k, nw * sizeof(uint64_t));
    Entry *e = &m->ent[m->nent];
    e->h = h;
    e->off = (uint32_t)m->klen;
    e->len = (uint32_t)nw;
    e->v = v;
    e->x = x;
    m->klen += nw;
    m->slots[slot] = slot_of(h, m->nent);
    m->nent++;
    return e;
}

/* ------------------------------------------------------------------ the search object */

/* a run code decoded (see decode) */
typedef struct {
    uint16_t ln, nt, jk;
    uint8_t ld, complete;
} Dec;

typedef struct {
    PyObject_HEAD
    int n, L, N, K, Kc, hi, both;
    Dec *dec; /* codes 0 .. ndec-1 decoded, built with the sweep */
    int ndec;
    int places[MAXP];
    int ft[MAXP][4], fa[MAXP][4], fw[MAXP][4]; /* table count, all count, hand weight */
    int caps[MAXP][4];
    int64_t pot[MAXP + 1][5];
    int64_t ace_w[4];
    int J, JT, JH;
    int64_t wj;
    int B;             /* counts in a set vector run 0..B-1 */
    uint64_t *setfeas; /* per sorted count vector (base B, 4 digits): bit j = closes with j jokers */
    int use_h;
    int bound_on; /* the relaxation in use (it is switched off when its work reaches the limit) */
    /* the relaxation with the sets priced (sweep._Sweep.price_sets): prices and
     * the best priced sets from each place on, per joker count, in 1/pscale */
    int priced;
    int64_t pscale;
    int64_t price[MAXP][4];
    int64_t setsuf[MAXP + 1][64];
    /* limits of the current call */
    int64_t calls, hcalls, pcalls, budget, max_states;
    double deadline; /* <0: none */
    int status;
    Map memo, hmemo, ocache;
    int64_t *hv; /* the relaxation's values: J + 1 per hmemo entry, from its v */
#define CC_BITS 10
    uint64_t ccache[1 << CC_BITS]; /* completable's answers: see completable_cached */
    size_t hvlen, hvcap;
    int32_t *oa; /* options arena: [nR, mm, u, jused, codes...] */
    size_t olen, ocap;
} Sweep;

static inline int dec_ln(Sweep *S, int c) { return c / 3 / (S->Kc + 1) / (S->N + 1); }
static inline int dec_nt(Sweep *S, int c) { return (c / 3 / (S->Kc + 1)) % (S->N + 1); }
static inline int dec_jk(Sweep *S, int c) { return (c / 3) % (S->Kc + 1); }
static inline int dec_ld(int c) { return c % 3; }
static inline int enc(Sweep *S, int ln, int nt, int jk, int ld) {
    return ((ln * (S->N + 1) + nt) * (S->Kc + 1) + jk) * 3 + ld;
}
/* The search decodes codes for every options list it builds and every end
 * state, and each decode was several integer divisions by the rules' sizes:
 * the codes the rules can make are decoded once per sweep into a table. */
#define DEC_MAX 4096
static inline Dec decode_slow(Sweep *S, int c) {
    Dec d;
    d.ln = (uint16_t)dec_ln(S, c);
    d.nt = (uint16_t)dec_nt(S, c);
    d.jk = (uint16_t)dec_jk(S, c);
    d.ld = (uint8_t)dec_ld(c);
    d.complete = dec_ln(S, c) >= S->L && dec_nt(S, c) >= S->N;
    return d;
}
static inline Dec decode(Sweep *S, int c) { return c < S->ndec ? S->dec[c] : decode_slow(S, c); }
static inline int complete(Sweep *S, int c) { return decode(S, c).complete; }

/* the table for codes up to enc(L, N, Kc, 2) (every code a run of these
 * rules can have), at most DEC_MAX of them; 0, or -1 on memory failure */
static int build_dec(Sweep *S) {
    free(S->dec);
    S->dec = NULL;
    S->ndec = 0;
    int n = enc(S, S->L, S->N, S->Kc, 2) + 1;
    if (n > DEC_MAX) return 0; /* beyond: decoded by division */
    S->dec = malloc((size_t)n * sizeof(Dec));
    if (!S->dec) return -1;
    for (int c = 0; c < n; c++) S->dec[c] = decode_slow(S, c);
    S->ndec = n;
    return 0;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* room for n more words in the options arena */
static int oa_reserve(Sweep *S, size_t n) {
    if (S->olen + n <= S->ocap) return 0;
    size_t nc = S->ocap ? S->ocap * 2 : 65536;
    while (nc < S->olen + n) nc *= 2;
    int32_t *a = realloc(S->oa, nc * sizeof(int32_t));
    if (!a) return -1;
    S->oa = a;
    S->ocap = nc;
    return 0;
}

/* ------------------------------------------------------------------ options of one suit at one place
 * The port of sweep._suit_options_base: same options, same order (generated
 * depth first, then a stable sort on the naturals used, most first). */

typedef struct {
    int code, k, nat_code, jok_code, nopts;
    int e[MAXOPTS][3];
} Group;

typedef struct {
    Sweep *S;
    Group g[MAXR];
    int ng, tmin, a, jl, room, first;
    int runs[2 * MAXR + 2];
    size_t start; /* arena offset of the first option */
    int count, err;
} OptGen;

/* The groups of equal runs in R (sorted codes) and, per group, its splits
 * into (ends, continued by a natural, continued by a joker), in the order
 * sweep._suit_options_base lists them. Returns 1 when some group has no
 * split at all (no option exists), -1 past MAXOPTS splits, else 0. */
static int make_groups(Sweep *S, Group *g, int *ng, const uint16_t *R, int nr, int room) {
    int L = S->L, N = S->N, K = S->K;
    int empty = 0;
    *ng = 0;
    for (int i = 0; i < nr;) {
        int j = i;
        while (j < nr && R[j] == R[i]) j++;
        int code = R[i], k = j - i;
        Dec d = decode(S, code);
        int ln = d.ln, nt = d.nt, jk = d.jk, ld = d.ld;
        int comp = ln >= L && nt >= N;
        int ln1 = ln + 1 < L ? ln + 1 : L;
        Group *gr = &g[(*ng)++];
        gr->code = code;
        gr->k = k;
        gr->nat_code = enc(S, ln1, nt + 1 < N ? nt + 1 : N, jk, ld);
        int jok_ok = K < 0 || jk + 1 <= K;
        gr->jok_code = enc(S, ln1, nt, K >= 0 ? jk + 1 : 0, ld);
        int nat_viable = ln1 + room - 1 >= L;
        int jok_viable = jok_ok && ln1 + room - 1 >= L;
        if (ld == 2 && room == 1) nat_viable = jok_viable = 0;
        gr->nopts = 0;
        for (int e = 0; e <= k; e++) {
            if (e && (!comp || ld == 1)) break;
            for (int cn = 0; cn <= k - e; cn++) {
                int cj = k - e - cn;
                if (cn && !nat_viable) continue;
                if (cj && !jok_viable) continue;
                if (gr->nopts == MAXOPTS) return -1;
                gr->e[gr->nopts][0] = e;
                gr->e[gr->nopts][1] = cn;
                gr->e[gr->nopts][2] = cj;
                gr->nopts++;
            }
        }
        if (!gr->nopts) empty = 1;
        i = j;
    }
    return empty;
}

static void gen_leaf(OptGen *G, int nruns, int nat, int jok) {
    Sweep *S = G->S;
    int max_new_nat = G->room >= S->L ? G->a - nat : 0;
    int max_new_jok = (G->room >= S->L && (S->K < 0 || S->K >= 1) && !G->first) ? G->jl - jok : 0;
    int new_code = enc(S, 1, S->N < 1 ? S->N : 1, 0, G->first ? 2 : 0);
    int jnew_code = enc(S, 1, 0, S->K >= 0 ? 1 : 0, 1);
    for (int nn = 0; nn <= max_new_nat; nn++) {
        for (int nj = 0; nj <= max_new_jok; nj++) {
            int tot = nruns + nn + nj;
            if (tot > MAXR) {
                G->err = 1;
                return;
            }
            int buf[2 * MAXR + 2];
            memcpy(buf, G->runs, nruns * sizeof(int));
            for (int i = 0; i < nn; i++) buf[nruns + i] = new_code;
            for (int i = 0; i < nj; i++) buf[nruns + nn + i] = jnew_code;
            /* a handful of ints: insertion sort inline, where qsort's calls
             * were a tenth of building the options */
            for (int i = 1; i < tot; i++) {
                int v = buf[i], q = i;
                for (; q > 0 && buf[q - 1] > v; q--) buf[q] = buf[q - 1];
                buf[q] = v;
            }
            int used_runs = nat + nn;
            int lo_m = G->tmin - used_runs > 0 ? G->tmin - used_runs : 0;
            int hi_m = G->a - used_runs;
            if (hi_m < lo_m) continue;
            /* the room for every record of this leaf at once, then plain stores */
            if (oa_reserve(S, (size_t)(hi_m - lo_m + 1) * (4 + tot)) < 0) {
                G->err = 2;
                return;
            }
            for (int mm = lo_m; mm <= hi_m; mm++) {
                int32_t *o = S->oa + S->olen;
                o[0] = tot;
                o[1] = mm;
                o[2] = used_runs + mm;
                o[3] = jok + nj;
                for (int i = 0; i < tot; i++) o[4 + i] = buf[i];
                S->olen += 4 + tot;
                G->count++;
            }
        }
    }
}

static void gen_rec(OptGen *G, int i, int nruns, int nat, int jok) {
    if (G->err) return;
    if (nat > G->a || jok > G->jl) return;
    if (i < G->ng) {
        Group *gr = &G->g[i];
        for (int o = 0; o < gr->nopts; o++) {
            int cn = gr->e[o][1], cj = gr->e[o][2];
            if (nruns + cn + cj > 2 * MAXR) {
                G->err = 1;
                return;
            }
            for (int q = 0; q < cn; q++) G->runs[nruns + q] = gr->nat_code;
            for (int q = 0; q < cj; q++) G->runs[nruns + cn + q] = gr->jok_code;
            gen_rec(G, i + 1, nruns + cn + cj, nat + cn, jok + cj);
            if (G->err) return;
        }
        return;
    }
    gen_leaf(G, nruns, nat, jok);
}

/* options for runs R (nr codes) at one place: returns the arena offset (and
 * *count), or -1 on error (S->status set) */
static long suit_options(Sweep *S, const uint16_t *R, int nr, int tmin, int a, int jl, int room, int *count) {
    uint64_t key[RUNS_KEY_WORDS];
    size_t kn = runs_key(key,
                         (uint64_t)(uint8_t)tmin | (uint64_t)(uint8_t)a << 8 | (uint64_t)(uint8_t)jl << 16 |
                             (uint64_t)(uint8_t)room << 24 | (uint64_t)(uint8_t)nr << 32,
                         R, nr);
    uint64_t h = hash_words(key, kn);
    Entry *hit = map_get(&S->ocache, key, kn, h);
    if (hit) {
        *count = (int)hit->x;
        return (long)hit->v;
    }
    /* only the scalars are cleared: make_groups fills the groups it uses and
     * gen_rec writes each run before it reads it (clearing the whole 37 kB
     * struct was an eighth of a bot's rebuild) */
    OptGen G;
    G.count = G.err = 0;
    G.start = 0;
    G.S = S;
    G.tmin = tmin;
    G.a = a;
    G.jl = jl;
    G.room = room;
    G.first = room == 14;
    int empty = make_groups(S, G.g, &G.ng, R, nr, room);
    if (empty < 0) {
        PyErr_SetString(PyExc_OverflowError, "too many equal runs for the compiled sweep");
        S->status = ST_ERROR;
        return -1;
    }
    size_t start = S->olen;
    if (!empty) gen_rec(&G, 0, 0, 0, 0);
    if (G.err) {
        S->status = ST_ERROR;
        if (G.err == 1)
            PyErr_SetString(PyExc_OverflowError, "too many runs in progress for the compiled sweep");
        else
            PyErr_NoMemory();
        return -1;
    }
    /* stable sort by naturals used, most first: collect offsets, insertion sort */
    int cnt = G.count;
    if (cnt > 1) {
        /* most lists are short: their bookkeeping on the stack, not three
         * mallocs and frees per list */
        size_t offs_s[128];
        int us_s[128];
        int32_t tmp_s[2048];
        size_t *offs = cnt <= 128 ? offs_s : malloc(cnt * sizeof(size_t));
        int *us = cnt <= 128 ? us_s : malloc(cnt * sizeof(int));
        if (!offs || !us) {
            if (offs != offs_s) free(offs);
            if (us != us_s) free(us);
            S->status = ST_ERROR;
            PyErr_NoMemory();
            return -1;
        }
        size_t o = start;
        for (int i = 0; i < cnt; i++) {
            offs[i] = o;
            us[i] = S->oa[o + 2];
            o += 4 + S->oa[o];
        }
        size_t total = S->olen - start;
        /* stable: counting by u descending, keeping generation order within a u */
        int maxu = 0;
        for (int i = 0; i < cnt; i++)
            if (us[i] > maxu) maxu = us[i];
        int32_t *tmp = total <= 2048 ? tmp_s : malloc(total * sizeof(int32_t));
        if (!tmp) {
            if (offs != offs_s) free(offs);
            if (us != us_s) free(us);
            S->status = ST_ERROR;
            PyErr_NoMemory();
            return -1;
        }
        size_t w = 0;
        for (int u = maxu; u >= 0; u--)
            for (int i = 0; i < cnt; i++)
                if (us[i] == u) {
                    size_t len = 4 + S->oa[offs[i]];
                    memcpy(tmp + w, S->oa + offs[i], len * sizeof(int32_t));
                    w += len;
                }
        memcpy(S->oa + start, tmp, total * sizeof(int32_t));
        if (tmp != tmp_s) free(tmp);
        if (offs != offs_s) free(offs);
        if (us != us_s) free(us);
    }
    if (!map_put(&S->ocache, key, kn, h, (int64_t)start, cnt)) {
        S->status = ST_ERROR;
        PyErr_NoMemory();
        return -1;
    }
    *count = cnt;
    return (long)start;
}

/* ------------------------------------------------------------------ sets */

static inline int msum_index(Sweep *S, const uint8_t *ms) {
    int B = S->B;
    return ((ms[0] * B + ms[1]) * B + ms[2]) * B + ms[3];
}

static void msum_add(uint8_t *ms, int k) {
    /* insert k into a sorted (largest first) 4-vector whose last slot is free */
    if (!k) return;
    int i = 3;
    while (i > 0 && ms[i - 1] < k) {
        ms[i] = ms[i - 1];
        i--;
    }
    ms[i] = (uint8_t)k;
}

static inline uint64_t set_options(Sweep *S, const uint8_t *ms, int jl) {
    uint64_t f = S->setfeas[msum_index(S, ms)];
    return jl >= 63 ? f : f & ((2ULL << jl) - 1);
}

static int completable(Sweep *S, const uint8_t *ms, const int *caps, int ncaps, int jl) {
    if (!ncaps) return set_options(S, ms, jl) != 0;
    for (int k = 0; k <= caps[0]; k++) {
        uint8_t nx[4];
        memcpy(nx, ms, 4);
        if (k) {
            if (k >= S->B || nx[3]) continue; /* beyond the table: cannot be */
            msum_add(nx, k);
        }
        if (completable(S, nx, caps + 1, ncaps - 1, jl)) return 1;
    }
    return 0;
}

/* completable through a direct-mapped cache of its answers: it tries every
 * way of adding the suits still to come to the sets, and the search asks the
 * same (sets, caps, jokers) at node after node. An entry is the packed
 * question << 2 | 2 | answer; questions that do not pack are not cached. */
static int completable_cached(Sweep *S, const uint8_t *ms, const int *caps, int ncaps, int jl) {
    uint64_t q = (uint64_t)ncaps | (uint64_t)jl << 2;
    int ok = jl >= 0 && jl < 64 && ncaps <= 3;
    for (int i = 0; i < 4; i++) {
        ok &= ms[i] < 16;
        q |= (uint64_t)ms[i] << (8 + 4 * i);
    }
    for (int i = 0; i < ncaps; i++) {
        ok &= caps[i] >= 0 && caps[i] < 256;
        q |= (uint64_t)(caps[i] & 0xff) << (24 + 8 * i);
    }
    if (!ok) return completable(S, ms, caps, ncaps, jl);
    uint64_t *slot = &S->ccache[(q * 0x9E3779B97F4A7C15ULL) >> (64 - CC_BITS)];
    if ((*slot >> 2) == q && (*slot & 2)) return (int)(*slot & 1);
    int r = completable(S, ms, caps, ncaps, jl);
    *slot = q << 2 | 2 | (uint64_t)r;
    return r;
}

/* ------------------------------------------------------------------ the relaxation */

/* The relaxation's memo keeps one entry per (priced, suit, place, reserve,
 * runs) with a value per joker count j (0..J) and a mask of the counts known:
 * the knapsack asks every j of the same runs in a row, and one look-up then
 * serves them all. */
static inline size_t hkey(uint64_t *key, int pr, int s, int pi, int t14, int a14, const uint16_t *R, int nr) {
    return runs_key(key,
                    (uint64_t)(uint8_t)pr | (uint64_t)(uint8_t)s << 8 | (uint64_t)(uint8_t)pi << 16 |
                        (uint64_t)(uint8_t)t14 << 32 | (uint64_t)(uint8_t)a14 << 40 | (uint64_t)(uint8_t)nr << 48,
                    R, nr);
}

static inline int hknown(const Entry *en, int j) { return en && ((uint64_t)en->x >> j & 1); }

/* records v for joker count j (and, with all_j, for every count); NULL on
 * memory failure (S->status set) */
static Entry *hstore(Sweep *S, const uint64_t *key, size_t kn, uint64_t h, int j, int64_t v, int all_j) {
    Entry *en = map_get(&S->hmemo, key, kn, h);
    int w = S->J + 1;
    if (!en) {
        if (S->hvlen + w > S->hvcap) {
            size_t nc = S->hvcap ? S->hvcap * 2 : 4096;
            while (nc < S->hvlen + w) nc *= 2;
            int64_t *nv = realloc(S->hv, nc * sizeof(int64_t));
            if (!nv) goto nomem;
            S->hv = nv;
            S->hvcap = nc;
        }
        en = map_put(&S->hmemo, key, kn, h, (int64_t)S->hvlen, 0);
        if (!en) goto nomem;
        S->hvlen += w;
    }
    int64_t *vals = S->hv + en->v;
    if (all_j) {
        for (int q = 0; q < w; q++) vals[q] = v;
        en->x = (int64_t)(w == 64 ? ~0ULL : (1ULL << w) - 1);
    } else {
        vals[j] = v;
        en->x = (int64_t)((uint64_t)en->x | 1ULL << j);
    }
    return en;
nomem:
    S->status = ST_ERROR;
    PyErr_NoMemory();
    return NULL;
}

static int64_t hval(Sweep *S, int s, int pi, const uint16_t *R, int nr, int j, int t14, int a14, int pr);

/* hval where (key, j) is not in the memo: the value, computed and stored,
 * with *out its entry (NULL where a status is set) */
static int64_t hval_compute(Sweep *S, const uint64_t *key, size_t kn, uint64_t h, int s, int pi, const uint16_t *R,
                            int nr, int j, int t14, int a14, int pr, Entry **out) {
    *out = NULL;
    if (pi == S->n) {
        /* the end: the same value for every joker count */
        int64_t v = 0;
        for (int i = 0; i < nr; i++)
            if (!complete(S, R[i])) {
                v = NEG;
                break;
            }
        *out = hstore(S, key, kn, h, j, v, 1);
        return v;
    }
    int p = S->places[pi];
    int t = S->ft[pi][s], a = S->fa[pi][s], tmin = t, w = S->fw[pi][s];
    int at1 = S->both && p == 1, at14 = S->both && p == 14;
    if (at1)
        tmin = 0;
    else if (at14) {
        t = tmin = t14;
        a = a14;
    }
    int cap = S->caps[pi][s];
    int64_t best = NEG;
    int cnt;
    long off = suit_options(S, R, nr, tmin, a, j, S->hi - p + 1, &cnt);
    if (off < 0) return 0;
    if (pr) {
        /* the priced relaxation's work has a count and a limit of its own */
        S->pcalls += 1 + cnt;
        if (S->pcalls >= S->max_states) {
            S->status = ST_PRICES_SPENT;
            return 0;
        }
    } else {
        S->hcalls += 1 + cnt;
        if (S->hcalls >= S->max_states) {
            S->status = ST_BOUND_SPENT;
            return 0;
        }
    }
    /* the last option looked up: options that differ only in the counts sent
     * to sets come in a row, and their next states are the same (a second
     * look-up would only find the value just stored) */
    long prev = -1;
    int prev_nt14 = 0, prev_na14 = 0;
    int64_t sub = NEG;
    for (int i = 0; i < cnt; i++) {
        const int32_t *o = S->oa + off;
        int onr = o[0], mm = o[1], u = o[2], jused = o[3];
        long here = off;
        off += 4 + onr;
        if (mm > cap) continue;
        int nt14 = t14, na14 = a14;
        if (at1) {
            nt14 = t - u > 0 ? t - u : 0;
            na14 = a - u;
        } else if (at14)
            nt14 = na14 = 0;
        int same = 0;
        if (prev >= 0 && prev_nt14 == nt14 && prev_na14 == na14) {
            const int32_t *po = S->oa + prev;
            if (po[0] == onr && po[3] == jused) {
                int q = 0;
                while (q < onr && po[4 + q] == o[4 + q]) q++;
                same = q == onr;
            }
        }
        if (!same) {
            uint16_t nR[MAXR];
            for (int q = 0; q < onr; q++) nR[q] = (uint16_t)o[4 + q];
            sub = hval(S, s, pi + 1, nR, onr, j - jused, nt14, na14, pr);
            if (S->status) return 0;
            prev = here;
            prev_nt14 = nt14;
            prev_na14 = na14;
        }
        if (sub == NEG) continue;
        int64_t wt = u > t ? (int64_t)(u - t) * w : 0;
        if (pr) wt = wt * S->pscale - S->price[pi][s] * mm;
        if (sub + wt > best) best = sub + wt;
    }
    *out = hstore(S, key, kn, h, j, best, 0);
    return best;
}

/* r14: the suit's aces kept for place 14 (table, all) where the ace is at both ends */
static int64_t hval(Sweep *S, int s, int pi, const uint16_t *R, int nr, int j, int t14, int a14, int pr) {
    uint64_t key[RUNS_KEY_WORDS];
    size_t kn = hkey(key, pr, s, pi, t14, a14, R, nr);
    uint64_t h = hash_words(key, kn);
    Entry *en = map_get(&S->hmemo, key, kn, h);
    if (hknown(en, j)) return S->hv[en->v + j];
    return hval_compute(S, key, kn, h, s, pi, R, nr, j, t14, a14, pr, &en);
}

static inline int64_t floor_div(int64_t v, int64_t d) { return v >= 0 ? v / d : -((-v + d - 1) / d); }

/* The port of sweep._Sweep._priced_bound. */
/* The port of sweep._Sweep._share_jokers: the jokers left (at most jl, <= 63)
 * shared among the four suits by a small knapsack, on top of acc[0..jl] (what
 * the rest earns with each number of jokers: nothing, or the priced sets;
 * overwritten). One knapsack for the plain (pr 0) and the priced (pr 1)
 * relaxations. SHARE_OK with *best the total; SHARE_NO_LAY where a suit cannot
 * be laid even with every joker; SHARE_ERROR with S->status set. */
enum { SHARE_OK, SHARE_NO_LAY, SHARE_ERROR };
static int share_jokers(Sweep *S, int pi, int si, const State *st, int jl, int64_t *acc, int pr, int64_t *best) {
    int64_t nw[64], vals[64];
    for (int s = 0; s < 4; s++) {
        int q = (s < si && pi < S->n) ? pi + 1 : pi;
        int t14 = st->res[2 * s], a14 = st->res[2 * s + 1];
        uint64_t key[RUNS_KEY_WORDS];
        size_t kn = hkey(key, pr, s, q, t14, a14, st->codes[s], st->nr[s]);
        uint64_t h = hash_words(key, kn);
        Entry *en = map_get(&S->hmemo, key, kn, h);
        for (int j = 0; j <= jl; j++) {
            if (hknown(en, j))
                vals[j] = S->hv[en->v + j];
            else {
                vals[j] = hval_compute(S, key, kn, h, s, q, st->codes[s], st->nr[s], j, t14, a14, pr, &en);
                if (S->status) return SHARE_ERROR;
            }
        }
        if (vals[jl] == NEG) return SHARE_NO_LAY;
        for (int j = 0; j <= jl; j++) nw[j] = NEG;
        for (int j1 = 0; j1 <= jl; j1++) {
            if (acc[j1] == NEG) continue;
            for (int j2 = 0; j2 <= jl - j1; j2++)
                if (vals[j2] != NEG && acc[j1] + vals[j2] > nw[j1 + j2]) nw[j1 + j2] = acc[j1] + vals[j2];
        }
        memcpy(acc, nw, (jl + 1) * sizeof(int64_t));
    }
    int64_t m = NEG;
    for (int j = 0; j <= jl; j++)
        if (acc[j] > m) m = acc[j];
    *best = m;
    return SHARE_OK;
}

static int64_t priced_bound(Sweep *S, int pi, int si, const State *st, int jl) {
    int n = S->n;
    int64_t v = (int64_t)S->JH * S->wj * S->pscale;
    if (pi < n && si > 0 && si < 4) {
        int at14 = S->both && S->places[pi] == 14;
        for (int s = si; s < 4; s++)
            if (S->price[pi][s] > 0) {
                int a = at14 ? st->res[2 * s + 1] : S->fa[pi][s];
                v += S->price[pi][s] * (a < S->caps[pi][s] ? a : S->caps[pi][s]);
            }
    }
    const int64_t *sets = S->setsuf[(pi < n && si > 0) ? pi + 1 : pi];
    if (jl == 0 || S->J == 0) {
        v += sets[0];
        for (int s = 0; s < 4; s++) {
            int q = (pi < n && s < si) ? pi + 1 : pi;
            int64_t x = hval(S, s, q, st->codes[s], st->nr[s], 0, st->res[2 * s], st->res[2 * s + 1], 1);
            if (S->status) return 0;
            if (x == NEG) return NEG;
            v += x;
        }
        return floor_div(v, S->pscale);
    }
    int64_t acc[64], m;
    if (jl > 63) jl = 63;
    for (int j = 0; j <= jl; j++) acc[j] = sets[j];
    int r = share_jokers(S, pi, si, st, jl, acc, 1, &m);
    if (r == SHARE_ERROR) return 0;
    if (r == SHARE_NO_LAY) return NEG;
    return floor_div(m + v, S->pscale);
}

static int64_t plain_bound(Sweep *S, int pi, int si, const State *st, int jl);

/* The port of sweep._Sweep._relaxed_bound: the plain relaxation, and where
 * the sets are priced, the smaller of it and the priced one. */
static int64_t relaxed_bound(Sweep *S, int pi, int si, const State *st, int jl) {
    int64_t plain = plain_bound(S, pi, si, st, jl);
    if (S->status || !S->priced || plain == NEG) return plain;
    int64_t priced = priced_bound(S, pi, si, st, jl);
    if (S->status == ST_PRICES_SPENT) {
        S->status = ST_OK;
        S->priced = 0; /* from here on the plain relaxation alone */
        return plain;
    }
    if (S->status) return 0;
    return priced < plain ? priced : plain;
}

static int64_t plain_bound(Sweep *S, int pi, int si, const State *st, int jl) {
    int64_t tail = (int64_t)S->JH * S->wj;
    if (jl == 0 || S->J == 0) {
        int64_t v = tail;
        for (int s = 0; s < 4; s++) {
            int q = (pi < S->n && s < si) ? pi + 1 : pi;
            int64_t x = hval(S, s, q, st->codes[s], st->nr[s], 0, st->res[2 * s], st->res[2 * s + 1], 0);
            if (S->status) return 0;
            if (x == NEG) return NEG;
            v += x;
        }
        return v;
    }
    int64_t acc[64], m;
    if (jl > 63) jl = 63;
    for (int j = 0; j <= jl; j++) acc[j] = 0;
    int r = share_jokers(S, pi, si, st, jl, acc, 0, &m);
    if (r == SHARE_ERROR) return 0;
    if (r == SHARE_NO_LAY) return NEG;
    return m + tail;
}

static int64_t potential(Sweep *S, int pi, int si, const State *st) {
    int64_t v = S->pot[pi][si];
    if (S->both)
        for (int s = 0; s < 4; s++) {
            int t14 = st->res[2 * s], a14 = st->res[2 * s + 1];
            if (a14 > t14) v += (int64_t)(a14 - t14) * S->ace_w[s];
        }
    return v;
}

/* ------------------------------------------------------------------ the search */

/* The state's key: its scalars (pi .. nr, which tell the runs' lengths), then
 * each suit's runs, copied whole (fixed-size copies, inline: the next suit's
 * overwrite the rest) and padded to words. */
#define STATE_HEAD (offsetof(State, nr) + 4) /* not the padding byte before codes */
#define STATE_KEY_WORDS ((STATE_HEAD + 8 * MAXR + 8 + 7) / 8)
static inline size_t state_key(const State *st, uint64_t *key) {
    uint8_t *k = (uint8_t *)key;
    memcpy(k, st, STATE_HEAD);
    size_t kn = STATE_HEAD;
    for (int s = 0; s < 4; s++) {
        memcpy(k + kn, st->codes[s], 2 * MAXR);
        kn += 2 * (size_t)st->nr[s];
    }
    return key_words(key, kn);
}

/* The face of suit si at place index pi as the state sees it: table and
 * all counts and the fewest to use (with the ace at both ends, place 1 may
 * keep aces for place 14, which takes what was kept). */
typedef struct {
    int t, a, tmin, w, at1, at14;
} Face;

static Face face_at(Sweep *S, const State *st, int pi, int si) {
    Face f;
    int p = S->places[pi];
    f.t = S->ft[pi][si];
    f.a = S->fa[pi][si];
    f.tmin = f.t;
    f.w = S->fw[pi][si];
    f.at1 = S->both && p == 1;
    f.at14 = S->both && p == 14;
    if (f.at1)
        f.tmin = 0;
    else if (f.at14) {
        f.t = f.tmin = st->res[2 * si];
        f.a = st->res[2 * si + 1];
    }
    return f;
}

/* The state after option o (arena record) for suit si; returns its weight. */
static int64_t apply_option(const State *st, int si, const int32_t *o, const Face *f, State *c) {
    int onr = o[0], mm = o[1], u = o[2], jused = o[3];
    *c = *st;
    for (int q = 0; q < onr; q++) c->codes[si][q] = (uint16_t)o[4 + q];
    c->nr[si] = (uint8_t)onr;
    c->si = (uint8_t)(si + 1);
    c->jl = (uint8_t)(st->jl - jused);
    if (mm) msum_add(c->msum, mm);
    if (f->at1) {
        c->res[2 * si] = (uint8_t)(f->t - u > 0 ? f->t - u : 0);
        c->res[2 * si + 1] = (uint8_t)(f->a - u);
    } else if (f->at14) {
        c->res[2 * si] = 0;
        c->res[2 * si + 1] = 0;
    }
    return u > f->t ? (int64_t)(u - f->t) * f->w : 0;
}

static int64_t best(Sweep *S, const State *st, int64_t need) {
    uint64_t key[STATE_KEY_WORDS];
    size_t kn = state_key(st, key);
    uint64_t h = hash_words(key, kn);
    Entry *hit = map_get(&S->memo, key, kn, h);
    if (hit && (hit->x || hit->v < need)) return hit->v;
    S->calls++;
    if (S->calls == S->budget) {
        S->status = ST_BUDGET;
        return 0;
    }
    if (S->calls >= S->max_states) {
        S->status = ST_TIMEOUT;
        return 0;
    }
    if (S->deadline >= 0 && !(S->calls & 1023) && now() > S->deadline) {
        S->status = ST_TIMEOUT;
        return 0;
    }
    int pi = st->pi, si = st->si, jl = st->jl;
    if (pi == S->n) {
        int ok = 1;
        for (int s = 0; s < 4 && ok; s++)
            for (int i = 0; i < st->nr[s]; i++)
                if (!complete(S, st->codes[s][i])) {
                    ok = 0;
                    break;
                }
        int used = S->J - jl;
        int64_t v = (ok && used >= S->JT) ? (int64_t)(used - S->JT) * S->wj : NEG;
        if (!map_put(&S->memo, key, kn, h, v, 1)) goto nomem;
        return v;
    }
    int p = S->places[pi];
    if (st->msum[0] && si > 0 && si < 4) {
        int caps[4], nc = 0;
        for (int x = si; x < 4; x++) caps[nc++] = (S->both && p == 14) ? st->res[2 * x + 1] : S->fa[pi][x];
        if (!completable_cached(S, st->msum, caps, nc, jl)) {
            if (!map_put(&S->memo, key, kn, h, NEG, 1)) goto nomem;
            return NEG;
        }
    }
    int64_t bound = potential(S, pi, si, st);
    if (S->bound_on) {
        int64_t relaxed = relaxed_bound(S, pi, si, st, jl);
        if (S->status == ST_BOUND_SPENT) {
            S->status = ST_OK;
            S->bound_on = 0; /* from here on the hand's potential alone */
        } else if (S->status)
            return 0;
        else if (relaxed < bound)
            bound = relaxed;
    }
    if (bound < need) {
        if (!map_put(&S->memo, key, kn, h, bound, 0)) goto nomem;
        return bound;
    }
    int64_t bestv = NEG;
    if (si == 4) {
        uint64_t f = set_options(S, st->msum, jl);
        for (int j = 0; j <= jl && j < 64; j++) {
            if (!(f >> j & 1)) continue;
            State c = *st;
            c.pi = (uint8_t)(pi + 1);
            c.si = 0;
            c.jl = (uint8_t)(jl - j);
            memset(c.msum, 0, 4);
            int64_t sub = best(S, &c, need > bestv + 1 ? need : bestv + 1);
            if (S->status) return 0;
            if (sub > bestv) bestv = sub;
        }
    } else {
        Face f = face_at(S, st, pi, si);
        int cnt;
        long off = suit_options(S, st->codes[si], st->nr[si], f.tmin, f.a, jl, S->hi - p + 1, &cnt);
        if (off < 0) return 0;
        for (int i = 0; i < cnt; i++) {
            const int32_t *o = S->oa + off;
            off += 4 + o[0];
            State c;
            int64_t w = apply_option(st, si, o, &f, &c);
            int64_t floor = need > bestv + 1 ? need : bestv + 1;
            int64_t sub = best(S, &c, floor - w);
            if (S->status) return 0;
            if (sub == NEG) continue;
            if (sub + w > bestv) {
                bestv = sub + w;
                if (bestv >= bound) break;
            }
        }
    }
    if (!map_put(&S->memo, key, kn, h, bestv, (bestv >= need || bestv == NEG) ? 1 : 0)) goto nomem;
    return bestv;
nomem:
    S->status = ST_ERROR;
    PyErr_NoMemory();
    return 0;
}

/* ------------------------------------------------------------------ Python glue */

static int read_runs(Sweep *S, PyObject *runs, State *st) {
    if (!PyTuple_Check(runs) || PyTuple_GET_SIZE(runs) != 4) {
        PyErr_SetString(PyExc_TypeError, "runs: a tuple of four tuples");
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *suit = PyTuple_GET_ITEM(runs, s);
        if (!PyTuple_Check(suit) || PyTuple_GET_SIZE(suit) > MAXR) {
            PyErr_SetString(PyExc_OverflowError, "too many runs in progress for the compiled sweep");
            return -1;
        }
        st->nr[s] = (uint8_t)PyTuple_GET_SIZE(suit);
        for (int i = 0; i < st->nr[s]; i++) {
            int ln, nt, jk, ld;
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(suit, i), "iiii", &ln, &nt, &jk, &ld)) return -1;
            st->codes[s][i] = (uint16_t)enc(S, ln, nt, jk, ld);
        }
    }
    return 0;
}

static int read_res(PyObject *res, State *st) {
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 4) {
        PyErr_SetString(PyExc_TypeError, "res: four (table, all) pairs");
        return -1;
    }
    for (int s = 0; s < 4; s++) {
        int t14, a14;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(res, s), "ii", &t14, &a14)) return -1;
        st->res[2 * s] = (uint8_t)t14;
        st->res[2 * s + 1] = (uint8_t)a14;
    }
    return 0;
}

static int read_state(Sweep *S, PyObject *args, State *st, int64_t *need) {
    int pi, si, jl;
    PyObject *runs, *msum, *res;
    long long nd = 0;
    memset(st, 0, sizeof(*st));
    if (!PyArg_ParseTuple(args, "iiOOiOL", &pi, &si, &runs, &msum, &jl, &res, &nd)) return -1;
    if (jl < 0 || jl > S->J) {
        /* the relaxation's memo keeps J + 1 joker counts */
        PyErr_SetString(PyExc_OverflowError, "more jokers left than the compiled sweep was built with");
        return -1;
    }
    st->pi = (uint8_t)pi;
    st->si = (uint8_t)si;
    st->jl = (uint8_t)jl;
    if (read_runs(S, runs, st) < 0) return -1;
    if (!PyTuple_Check(msum) || PyTuple_GET_SIZE(msum) > 4) {
        PyErr_SetString(PyExc_TypeError, "msum: a tuple of at most four counts");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(msum); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(msum, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        st->msum[i] = (uint8_t)v;
    }
    if (read_res(res, st) < 0) return -1;
    *need = nd;
    return 0;
}

static PyObject *finish(Sweep *S, int64_t v) {
    int status = S->status;
    S->status = ST_OK;
    if (status == ST_ERROR) return NULL;
    return Py_BuildValue("iL", status, (long long)v);
}

static int set_limits(Sweep *S, PyObject *lim) {
    long long budget, max_states;
    double deadline;
    if (!PyArg_ParseTuple(lim, "LLd", &budget, &max_states, &deadline)) return -1;
    S->budget = budget;
    S->max_states = max_states;
    S->deadline = deadline;
    return 0;
}

/* The arguments of best, walk and rebuild: ((pi, si, runs, msum, jl, res,
 * value), limits); the limits are set, the state and the value read. */
static int read_call(Sweep *S, PyObject *args, State *st, int64_t *value) {
    PyObject *state, *lim;
    if (!PyArg_ParseTuple(args, "OO", &state, &lim)) return -1;
    if (set_limits(S, lim) < 0) return -1;
    return read_state(S, state, st, value);
}

static PyObject *Sweep_best(Sweep *S, PyObject *args) {
    State st;
    int64_t need;
    if (read_call(S, args, &st, &need) < 0) return NULL;
    S->status = ST_OK;
    int64_t v = best(S, &st, need);
    return finish(S, v);
}

static PyObject *Sweep_relaxed_bound(Sweep *S, PyObject *args) {
    int pi, si, jl;
    PyObject *runs, *res, *lim;
    if (!PyArg_ParseTuple(args, "iiOiOO", &pi, &si, &runs, &jl, &res, &lim)) return NULL;
    if (set_limits(S, lim) < 0) return NULL;
    if (jl < 0 || jl > S->J) {
        PyErr_SetString(PyExc_OverflowError, "more jokers left than the compiled sweep was built with");
        return NULL;
    }
    State st;
    memset(&st, 0, sizeof(st));
    if (read_runs(S, runs, &st) < 0) return NULL;
    if (read_res(res, &st) < 0) return NULL;
    S->status = ST_OK;
    int64_t v = relaxed_bound(S, pi, si, &st, jl);
    if (S->status == ST_BOUND_SPENT) S->bound_on = 0;
    return finish(S, v);
}

/* One step of the walk along an optimal path from st, whose value is
 * *target: the choice taken there (at the sets, the jokers given them; for a
 * suit, the index of its option in suit_options's order), with the state
 * after it in *next and *target lowered by what the step adds; -1 where the
 * memo holds no witness (a bug) or a status is set. */
static int walk_step(Sweep *S, const State *st, int64_t *target, State *next) {
    int pi = st->pi, si = st->si, jl = st->jl;
    if (si == 4) {
        uint64_t f = set_options(S, st->msum, jl);
        for (int j = 0; j <= jl && j < 64; j++) {
            if (!(f >> j & 1)) continue;
            *next = *st;
            next->pi = (uint8_t)(pi + 1);
            next->si = 0;
            next->jl = (uint8_t)(jl - j);
            memset(next->msum, 0, 4);
            int64_t v = best(S, next, *target);
            if (S->status) return -1;
            if (v == *target) return j;
        }
        return -1;
    }
    Face f = face_at(S, st, pi, si);
    int cnt;
    long off = suit_options(S, st->codes[si], st->nr[si], f.tmin, f.a, jl, S->hi - S->places[pi] + 1, &cnt);
    if (off < 0) return -1;
    for (int i = 0; i < cnt; i++) {
        const int32_t *o = S->oa + off;
        off += 4 + o[0];
        int64_t w = apply_option(st, si, o, &f, next);
        int64_t v = best(S, next, *target - w);
        if (S->status) return -1;
        if (v != NEG && v + w == *target) {
            *target -= w;
            return i;
        }
    }
    return -1;
}

/* The choices along an optimal path from a state whose value is known: per
 * suit step the index of the option taken (in the order of suit_options,
 * which is sweep._suit_options_base's), per place the jokers given to its
 * sets. The same walk as _Sweep.rebuild's, without a call from Python per
 * option. None if the memo holds no witness (a bug). */
static PyObject *Sweep_walk(Sweep *S, PyObject *args) {
    State st;
    int64_t target;
    if (read_call(S, args, &st, &target) < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    S->status = ST_OK;
    while (st.pi < S->n) {
        State next;
        int found = walk_step(S, &st, &target, &next);
        if (found < 0) break;
        PyObject *x = PyLong_FromLong(found);
        if (!x || PyList_Append(out, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(x);
        st = next;
    }
    int status = S->status;
    S->status = ST_OK;
    if (status == ST_ERROR) {
        Py_DECREF(out);
        return NULL;
    }
    if (status || st.pi < S->n) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    return out;
}

/* ------------------------------------------------------------------ the rebuild's bookkeeping
 * _Sweep.rebuild's run book, in C: which runs end, continue or start at each
 * step of the walk, in exactly the order the Python bookkeeping keeps them
 * (a dict per suit from run code to a list, popped from its end), so that
 * both give the same melds. */

#define RB_RUNS 256 /* runs in one arrangement (beyond: the Python bookkeeping) */

typedef struct {
    int g[MAXR]; /* per group of equal runs: its choice (index into Group.e) */
    int nn, nj, mm, u;
} Detail;

typedef struct {
    OptGen G;
    Detail cur;
    Detail *out;
    int n, cap, err;
} DetGen;

static void det_leaf(DetGen *D, int nat, int jok) {
    OptGen *G = &D->G;
    Sweep *S = G->S;
    int max_new_nat = G->room >= S->L ? G->a - nat : 0;
    int max_new_jok = (G->room >= S->L && (S->K < 0 || S->K >= 1) && !G->first) ? G->jl - jok : 0;
    for (int nn = 0; nn <= max_new_nat; nn++)
        for (int nj = 0; nj <= max_new_jok; nj++) {
            int used_runs = nat + nn;
            int lo_m = G->tmin - used_runs > 0 ? G->tmin - used_runs : 0;
            int hi_m = G->a - used_runs;
            for (int mm = lo_m; mm <= hi_m; mm++) {
                if (D->n == D->cap) {
                    int nc = D->cap ? D->cap * 2 : 64;
                    Detail *no = realloc(D->out, nc * sizeof(Detail));
                    if (!no) {
                        D->err = 1;
                        return;
                    }
                    D->out = no;
                    D->cap = nc;
                }
                Detail *d = &D->out[D->n++];
                *d = D->cur;
                d->nn = nn;
                d->nj = nj;
                d->mm = mm;
                d->u = used_runs + mm;
            }
        }
}

static void det_rec(DetGen *D, int i, int nat, int jok) {
    OptGen *G = &D->G;
    if (D->err) return;
    if (nat > G->a || jok > G->jl) return;
    if (i < G->ng) {
        Group *gr = &G->g[i];
        for (int o = 0; o < gr->nopts; o++) {
            D->cur.g[i] = o;
            det_rec(D, i + 1, nat + gr->e[o][1], jok + gr->e[o][2]);
            if (D->err) return;
        }
        return;
    }
    det_leaf(D, nat, jok);
}

/* The detail of option `index` of suit_options(R, ...): the same options in
 * the same order (generated depth first, then stably sorted on the naturals
 * used, most first). 0, or -1 when it cannot be told (memory, sizes). */
static int option_detail(Sweep *S, const uint16_t *R, int nr, int tmin, int a, int jl, int room, int index,
                         Group *groups, int *ngroups, Detail *out) {
    DetGen D; /* the scalars only, as in suit_options */
    D.out = NULL;
    D.n = D.cap = D.err = 0;
    OptGen *G = &D.G;
    G->count = G->err = 0;
    G->start = 0;
    G->S = S;
    G->tmin = tmin;
    G->a = a;
    G->jl = jl;
    G->room = room;
    G->first = room == 14;
    /* a group without any option, or too many: the walk never names an option here */
    if (make_groups(S, G->g, &G->ng, R, nr, room) != 0) return -1;
    det_rec(&D, 0, 0, 0);
    int found = -1;
    if (!D.err) {
        int maxu = 0;
        for (int i = 0; i < D.n; i++)
            if (D.out[i].u > maxu) maxu = D.out[i].u;
        int seen = 0;
        for (int u = maxu; u >= 0 && found < 0; u--)
            for (int i = 0; i < D.n; i++)
                if (D.out[i].u == u && seen++ == index) {
                    found = i;
                    break;
                }
    }
    if (found >= 0) {
        *out = D.out[found];
        memcpy(groups, G->g, G->ng * sizeof(Group));
        *ngroups = G->ng;
    }
    free(D.out);
    return found >= 0 ? 0 : -1;
}

typedef struct {
    int code, n;
    int runs[RB_RUNS];
} BookEntry;

typedef struct {
    BookEntry *e; /* insertion ordered */
    int n;
} Book;

typedef struct {
    int suit, start, len;
    char items[16];
} RunRec;

static BookEntry *book_slot(Book *b, int code, int create) {
    for (int i = 0; i < b->n; i++)
        if (b->e[i].code == code) return &b->e[i];
    if (!create) return NULL;
    BookEntry *x = &b->e[b->n++];
    x->code = code;
    x->n = 0;
    return x;
}

/* rebuild(state, limits) -> (runs, places) or None: the walk of `walk`, and
 * the run book kept along it. runs: (suit, start place, 'N'/'J' string), in
 * the order _Sweep.rebuild lists them; places: per place index, (counts to
 * sets per suit, jokers given to its sets). None where the bookkeeping
 * cannot be done here (the Python one then follows the walk). */
static PyObject *Sweep_rebuild(Sweep *S, PyObject *args) {
    State st;
    int64_t target;
    if (read_call(S, args, &st, &target) < 0) return NULL;
    RunRec *runs = malloc(RB_RUNS * sizeof(RunRec));
    int *done = malloc(RB_RUNS * sizeof(int));
    BookEntry *pool = malloc(2 * 4 * (2 * MAXR + 2) * sizeof(BookEntry));
    Group *groups = malloc(MAXR * sizeof(Group));
    int nruns = 0, ndone = 0, ok = 1;
    int place_m[MAXP][4], place_j[MAXP];
    memset(place_m, 0, sizeof(place_m));
    memset(place_j, 0, sizeof(place_j));
    Book book[4], nb;
    if (!runs || !done || !pool || !groups) {
        free(runs);
        free(done);
        free(pool);
        free(groups);
        return PyErr_NoMemory();
    }
    /* per suit a book of its own in the pool's first half; the second half builds the next */
    int per = 2 * MAXR + 2;
    for (int s = 0; s < 4; s++) {
        book[s].e = pool + s * per;
        book[s].n = 0;
    }
    S->status = ST_OK;
    while (ok && st.pi < S->n) {
        int pi = st.pi, si = st.si, jl = st.jl;
        State next;
        int found = walk_step(S, &st, &target, &next);
        if (found < 0) break;
        if (si == 4) {
            place_j[pi] = found;
            st = next;
            continue;
        }
        /* the bookkeeping of this step */
        Face fc = face_at(S, &st, pi, si);
        int room = S->hi - S->places[pi] + 1;
        Detail d;
        int ng = 0;
        if (option_detail(S, st.codes[si], st.nr[si], fc.tmin, fc.a, jl, room, found, groups, &ng, &d) < 0) {
            ok = 0;
            break;
        }
        Book *b = &book[si];
        BookEntry nbe[2 * MAXR + 2];
        nb.e = nbe;
        nb.n = 0;
        for (int g = 0; g < ng && ok; g++) {
            int e = groups[g].e[d.g[g]][0], cn = groups[g].e[d.g[g]][1], cj = groups[g].e[d.g[g]][2];
            BookEntry *lst = book_slot(b, groups[g].code, 0);
            if (!lst || lst->n != e + cn + cj) {
                ok = 0;
                break;
            }
            for (int q = 0; q < e; q++) done[ndone++] = lst->runs[--lst->n];
            for (int q = 0; q < cn; q++) {
                int r = lst->runs[--lst->n];
                runs[r].items[runs[r].len++] = 'N';
                BookEntry *x = book_slot(&nb, groups[g].nat_code, 1);
                x->runs[x->n++] = r;
            }
            for (int q = 0; q < cj; q++) {
                int r = lst->runs[--lst->n];
                runs[r].items[runs[r].len++] = 'J';
                BookEntry *x = book_slot(&nb, groups[g].jok_code, 1);
                x->runs[x->n++] = r;
            }
        }
        if (!ok || nruns + d.nn + d.nj > RB_RUNS) {
            ok = 0;
            break;
        }
        int p = S->places[pi];
        for (int q = 0; q < d.nn + d.nj; q++) {
            RunRec *r = &runs[nruns];
            r->suit = si;
            r->start = p;
            r->len = 1;
            r->items[0] = q < d.nn ? 'N' : 'J';
            int code = q < d.nn ? enc(S, 1, S->N < 1 ? S->N : 1, 0, room == 14 ? 2 : 0) : enc(S, 1, 0, S->K >= 0 ? 1 : 0, 1);
            BookEntry *x = book_slot(&nb, code, 1);
            x->runs[x->n++] = nruns++;
        }
        memcpy(b->e, nbe, nb.n * sizeof(BookEntry));
        b->n = nb.n;
        place_m[pi][si] = d.mm;
        st = next;
    }
    int status = S->status;
    S->status = ST_OK;
    PyObject *res = NULL;
    if (status == ST_ERROR) goto out;
    if (status || !ok || st.pi < S->n) {
        Py_INCREF(Py_None);
        res = Py_None;
        goto out;
    }
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < book[s].n; i++)
            for (int q = 0; q < book[s].e[i].n; q++) done[ndone++] = book[s].e[i].runs[q];
    PyObject *rl = PyList_New(ndone), *pl = PyList_New(S->n);
    if (!rl || !pl) {
        Py_XDECREF(rl);
        Py_XDECREF(pl);
        goto out;
    }
    for (int i = 0; i < ndone; i++) {
        RunRec *r = &runs[done[i]];
        PyObject *x = Py_BuildValue("(iis#)", r->suit, r->start, r->items, (Py_ssize_t)r->len);
        if (!x) {
            Py_DECREF(rl);
            Py_DECREF(pl);
            goto out;
        }
        PyList_SET_ITEM(rl, i, x);
    }
    for (int i = 0; i < S->n; i++) {
        PyObject *x = Py_BuildValue("((iiii)i)", place_m[i][0], place_m[i][1], place_m[i][2], place_m[i][3], place_j[i]);
        if (!x) {
            Py_DECREF(rl);
            Py_DECREF(pl);
            goto out;
        }
        PyList_SET_ITEM(pl, i, x);
    }
    res = Py_BuildValue("(NN)", rl, pl);
out:
    free(runs);
    free(done);
    free(pool);
    free(groups);
    return res;
}

/* Turns the relaxation on (where the sweep was built to use it) or off: the
 * search may begin on the hand's potential alone and build the relaxation
 * only when that does not settle the position quickly. */
static PyObject *Sweep_set_bound(Sweep *S, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    S->bound_on = on && S->use_h;
    Py_RETURN_NONE;
}

/* set_prices(prices (n*4), set suffix ((n+1)*(J+1)), scale): the relaxation
 * with the sets priced from here on, beside the plain one (its memo entries
 * keyed apart); called once per sweep (sweep._Sweep.price_sets). */
static PyObject *Sweep_set_prices(Sweep *S, PyObject *args) {
    PyObject *prices, *suffix;
    long long scale;
    if (!PyArg_ParseTuple(args, "OOL", &prices, &suffix, &scale)) return NULL;
    if (scale <= 0) {
        PyErr_SetString(PyExc_ValueError, "scale must be positive");
        return NULL;
    }
    PyObject *f = PySequence_Fast(prices, "prices");
    if (!f) return NULL;
    if (PySequence_Fast_GET_SIZE(f) != S->n * 4) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "prices: n*4 values expected");
        return NULL;
    }
    for (int i = 0; i < S->n * 4; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return NULL;
        }
        S->price[i / 4][i % 4] = v;
    }
    Py_DECREF(f);
    f = PySequence_Fast(suffix, "suffix");
    if (!f) return NULL;
    int w = S->J + 1;
    if (PySequence_Fast_GET_SIZE(f) != (S->n + 1) * w) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "suffix: (n+1)*(J+1) values expected");
        return NULL;
    }
    for (int i = 0; i < (S->n + 1) * w; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return NULL;
        }
        S->setsuf[i / w][i % w] = v;
    }
    Py_DECREF(f);
    S->pscale = scale;
    S->priced = 1;
    Py_RETURN_NONE;
}

static PyObject *Sweep_counts(Sweep *S, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("LL", (long long)S->calls, (long long)S->hcalls);
}

static int read_int_grid(PyObject *seq, int rows, int cols, int *out, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != rows * cols) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %d values expected", what, rows * cols);
        return -1;
    }
    for (int i = 0; i < rows * cols; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

static int Sweep_init(Sweep *S, PyObject *args, PyObject *kw) {
    /* (n, L, N, K, hi, both, places, ft, fa, fw, caps, pot, ace_w, J, JT, JH, wj, B, setfeas, use_h) */
    PyObject *places, *ft, *fa, *fw, *caps, *pot, *ace_w, *setfeas;
    long long wj;
    if (!PyArg_ParseTuple(args, "iiiiiiOOOOOOOiiiLiOi", &S->n, &S->L, &S->N, &S->K, &S->hi, &S->both, &places,
                          &ft, &fa, &fw, &caps, &pot, &ace_w, &S->J, &S->JT, &S->JH, &wj, &S->B, &setfeas,
                          &S->use_h))
        return -1;
    if (S->n < 0 || S->n > MAXP || S->J > 63 || S->J < 0 || S->B < 1 || S->B > 16) {
        PyErr_SetString(PyExc_OverflowError, "position beyond the compiled sweep's limits");
        return -1;
    }
    S->Kc = S->K >= 0 ? S->K : 0;
    if ((long)((S->L * (S->N + 1) + S->N) * (S->Kc + 1) + S->Kc) * 3 + 2 > 65535) {
        PyErr_SetString(PyExc_OverflowError, "meld rules beyond the compiled sweep's limits");
        return -1;
    }
    S->wj = wj;
    if (read_int_grid(places, 1, S->n, S->places, "places") < 0) return -1;
    int tmp[MAXP * 4];
    if (read_int_grid(ft, S->n, 4, tmp, "ft") < 0) return -1;
    memcpy(S->ft, tmp, sizeof(int) * S->n * 4);
    if (read_int_grid(fa, S->n, 4, tmp, "fa") < 0) return -1;
    memcpy(S->fa, tmp, sizeof(int) * S->n * 4);
    if (read_int_grid(fw, S->n, 4, tmp, "fw") < 0) return -1;
    memcpy(S->fw, tmp, sizeof(int) * S->n * 4);
    if (read_int_grid(caps, S->n, 4, tmp, "caps") < 0) return -1;
    memcpy(S->caps, tmp, sizeof(int) * S->n * 4);
    {
        PyObject *f = PySequence_Fast(pot, "pot");
        if (!f) return -1;
        if (PySequence_Fast_GET_SIZE(f) != (S->n + 1) * 5) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "pot: (n+1)*5 values expected");
            return -1;
        }
        for (int i = 0; i < (S->n + 1) * 5; i++) {
            long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(f);
                return -1;
            }
            S->pot[i / 5][i % 5] = v;
        }
        Py_DECREF(f);
        f = PySequence_Fast(ace_w, "ace_w");
        if (!f) return -1;
        for (int i = 0; i < 4 && i < PySequence_Fast_GET_SIZE(f); i++) {
            long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(f);
                return -1;
            }
            S->ace_w[i] = v;
        }
        Py_DECREF(f);
    }
    {
        PyObject *f = PySequence_Fast(setfeas, "setfeas");
        if (!f) return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
        if (n != (Py_ssize_t)S->B * S->B * S->B * S->B) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "setfeas: B**4 masks expected");
            return -1;
        }
        free(S->setfeas);
        S->setfeas = malloc(n * sizeof(uint64_t));
        if (!S->setfeas) {
            Py_DECREF(f);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
            if (v == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(f);
                return -1;
            }
            S->setfeas[i] = v;
        }
        Py_DECREF(f);
    }
    map_free(&S->memo);
    map_free(&S->hmemo);
    map_free(&S->ocache);
    if (build_dec(S) || map_init(&S->memo) || map_init(&S->hmemo) || map_init(&S->ocache)) {
        PyErr_NoMemory();
        return -1;
    }
    S->calls = S->hcalls = S->pcalls = 0;
    S->hvlen = 0;
    memset(S->ccache, 0, sizeof(S->ccache));
    S->status = ST_OK;
    S->bound_on = S->use_h;
    S->priced = 0;
    S->pscale = 1;
    return 0;
}

static void Sweep_dealloc(Sweep *S) {
    map_free(&S->memo);
    map_free(&S->hmemo);
    map_free(&S->ocache);
    free(S->oa);
    free(S->hv);
    free(S->dec);
    free(S->setfeas);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyMethodDef Sweep_methods[] = {
    {"best", (PyCFunction)Sweep_best, METH_VARARGS,
     "best(((pi, si, runs, msum, jl, res, need)), (budget, max_states, deadline)) -> (status, value)"},
    {"relaxed_bound", (PyCFunction)Sweep_relaxed_bound, METH_VARARGS,
     "relaxed_bound(pi, si, runs, jl, res, (budget, max_states, deadline)) -> (status, value)"},
    {"counts", (PyCFunction)Sweep_counts, METH_NOARGS, "(states, bound transitions) counted so far"},
    {"set_bound", (PyCFunction)Sweep_set_bound, METH_O, "set_bound(on): the relaxation in use or not"},
    {"set_prices", (PyCFunction)Sweep_set_prices, METH_VARARGS,
     "set_prices(prices, set suffix, scale): the relaxation with the sets priced"},
    {"rebuild", (PyCFunction)Sweep_rebuild, METH_VARARGS,
     "rebuild((pi, si, runs, msum, jl, res, value), limits) -> (runs, places) along an optimal path, or None"},
    {"walk", (PyCFunction)Sweep_walk, METH_VARARGS,
     "walk((pi, si, runs, msum, jl, res, value), limits) -> option indices along an optimal path, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SweepType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rami_core.solver._sweepc.Sweep",
    .tp_basicsize = sizeof(Sweep),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The sweep's memoised search on integer codes (see sweep.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Sweep_init,
    .tp_dealloc = (destructor)Sweep_dealloc,
    .tp_methods = Sweep_methods,
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_sweepc", "The sweep's search, compiled.", -1, NULL};

PyMODINIT_FUNC PyInit__sweepc(void) {
    if (PyType_Ready(&SweepType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&SweepType);
    if (PyModule_AddObject(m, "Sweep", (PyObject *)&SweepType) < 0) {
        Py_DECREF(&SweepType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
