/* bench_speed: one figure of the side-by-side benchmark, in its own process
 * (`make bench` runs mk/bench.sh, which runs this once per figure; never a test).
 *
 *   bench_speed FIGURE N      prints {"name": FIGURE, "value": V, "unit": "us", "n": N}
 *
 * V is microseconds per operation, the median of several timed batches after one warm-up
 * operation (details on standard error), in CPU time (BENCH_CLOCK=wall: wall time).  The figures go through the library's own
 * functions, so whatever the library gains shows here unchanged:
 *   float_oneshot     prepare + one draw: em_weights_fixed_u (em_logweights + em_weights_fixed
 *                     in one pass, as the float sampler prepares) + em_sample_fixed, eps =
 *                     delta = 1, standard variant, into buffers the caller allocated once
 *                     (as a program drawing repeatedly would)
 *   float_many        one draw of FLOAT_MANY_K from a table prepared once, in one call of
 *                     em_sample_cumulative_many (as the float sampler draws many); the time
 *                     is per draw
 *   exact_oneshot     one exact draw (for the reals the doubles denote) on the float
 *                     figures' doubles without keeping a sampler: em_exact_sample_d; its
 *                     problem (em_problem_doubles: epsilon, the sensitivity and c as exact
 *                     rationals, the utilities by reference) built once, outside the
 *                     timing, as the float figures take theirs as arguments
 *   exact_oneshot_kept  the same draw through a sampler: em_exact_new_d + one
 *                     em_exact_sample + em_exact_free
 *   exact_oneshot_q   the same through the rational constructor em_exact_new (the
 *                     rationals u_i = count/1000 or -i/1000 built once, outside the timing)
 *   oracle_probs_40d  em_oracle_new + every candidate's 40-digit probability + free, on
 *                     bench_oracle's scenario u_i = ((7919 i) mod 1000003) / 1000
 *   cli_parse         em_scn_read of an in-memory "label,utility" buffer, compact as
 *                     the CLI (em_scn) parses, + em_scn_clear
 *   pf_probs          permute-and-flip's exact law (em_pf_law.h): em_pfl_new + every
 *                     candidate's probability and log-probability to 17 digits and as
 *                     doubles (what `expmech probs --variant pf` computes) + free
 *   pf_probs_old      the same by the O(n^2) brute force as `expmech probs --variant pf` did
 *                     before (tests/em_pf_brute.h: Ziv on em_pf_pmf_brute_bounds); one run when
 *                     one operation takes over 10 s
 *   limit_scalar      bench_limit.h: scalar exp pass over u (-O2, not vectorised)
 *   limit_vector      libmvec's exp over u: AVX2 where the CPU has it (as -march=native
 *                     builds it here), else SSE2; limit_vector_sse2 / _avx512 the others
 *   limit_memory      one vectorised read pass summing u
 * Utilities: n = 7 the marital counts / 1000 (seed 000); otherwise u_i = -i/1000, which is
 * also what the CLI buffer holds, written as decimals (-12.345). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gmp.h>

#include "bench_limit.h"
#include "expmech.h"
#include "io/em_scn_text.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf_law.h"
#include "tests/em_problem_util.h"
#include "tests/em_pf_brute.h"
#include "api/em_seeds.h"

/* CPU time of this process by default: on a shared machine wall time also counts the time
 * other processes hold the CPU, which no figure here should (they are single-threaded, so
 * on an idle machine both clocks agree).  BENCH_CLOCK=wall measures wall time. */
static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID;

/* operations per call of the figure's op (float_many: a batch of draws) */
static double ops_per_call = 1;

static double now(void)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct ctx {
    size_t n;
    double *u, *lw, *w;
    uint64_t *W, *C, total;
    em_rng rng;
    em_bits bits;
    mpq_t *q, eps;
    em_problem prob; /* exact_oneshot's */
    char *buf;
    size_t len;
    char **dec, **lg; /* pf_probs: the strings of one operation */
    double *pd, *ld;
    double sink; /* every operation adds to it: the compiler cannot drop the work */
} ctx;

/* One operation per call; returns 0, or non-zero on a library error (reported). */
typedef int (*op_fn)(ctx *c);

static int fail(const char *what, int st)
{
    fprintf(stderr, "bench_speed: %s: %s\n", what, em_strerror(st));
    return 1;
}

static int op_float_oneshot(ctx *c)
{
    size_t argmax, r;
    uint64_t scale;
    int st = em_weights_fixed_u(c->n, c->u, 1.0, 1.0, EM_STANDARD, c->W, &c->total, &scale, &argmax);
    if (st == EM_OK)
        st = em_sample_fixed(c->n, c->W, c->total, &c->rng, &r);
    if (st != EM_OK)
        return fail("float_oneshot", st);
    c->sink += (double)r;
    return 0;
}

/* as the library's float sampler draws many: FLOAT_MANY_K draws in one call (a uniform
 * below the total, then the proven binary search in the cumulative table built once) */
#define FLOAT_MANY_K 1000
static size_t many_out[FLOAT_MANY_K];

static int op_float_many(ctx *c)
{
    int st = em_sample_cumulative_many(c->n, c->C, &c->rng, FLOAT_MANY_K, many_out);
    if (st != EM_OK)
        return fail("float_many", st);
    c->sink += (double)many_out[FLOAT_MANY_K - 1];
    return 0;
}

static int op_exact_oneshot(ctx *c)
{
    size_t r;
    int st = em_exact_sample_d(&c->prob, &c->bits, &r, NULL);
    if (st != EM_OK)
        return fail("exact_oneshot", st);
    c->sink += (double)r;
    return 0;
}

/* the same draw through a sampler built, used once and freed */
static int op_exact_oneshot_kept(ctx *c)
{
    em_exact *x;
    size_t r;
    int st = em_exact_new_d(&c->prob, &x, NULL);
    if (st != EM_OK)
        return fail("exact_oneshot_kept", st);
    st = em_exact_sample(x, &c->bits, &r);
    em_exact_free(x);
    if (st != EM_OK)
        return fail("exact_oneshot_kept", st);
    c->sink += (double)r;
    return 0;
}

static int op_exact_oneshot_q(ctx *c)
{
    em_exact *x;
    size_t r;
    int st = tp_exact_new(c->n, c->q, NULL, c->eps, c->eps, EM_STANDARD, &x);
    if (st != EM_OK)
        return fail("exact_oneshot_q", st);
    st = em_exact_sample(x, &c->bits, &r);
    em_exact_free(x);
    if (st != EM_OK)
        return fail("exact_oneshot_q", st);
    c->sink += (double)r;
    return 0;
}

static int op_oracle(ctx *c)
{
    em_oracle *o;
    int st = tp_oracle_new(c->n, c->q, NULL, c->eps, c->eps, EM_STANDARD, 40, &o);
    if (st != EM_OK)
        return fail("oracle_probs_40d", st);
    for (size_t i = 0; i < c->n && st == EM_OK; i++) {
        em_oracle_cand r;
        st = em_oracle_get(o, i, &r);
        if (st == EM_OK)
            c->sink += (double)strlen(r.prob) + r.prob_d;
    }
    em_oracle_free(o);
    return st == EM_OK ? 0 : fail("oracle_probs_40d", st);
}

/* every string of a pf operation into the checksum, then freed */
static void pf_sink(ctx *c)
{
    for (size_t i = 0; i < c->n; i++) {
        c->sink += (double)(c->dec[i] ? strlen(c->dec[i]) : 0) + (c->lg[i] ? 1 : 0) + c->pd[i];
        free(c->dec[i]);
        free(c->lg[i]);
    }
}

static int op_pf_probs(ctx *c)
{
    /* the utilities through the problem's reader, as the CLI gives them (no copy) */
    const em_utility_reader src = {em_utility_array_get, c->q};
    em_pfl *L;
    int st;
    TP_FINITE(c->n, NULL, NULL, c->eps, c->eps, EM_STANDARD,
              (P.reader = src, em_pfl_new(&P, &L, NULL)));
    if (st == EM_OK) {
        em_pfl_out o = {c->dec, c->lg, c->pd, c->ld, NULL};
        st = em_pfl_round(L, 17, &o);
        em_pfl_free(L);
    }
    if (st != EM_OK)
        return fail("pf_probs", st);
    pf_sink(c);
    return 0;
}

static int op_pf_probs_old(ctx *c)
{
    int st = pf_brute_round(c->n, c->q, NULL, c->eps, c->eps, EM_STANDARD, 17, c->pd, c->dec,
                            c->ld, c->lg);
    if (st != EM_OK)
        return fail("pf_probs_old", st);
    pf_sink(c);
    return 0;
}

static int op_cli_parse(ctx *c)
{
    em_scn s;
    em_error err;
    em_scn_init(&s);
    s.compact = 1; /* as em_scn_new sets it for every command */
    int st = em_scn_read(&s, c->buf, c->len, "<bench>", &err);
    if (st != EM_OK) {
        fprintf(stderr, "bench_speed: cli_parse: %s\n", err.msg);
        em_scn_clear(&s);
        return 1;
    }
    c->sink += (double)s.n;
    em_scn_clear(&s);
    return 0;
}

/* c = 1/2 is the standard variant's eps / (2 delta); m = 0 the largest c u_i (u_0 = 0) */
static int op_limit_scalar(ctx *c)
{
    c->sink += em_limit_exp_scalar(c->n, c->u, 0.5, 0.0, c->w);
    return 0;
}

static int op_limit_sse2(ctx *c)
{
    c->sink += em_limit_exp_sse2(c->n, c->u, 0.5, 0.0, c->w);
    return 0;
}

static int op_limit_avx2(ctx *c)
{
    c->sink += em_limit_exp_avx2(c->n, c->u, 0.5, 0.0, c->w);
    return 0;
}

static int op_limit_avx512(ctx *c)
{
    c->sink += em_limit_exp_avx512(c->n, c->u, 0.5, 0.0, c->w);
    return 0;
}

static int op_limit_memory(ctx *c)
{
    c->sink += em_limit_sum(c->n, c->u);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAX_REPS 15

/* Median over batches of the time per operation.  A batch repeats the operation until it
 * lasts at least 20 ms (so the clock's resolution and the loop are negligible for the
 * 0.05 us ones); 11 batches, or 5 / 3 when one operation takes over 0.1 s / 1 s, to keep
 * the whole `make bench` within minutes; an operation over 10 s (pf_probs_old, pf_probs at
 * 10^6) is timed once, without a warm-up run of its own. */
static int measure(ctx *c, op_fn op, double *median, double *lo, double *hi, int *reps_out,
                   long *iters_out)
{
    double t0 = now();
    if (op(c)) /* warm-up: first-touch page faults, caches, lazy initialisations */
        return 1;
    double one = now() - t0;
    if (one > 10.0) {
        *median = *lo = *hi = one / ops_per_call;
        *reps_out = 1;
        *iters_out = 1;
        return 0;
    }
    long iters = 1;
    double batch = one;
    while (batch < 0.02) {
        iters = batch <= 0 ? iters * 16 : (long)(iters * (0.025 / batch)) + 1;
        t0 = now();
        for (long k = 0; k < iters; k++)
            if (op(c))
                return 1;
        batch = now() - t0;
    }
    int reps = batch > 1.0 ? 3 : batch > 0.1 ? 5 : 11;
    double t[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        t0 = now();
        for (long k = 0; k < iters; k++)
            if (op(c))
                return 1;
        t[r] = (now() - t0) / (double)iters / ops_per_call;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    *median = t[reps / 2];
    *lo = t[0];
    *hi = t[reps - 1];
    *reps_out = reps;
    *iters_out = iters;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_speed FIGURE N\n"
                    "  FIGURE: float_oneshot float_many exact_oneshot exact_oneshot_kept exact_oneshot_q\n"
                    "          oracle_probs_40d\n"
                    "          cli_parse pf_probs pf_probs_old\n"
                    "          limit_scalar limit_vector limit_vector_sse2 limit_vector_avx512\n"
                    "          limit_memory\n");
    return 2;
}

/* the CLI's input: "c<i>,-<i/1000 with three decimals>" (c0,0.000 first) */
static int make_buffer(ctx *c)
{
    size_t cap = c->n * 32 + 1, len = 0;
    c->buf = malloc(cap);
    if (!c->buf)
        return 1;
    for (size_t i = 0; i < c->n; i++)
        len += (size_t)snprintf(c->buf + len, cap - len, "c%zu,%s%zu.%03zu\n", i, i ? "-" : "",
                                i / 1000, i % 1000);
    c->len = len;
    return 0;
}

static int make_rationals(ctx *c, int oracle_scenario)
{
    c->q = malloc(c->n * sizeof *c->q);
    if (!c->q)
        return 1;
    for (size_t i = 0; i < c->n; i++) {
        mpq_init(c->q[i]);
        if (oracle_scenario)
            mpq_set_ui(c->q[i], (unsigned long)(((unsigned long long)i * 7919) % 1000003), 1000);
        else if (c->n == EM_MARITAL_N)
            mpq_set_si(c->q[i], em_marital_counts[i], 1000);
        else
            mpq_set_si(c->q[i], -(long)i, 1000);
        mpq_canonicalize(c->q[i]);
    }
    mpq_init(c->eps);
    mpq_set_ui(c->eps, 1, 1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return usage();
    const char *clk = getenv("BENCH_CLOCK");
    if (clk && !strcmp(clk, "wall"))
        clock_id = CLOCK_MONOTONIC;
    else if (clk && *clk && strcmp(clk, "cpu")) {
        fprintf(stderr, "bench_speed: BENCH_CLOCK must be cpu or wall, not '%s'\n", clk);
        return 2;
    }
    const char *name = argv[1];
    char *end;
    unsigned long long nn = strtoull(argv[2], &end, 10);
    if (*argv[2] == 0 || *end || nn == 0 || nn > 100000000ULL) {
        fprintf(stderr, "bench_speed: N must be an integer in [1, 10^8], not '%s'\n", argv[2]);
        return 2;
    }
    ctx c;
    memset(&c, 0, sizeof c);
    c.n = (size_t)nn;
    c.u = malloc(c.n * sizeof *c.u);
    c.lw = malloc(c.n * sizeof *c.lw);
    c.w = malloc(c.n * sizeof *c.w);
    c.W = malloc(c.n * sizeof *c.W);
    if (!c.u || !c.lw || !c.w || !c.W) {
        fprintf(stderr, "bench_speed: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < c.n; i++)
        c.u[i] = c.n == EM_MARITAL_N ? (double)em_marital_counts[i] / 1000.0 : -(double)i / 1000.0;
    int st = em_rng_init(&c.rng, EM_RNG_CHACHA, &(uint64_t){1}, 1);
    if (st != EM_OK)
        return fail("em_rng_init", st);
    em_bits_init_rng(&c.bits, &c.rng);

    op_fn op = NULL;
    if (!strcmp(name, "float_oneshot"))
        op = op_float_oneshot;
    else if (!strcmp(name, "float_many")) {
        size_t argmax;
        uint64_t scale;
        st = em_logweights(c.n, c.u, 1.0, 1.0, EM_STANDARD, c.lw, &argmax);
        if (st == EM_OK)
            st = em_weights_fixed(c.n, c.lw, c.W, &c.total, &scale);
        if (st != EM_OK)
            return fail("float_many: prepare", st);
        if (!(c.C = malloc(c.n * sizeof *c.C)))
            return fail("float_many: prepare", EM_ERR_NOMEM);
        em_cumulative(c.n, c.W, c.C);
        op = op_float_many;
        ops_per_call = FLOAT_MANY_K;
    } else if (!strcmp(name, "exact_oneshot") || !strcmp(name, "exact_oneshot_kept")) {
        /* (its three rationals cost six allocations, more than the sampler of 7
         * candidates: not the sampler's work) */
        em_problem_init(&c.prob);
        st = em_problem_doubles(&c.prob, c.n, c.u, NULL, 1.0, 1.0, EM_STANDARD, NULL);
        if (st != EM_OK)
            return fail("exact_oneshot: problem", st);
        op = name[13] ? op_exact_oneshot_kept : op_exact_oneshot;
    } else if (!strcmp(name, "exact_oneshot_q")) {
        if (make_rationals(&c, 0))
            return 1;
        op = op_exact_oneshot_q;
    } else if (!strcmp(name, "oracle_probs_40d")) {
        if (make_rationals(&c, 1))
            return 1;
        op = op_oracle;
    } else if (!strcmp(name, "pf_probs") || !strcmp(name, "pf_probs_old")) {
        if (make_rationals(&c, 0))
            return 1;
        c.dec = calloc(c.n, sizeof *c.dec);
        c.lg = calloc(c.n, sizeof *c.lg);
        c.pd = malloc(c.n * sizeof *c.pd);
        c.ld = malloc(c.n * sizeof *c.ld);
        if (!c.dec || !c.lg || !c.pd || !c.ld)
            return fail(name, EM_ERR_NOMEM);
        op = name[8] ? op_pf_probs_old : op_pf_probs;
    } else if (!strcmp(name, "cli_parse")) {
        if (make_buffer(&c))
            return 1;
        op = op_cli_parse;
    } else if (!strcmp(name, "limit_scalar"))
        op = op_limit_scalar;
    else if (!strcmp(name, "limit_vector")) {
        /* the "libmvec-vectorised pass": what -march=native builds on this CPU */
        int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        fprintf(stderr, "bench_speed: limit_vector: libmvec %s\n",
                avx2 ? "AVX2 (_ZGVdN4v_exp)" : "SSE2 (_ZGVbN2v_exp): no AVX2 here");
        op = avx2 ? op_limit_avx2 : op_limit_sse2;
    } else if (!strcmp(name, "limit_vector_sse2"))
        op = op_limit_sse2;
    else if (!strcmp(name, "limit_vector_avx512")) {
        if (!__builtin_cpu_supports("avx512f")) {
            fprintf(stderr, "bench_speed: limit_vector_avx512: this CPU has no AVX-512\n");
            return 3;
        }
        op = op_limit_avx512;
    } else if (!strcmp(name, "limit_memory"))
        op = op_limit_memory;
    else
        return usage();

    double med, lo, hi;
    int reps;
    long iters;
    if (measure(&c, op, &med, &lo, &hi, &reps, &iters))
        return 1;
    fprintf(stderr, "bench_speed: %-18s n = %-8zu median %.4g us (%s) of %d batches x %ld (min %.4g, "
                    "max %.4g)  checksum %.6g\n",
            name, c.n, med * 1e6, clock_id == CLOCK_MONOTONIC ? "wall" : "CPU", reps, iters,
            lo * 1e6, hi * 1e6, c.sink);
    printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"us\", \"n\": %zu}\n", name, med * 1e6, c.n);

    if (op == op_exact_oneshot || op == op_exact_oneshot_kept)
        em_problem_clear(&c.prob);
    if (c.q) {
        for (size_t i = 0; i < c.n; i++)
            mpq_clear(c.q[i]);
        free(c.q);
        mpq_clear(c.eps);
    }
    free(c.buf);
    free(c.dec);
    free(c.lg);
    free(c.pd);
    free(c.ld);
    free(c.u);
    free(c.lw);
    free(c.w);
    free(c.W);
    return 0;
}
