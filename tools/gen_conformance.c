/* gen_conformance: writes the conformance battery, one JSON file per case
 * (conformance/cases/ID.json, schema expmech-conformance-1), from the definitions below and
 * the oracle (em_case_new of the inputs: the law at 40 digits, the mistakes each case catches).
 *
 *   gen_conformance DIR        (make conformance-cases; make check regenerates and compares)
 *
 * Every case is here with the reason it is hard.  Numbers are exact texts; lists are
 * comma-separated, pieces "lo,hi,a,b" separated by ';'.  Permute-and-flip cases keep to at
 * most 4096 candidates, the limit of the library's exact permute-and-flip law. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expmech.h"

#define MAX_DRAWS 1000000ULL
#define RUNS 3   /* 10^4, 10^5, 10^6 draws */
#define TESTS 4  /* the tests of a run (src/api/em_conform.c) */

enum { STD = EM_STANDARD, MON = EM_MONOTONE, PF = EM_PF };

typedef struct def {
    const char *id, *title;
    int kind;
    const char *eps, *delta;
    int variant, error;
    const char *labels, *u, *meas; /* finite kinds */
    const char *pieces;            /* continuous */
    const char *data, *alpha, *bounds; /* quantile */
    const char *f;                 /* laplace */
    char *(*gen)(int which);       /* a generated list: which 0 utilities, 1 data */
} def;

/* ------------------------------------------------------------ generated lists */

static char *join_fmt(size_t n, void (*item)(size_t i, char *buf, size_t cap))
{
    size_t cap = n * 48 + 16, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char b[64];
        item(i, b, sizeof b);
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? "," : "", b);
    }
    return s;
}

static void u_100k(size_t i, char *b, size_t cap)
{
    unsigned v = (unsigned)((7919 * i) % 1000);
    snprintf(b, cap, "%u.%02u", v / 100, v % 100);
}
static void u_1k(size_t i, char *b, size_t cap)
{
    unsigned v = (unsigned)(i % 37);
    snprintf(b, cap, "%s%u/4", v ? "-" : "", v);
}
static void u_pf1k(size_t i, char *b, size_t cap)
{
    unsigned v = (unsigned)((31 * i) % 101);
    snprintf(b, cap, "%u.%u", v / 10, v % 10);
}
static void u_pf4096(size_t i, char *b, size_t cap)
{
    unsigned v = (unsigned)(i % 64);
    snprintf(b, cap, "%s%u/8", v ? "-" : "", v);
}
static void d_ties80(size_t i, char *b, size_t cap)
{
    /* 80 of 100 values equal (50), the rest spread over [0, 95] */
    if (i < 80)
        snprintf(b, cap, "50");
    else
        snprintf(b, cap, "%zu", (i - 80) * 5);
}
static void d_1k(size_t i, char *b, size_t cap)
{
    unsigned v = (unsigned)((7919 * i) % 1000);
    snprintf(b, cap, "%u.%u", v / 10, v % 10);
}
static void d_narrow(size_t i, char *b, size_t cap)
{
    snprintf(b, cap, "0.%02zu", i);
}
static void d_underflow(size_t i, char *b, size_t cap)
{
    /* 0, then 5000 equal values 5, then 10: the quantile at 1/2 sits inside the ties */
    snprintf(b, cap, "%s", i == 0 ? "0" : i == 5001 ? "10" : "5");
}

static char *g_100k(int w) { (void)w; return join_fmt(100000, u_100k); }
static char *g_1k(int w) { (void)w; return join_fmt(1000, u_1k); }
static char *g_pf1k(int w) { (void)w; return join_fmt(300, u_pf1k); }
static char *g_pf4096(int w) { (void)w; return join_fmt(500, u_pf4096); }
static char *g_ties80(int w) { (void)w; return join_fmt(100, d_ties80); }
static char *g_d1k(int w) { (void)w; return join_fmt(1000, d_1k); }
static char *g_narrow(int w) { (void)w; return join_fmt(100, d_narrow); }
static char *g_underflow(int w) { (void)w; return join_fmt(5002, d_underflow); }

/* 10^300 - k, exactly, as digits */
static char *near_1e300(int neg, const char *ks)
{
    size_t cap = 64 * 1024;
    char *s = malloc(cap);
    size_t len = 0;
    for (const char *k = ks; *k; k++) {
        if (*k == ',')
            continue;
        int d = *k - '0';
        if (len)
            s[len++] = ',';
        if (neg)
            s[len++] = '-';
        if (d == 0) {
            len += (size_t)sprintf(s + len, "1e300");
            continue;
        }
        for (int i = 0; i < 299; i++)
            s[len++] = '9';
        s[len++] = (char)('0' + 10 - d);
    }
    s[len] = 0;
    return s;
}
static char *g_pos1e300(int w) { (void)w; return near_1e300(0, "0,1,2,3"); }
static char *g_neg1e300(int w) { (void)w; return near_1e300(1, "0,2,5"); }

/* ------------------------------------------------------------ the battery */

#define FIN(id, t, e, d, v, lab, u) {id, t, EM_KIND_FINITE, e, d, v, 0, lab, u, NULL, NULL, NULL, NULL, NULL, NULL, NULL}
#define FING(id, t, e, d, v, g) {id, t, EM_KIND_FINITE, e, d, v, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, g}
#define WEI(id, t, e, d, v, u, m) {id, t, EM_KIND_WEIGHTED, e, d, v, 0, NULL, u, m, NULL, NULL, NULL, NULL, NULL, NULL}
#define PFC(id, t, e, d, lab, u) {id, t, EM_KIND_PF, e, d, PF, 0, lab, u, NULL, NULL, NULL, NULL, NULL, NULL, NULL}
#define PFG(id, t, e, d, g) {id, t, EM_KIND_PF, e, d, PF, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, g}
#define CON(id, t, e, d, v, p) {id, t, EM_KIND_CONTINUOUS, e, d, v, 0, NULL, NULL, NULL, p, NULL, NULL, NULL, NULL, NULL}
#define QUA(id, t, e, data, al, b) {id, t, EM_KIND_QUANTILE, e, "1", STD, 0, NULL, NULL, NULL, NULL, data, al, b, NULL, NULL}
#define QUAG(id, t, e, g, al, b) {id, t, EM_KIND_QUANTILE, e, "1", STD, 0, NULL, NULL, NULL, NULL, NULL, al, b, NULL, g}
#define LAP(id, t, e, d, f) {id, t, EM_KIND_LAPLACE, e, d, STD, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, f, NULL}

static const char *const PRICING = "0,1,0,4;1,3.01,0,1;3.01,3.5,0,0";

static const def battery[] = {
    /* ---- finite */
    FIN("T01", "seven candidates, utilities 0 to 6: the textbook case", "1", "1", STD, NULL,
        "0,1,2,3,4,5,6"),
    FIN("T02", "ties: three candidates share the best utility", "1", "1", STD, NULL, "1,1,1,0,0"),
    FIN("T03", "excluded candidates (utility -inf) are never drawn", "1", "1", STD,
        "a,b,c,d,e", "2,-inf,1,-inf,0"),
    FIN("T04", "one candidate: probability 1", "1", "1", STD, "only", "5"),
    FIN("T05", "one candidate left among excluded ones", "1", "1", STD, "x,y,z", "-inf,3,-inf"),
    FING("T06", "100000 candidates, utilities ((7919 i) mod 1000)/100", "1", "1", STD, g_100k),
    FIN("T07", "a score that is not monotone: the standard variant's factor 1/2 matters", "1",
        "1", STD, "north,east,south,west,centre", "0,-1,-2.5,-4,-7"),
    {"T08", "utilities 10^300 - k: a naive exp overflows, and their differences are below a "
            "double's resolution", EM_KIND_FINITE, "1", "1", STD, 0, "u0,u1,u2,u3", NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, g_pos1e300},
    {"T09", "utilities near -10^300: every naive weight underflows to 0", EM_KIND_FINITE, "1",
     "1", STD, 0, "v0,v2,v5", NULL, NULL, NULL, NULL, NULL, NULL, NULL, g_neg1e300},
    FIN("T10", "utilities 1e300, 0 and -1e300: two probabilities below the smallest double",
        "1", "1", STD, "top,mid,low", "1e300,0,-1e300"),
    FIN("T11", "epsilon 1e-9 with utilities 0 to 6e9: epsilon times u of order 1", "1e-9", "1",
        STD, NULL, "0,1e9,2e9,3e9,4e9,5e9,6e9"),
    FIN("T12", "epsilon 1e-9 with utilities 0 to 6: nearly uniform, only gross mistakes show",
        "1e-9", "1", STD, NULL, "0,1,2,3,4,5,6"),
    FIN("T13", "epsilon 1e4 with utilities 1e-3 apart", "1e4", "1", STD, NULL,
        "0,0.001,0.0015,0.002,0.003"),
    FIN("T14", "epsilon 1e4 with utilities 0 to 3: the rest of the law is below 2^-1074",
        "1e4", "1", STD, NULL, "0,1,2,3"),
    FIN("T15", "a sensitivity that is not an integer (0.37)", "1", "0.37", STD, NULL,
        "0,0.1,0.5,0.9"),
    FIN("T16", "a huge sensitivity (10^6) with utilities of the same size", "1", "1e6", STD,
        NULL, "0,1e6,2.5e6,3e6"),
    FIN("T17", "sensitivity and utilities in thirds (exact fractions)", "1", "1/3", STD, NULL,
        "0,1/3,2/3,1"),
    FIN("T18", "negative utilities", "0.5", "1", STD, NULL, "-10,-11,-13,-17"),
    FIN("T19", "the monotone variant (counts): weight exp(eps u / Delta)", "0.5", "1", MON, NULL,
        "0,3,5,9"),
    FIN("T20", "the monotone variant with sensitivity 2", "1", "2", MON, NULL, "0,1,2,3,4,5"),
    FIN("T21", "utilities given as C99 hex floats", "1", "1", STD, NULL,
        "0x1.8p-1,0x1p-1,-0x1.4p0,0x1.fffffffffffffp-2"),
    FIN("T22", "utilities that are fractions", "2", "1", STD, NULL, "1/3,2/3,1/7,-5/11"),
    FIN("T23", "one best candidate among 50 tied ones", "1", "1", STD, NULL,
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
        "0,0,0,0,0,0,0,1"),
    FIN("T24", "two candidates 1e-300 apart (a tie for doubles) beside two worse ones", "1", "1",
        STD, NULL, "0,1e-300,-1,-2"),
    FIN("T25", "excluded candidates around the only two that count", "1", "1", STD, NULL,
        "-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,-inf,0,-inf,-inf,-inf,-inf,-inf,-inf,-inf,"
        "-inf,-inf,-inf,1"),
    FIN("T26", "seed 000: marital statuses, counts / 1000", "1", "1", STD,
        "Married-civ-spouse,Never-married,Divorced,Separated,Widowed,Married-AF-spouse,"
        "Married-spouse-absent",
        "14.976,10.683,4.443,1.025,0.993,0.023,0.418"),
    FING("T27", "1000 candidates, utilities -(i mod 37)/4", "0.5", "1", STD, g_1k),
    /* ---- weighted */
    WEI("T28", "equal utilities: the law is the measure", "1", "1", STD, "0,0,0,0", "1,2,3,4"),
    WEI("T29", "a measure against the utilities", "1", "1", STD, "3,2,1,0", "1,10,100,1000"),
    WEI("T30", "measure 0 on the best candidate", "1", "1", STD, "5,1,0", "0,1,1"),
    WEI("T31", "every positive-measure weight below the smallest double (the best has measure 0)",
        "1", "1", STD, "0,-2000,-2010,-2020", "0,1,2,1"),
    WEI("T32", "fractional measures", "1", "1", STD, "0,1,2,0", "1/3,2/3,1/7,5"),
    WEI("T33", "a measure on an excluded candidate", "1", "1", STD, "-inf,1,0", "5,1,1"),
    WEI("T34", "a measure with the monotone variant", "1", "1", MON, "0,1,2,3", "4,3,2,1"),
    WEI("T35", "a measure, sensitivity 2.5, epsilon 0.3", "0.3", "2.5", STD, "0,2.5,5,7.5",
        "1,1,2,2"),
    /* ---- permute-and-flip */
    PFC("T36", "permute-and-flip on utilities 0 to 6 (its law is not the EM's)", "1", "1", NULL,
        "0,1,2,3,4,5,6"),
    PFC("T37", "permute-and-flip with ties at the top", "1", "1", NULL, "1,1,1,0,0"),
    PFC("T38", "permute-and-flip with excluded candidates", "1", "1", "a,b,c,d,e",
        "2,-inf,1,-inf,0"),
    PFG("T39", "permute-and-flip over 300 candidates", "1", "1", g_pf1k),
    PFC("T40", "permute-and-flip, epsilon 0.1, utilities 10 apart", "0.1", "1", NULL,
        "0,10,20,30,40,50,60"),
    PFC("T41", "permute-and-flip, negative utilities, sensitivity 2", "1", "2", NULL,
        "-1,-3,-4,-8"),
    PFC("T42", "permute-and-flip with two candidates", "2", "1", NULL, "0,1"),
    PFG("T43", "permute-and-flip over 500 candidates with 64 distinct utilities", "1", "1",
        g_pf4096),
    {"T44", "permute-and-flip on utilities 10^300 - k", EM_KIND_PF, "1", "1", PF, 0, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL, NULL, g_pos1e300},
    PFC("T45", "permute-and-flip, epsilon 1e-9, utilities 0 to 6e9", "1e-9", "1", NULL,
        "0,1e9,2e9,3e9,4e9,5e9,6e9"),
    /* ---- continuous */
    CON("T46", "seed 003: a posted price on [0, 3.5], epsilon 1", "1", "3.5", STD, PRICING),
    CON("T47", "seed 003: the posted price at epsilon 5", "5", "3.5", STD, PRICING),
    CON("T48", "rays on both sides", "1", "1", STD, "-inf,0,0,1;0,1,0,0;1,inf,1,-1"),
    CON("T49", "gaps, and zero-width pieces (one alone inside a gap)", "1", "1", STD,
        "-inf,0,0,1;0,0,5,0;1,2,0,0;2.5,2.5,3,0;3,4,1,-1;4,inf,0,-1"),
    CON("T50", "seed 002: the median of 7 values over [0, 400] (rank distance)", "1", "2", STD,
        "0,1,-8,0;1,100,-6,0;100,102,-4,0;102,104,-2,0;104,105,-2,0;105,200,-4,0;200,365,-6,0;"
        "365,400,-8,0"),
    CON("T51", "steep slopes on short pieces", "1", "1", STD, "0,0.1,0,100;0.1,0.2,20,-100;0.2,1,0,0"),
    CON("T52", "one linear piece", "2", "1", STD, "0,1,0,3"),
    CON("T53", "a constant utility: the uniform law (no mistake shows; a draw must stay in "
               "[0, 10])", "1", "1", STD, "0,10,0,0"),
    CON("T54", "the posted price with the monotone variant", "1", "3.5", MON, PRICING),
    CON("T55", "a sensitivity of 1/2", "1", "0.5", STD, "0,2,0,1;2,3,2,0"),
    CON("T56", "pieces 1e-12 wide carrying the best utility", "1", "1", STD,
        "0,1e-12,3,0;1e-12,1,0,0;1,1.000000000001,3,0;1.000000000001,2,0,0"),
    CON("T57", "a range near 10^15, where doubles are 0.125 apart", "1", "1", STD,
        "1e15,1000000000000010,0,0;1000000000000010,1000000000000020,1,0"),
    CON("T58", "a left ray and a decreasing piece", "1", "1", STD, "-inf,0,0,2;0,5,0,-1"),
    /* ---- quantile (diffprivlib's convention) */
    QUA("T59", "the median of 10 values in [0, 25]", "1", "1,3,4,7,9,12,15,16,20,24", "1/2",
        "0,25"),
    QUAG("T60", "80% of the data equal, alpha 0.01", "1", g_ties80, "0.01", "0,100"),
    QUAG("T61", "80% of the data equal, alpha 0.5", "1", g_ties80, "0.5", "0,100"),
    QUAG("T62", "80% of the data equal, alpha 0.9", "1", g_ties80, "0.9", "0,100"),
    QUAG("T63", "bounds only 1e-6 wide: a draw outside them is impossible", "1", g_narrow,
         "0.5", "0.5,0.500001"),
    QUA("T64", "data outside the bounds (clipped)", "1", "-5,-1,0.5,2,3,50,100", "0.25", "0,10"),
    QUAG("T65", "1000 values, alpha 0.25, epsilon 0.1", "0.1", g_d1k, "0.25", "0,100"),
    QUA("T66", "epsilon 10: nearly the exact median", "10", "1,3,4,7,9,12,15,16,20,24", "1/2",
        "0,25"),
    QUAG("T67", "ties at the quantile: every positive-length interval's weight underflows", "1",
         g_underflow, "0.5", "0,10"),
    /* ---- Laplace on the real line */
    LAP("T68", "Laplace: f = 3.5, Delta_f = 1, epsilon 1 (scale 2, not 1)", "1", "1", "3.5"),
    LAP("T69", "Laplace: f = 0, Delta_f = 2, epsilon 0.5", "0.5", "2", "0"),
    LAP("T70", "Laplace: f = 10^6", "1", "1", "1e6"),
    LAP("T71", "Laplace: f = -2.25, Delta_f = 0.1, epsilon 10", "10", "0.1", "-2.25"),
    LAP("T72", "Laplace: epsilon 0.01 (scale 200)", "0.01", "1", "7"),
    /* ---- input a correct sampler refuses */
    {"T73", "epsilon 0", EM_KIND_FINITE, "0", "1", STD, 1, NULL, "0,1,2", NULL, NULL, NULL, NULL,
     NULL, NULL, NULL},
    {"T74", "a negative epsilon", EM_KIND_FINITE, "-1", "1", STD, 1, NULL, "0,1,2", NULL, NULL,
     NULL, NULL, NULL, NULL, NULL},
    {"T75", "epsilon NaN", EM_KIND_FINITE, "nan", "1", STD, 1, NULL, "0,1,2", NULL, NULL, NULL,
     NULL, NULL, NULL, NULL},
    {"T76", "a NaN utility", EM_KIND_FINITE, "1", "1", STD, 1, NULL, "0,nan,2", NULL, NULL, NULL,
     NULL, NULL, NULL, NULL},
    {"T77", "an empty candidate set", EM_KIND_FINITE, "1", "1", STD, 1, NULL, "", NULL, NULL,
     NULL, NULL, NULL, NULL, NULL},
    {"T78", "every candidate excluded", EM_KIND_FINITE, "1", "1", STD, 1, NULL, "-inf,-inf",
     NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {"T79", "a measure that is 0 everywhere", EM_KIND_WEIGHTED, "1", "1", STD, 1, NULL, "0,1",
     "0,0", NULL, NULL, NULL, NULL, NULL, NULL},
    {"T80", "a continuous range of infinite mass (a rising ray)", EM_KIND_CONTINUOUS, "1", "1",
     STD, 1, NULL, NULL, NULL, "0,inf,0,1", NULL, NULL, NULL, NULL, NULL},
    {"T81", "a continuous range of infinite mass (a flat ray)", EM_KIND_CONTINUOUS, "1", "1",
     STD, 1, NULL, NULL, NULL, "-inf,0,0,0", NULL, NULL, NULL, NULL, NULL},
    {"T82", "Laplace with sensitivity 0", EM_KIND_LAPLACE, "1", "0", STD, 1, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, "0", NULL},
    {"T83", "a quantile at a negative epsilon", EM_KIND_QUANTILE, "-0.5", "1", STD, 1, NULL,
     NULL, NULL, NULL, "1,2,3", "0.5", "0,4", NULL, NULL},
};

#define NCASES (sizeof battery / sizeof *battery)

/* The quick cases (expmech conform --quick, make check): every kind, and a case that
 * catches each mistake within 10^4 draws, or breaks a naive implementation. */
static const char *const QUICK[] = {
    "T01", "T03", "T04", "T07", "T08", "T09", "T10", "T16", "T19", "T20", "T26",
    "T28", "T29", "T30", "T31", "T36", "T38", "T41", "T46", "T47", "T50", "T51",
    "T54", "T59", "T61", "T63", "T67", "T68", "T69", "T73", "T76", "T77", "T80"};

static int is_quick(const char *id)
{
    for (size_t i = 0; i < sizeof QUICK / sizeof *QUICK; i++)
        if (!strcmp(QUICK[i], id))
            return 1;
    return 0;
}

/* ------------------------------------------------------------ splitting */

typedef struct list {
    char **v;
    size_t n;
    char *buf;
} list;

static void split(const char *s, char sep, list *l)
{
    l->v = NULL;
    l->n = 0;
    l->buf = NULL;
    if (!s)
        return;
    l->buf = strdup(s);
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == sep;
    l->v = calloc(cap, sizeof *l->v);
    if (!*s)
        return;
    char *p = l->buf;
    for (;;) {
        l->v[l->n++] = p;
        char *q = strchr(p, sep);
        if (!q)
            break;
        *q = 0;
        p = q + 1;
    }
}

static void unsplit(list *l)
{
    free(l->v);
    free(l->buf);
}

static int write_case(const def *d, const char *dir, double alpha)
{
    em_case in;
    memset(&in, 0, sizeof in);
    in.id = d->id;
    in.title = d->title;
    in.kind = d->kind;
    in.expect_error = d->error;
    in.quick = is_quick(d->id);
    in.epsilon = d->eps;
    in.sensitivity = d->delta;
    in.variant = d->variant;
    list lab, u, m, data, b, pieces, cols[4];
    memset(cols, 0, sizeof cols);
    char *gen = d->gen ? d->gen(0) : NULL;
    split(d->labels, ',', &lab);
    split(d->kind == EM_KIND_QUANTILE ? NULL : gen ? gen : d->u, ',', &u);
    split(d->meas, ',', &m);
    split(d->kind == EM_KIND_QUANTILE ? (gen ? gen : d->data) : NULL, ',', &data);
    split(d->bounds, ',', &b);
    split(d->pieces, ';', &pieces);
    if (d->kind == EM_KIND_FINITE || d->kind == EM_KIND_WEIGHTED || d->kind == EM_KIND_PF) {
        in.n = u.n;
        in.utilities = (const char *const *)u.v;
        in.labels = d->labels ? (const char *const *)lab.v : NULL;
        in.measure = d->meas ? (const char *const *)m.v : NULL;
        if (d->labels && lab.n != u.n) {
            fprintf(stderr, "gen_conformance: %s: %zu labels for %zu utilities\n", d->id, lab.n,
                    u.n);
            return 1;
        }
    } else if (d->kind == EM_KIND_CONTINUOUS) {
        for (int k = 0; k < 4; k++) {
            cols[k].v = calloc(pieces.n + 1, sizeof(char *));
            cols[k].n = pieces.n;
        }
        for (size_t j = 0; j < pieces.n; j++) {
            list f;
            split(pieces.v[j], ',', &f);
            if (f.n != 4) {
                fprintf(stderr, "gen_conformance: %s: piece %zu is not lo,hi,a,b\n", d->id, j);
                return 1;
            }
            for (int k = 0; k < 4; k++)
                cols[k].v[j] = strdup(f.v[k]);
            unsplit(&f);
        }
        in.npieces = pieces.n;
        in.lo = (const char *const *)cols[0].v, in.hi = (const char *const *)cols[1].v;
        in.a = (const char *const *)cols[2].v, in.b = (const char *const *)cols[3].v;
    } else if (d->kind == EM_KIND_QUANTILE) {
        in.ndata = data.n;
        in.data = (const char *const *)data.v;
        in.alpha = d->alpha;
        in.bound_lo = b.n == 2 ? b.v[0] : NULL;
        in.bound_hi = b.n == 2 ? b.v[1] : NULL;
    } else {
        in.f = d->f;
    }
    em_case *c = NULL;
    em_error e;
    int rc = 0;
    if (em_case_new(&(em_case_spec){.def = &in, .alpha = alpha, .max_draws = MAX_DRAWS}, &c, &e) !=
        EM_OK) {
        fprintf(stderr, "gen_conformance: %s\n", e.msg);
        rc = 1;
    } else {
        size_t len = strlen(dir) + strlen(d->id) + 8;
        char *path = malloc(len);
        snprintf(path, len, "%s/%s.json", dir, d->id);
        FILE *f = fopen(path, "wb");
        if (!f || em_write(c, f, NULL, &e) != EM_OK || fclose(f) != 0) {
            fprintf(stderr, "gen_conformance: %s: cannot write\n", path);
            rc = 1;
        }
        free(path);
    }
    em_free(c);
    for (int k = 0; k < 4; k++) {
        for (size_t j = 0; j < cols[k].n; j++)
            free(cols[k].v[j]);
        free(cols[k].v);
    }
    unsplit(&lab), unsplit(&u), unsplit(&m), unsplit(&data), unsplit(&b), unsplit(&pieces);
    free(gen);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_conformance DIR\n");
        return 2;
    }
    /* the level of each test when the whole battery runs (src/api/em_conform.c) */
    double alpha = 1e-6 / ((double)NCASES * RUNS * TESTS);
    int rc = 0;
    for (size_t i = 0; i < NCASES; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rc |= write_case(&battery[i], argv[1], alpha);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (getenv("GEN_TIMES"))
            fprintf(stderr, "%s %.3f s\n", battery[i].id,
                    (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    }
    if (!rc)
        fprintf(stderr, "gen_conformance: %zu cases written to %s\n", NCASES, argv[1]);
    return rc;
}
