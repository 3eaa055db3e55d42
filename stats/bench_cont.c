/* bench_cont: timings of the continuous oracle (`make bench`; never asserted in tests).
 *   - seed 003 pricing (3 pieces): set-up, one exact draw (after set-up, averaged), one
 *     float draw;
 *   - the Laplace mechanism over R (2 infinite pieces): one exact draw;
 *   - a 10^5-piece scenario (alternating slopes): set-up and the CDF at 10^3 points,
 *     correctly rounded to 17 digits (the target: <= 1 s). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "expmech.h"
#include "oracle/em_cont.h"
#include "tests/em_problem_util.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void push(em_pieces *ps, long lon, long lod, long hin, long hid, long an, long ad, long bn,
                 long bd)
{
    mpq_t v[4];
    for (int k = 0; k < 4; k++)
        mpq_init(v[k]);
    mpq_set_si(v[0], lon, (unsigned long)lod);
    mpq_set_si(v[1], hin, (unsigned long)hid);
    mpq_set_si(v[2], an, (unsigned long)ad);
    mpq_set_si(v[3], bn, (unsigned long)bd);
    for (int k = 0; k < 4; k++)
        mpq_canonicalize(v[k]);
    em_pieces_push(ps, v[0], v[1], v[2], v[3], ps->n + 1);
    for (int k = 0; k < 4; k++)
        mpq_clear(v[k]);
}

static int draws(const char *name, em_pieces *ps, const char *eps_s, long ndraw)
{
    mpq_t eps, delta;
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_str(eps, eps_s, 10);
    mpq_canonicalize(eps);
    if (ps->has_sensitivity)
        mpq_set(delta, ps->sensitivity);
    else
        mpq_set_ui(delta, 1, 1);
    em_cont *C;
    double t0 = now();
    if (tp_cont_new_pieces(ps, eps, delta, EM_STANDARD, 17, &C, NULL, 0) != EM_OK)
        return 1;
    em_rng rng;
    em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1}, 1);
    em_bits b;
    em_bits_init_rng(&b, &rng);
    size_t idx;
    double x, sink = 0;
    if (em_cont_sample(C, &b, &idx, &x) != EM_OK) /* the set-up happens on the first draw */
        return 1;
    double t1 = now();
    for (long i = 0; i < ndraw; i++) {
        if (em_cont_sample(C, &b, &idx, &x) != EM_OK)
            return 1;
        sink += x;
    }
    double t2 = now();
    for (long i = 0; i < ndraw; i++) {
        if (em_cont_sample_float(C, &rng, &idx, &x) != EM_OK)
            return 1;
        sink += x;
    }
    double t3 = now();
    printf("%-28s set-up + first draw %8.1f us | exact draw %7.2f us | float draw %6.3f us "
           "| bits/draw %.1f (sink %g)\n",
           name, 1e6 * (t1 - t0), 1e6 * (t2 - t1) / (double)ndraw, 1e6 * (t3 - t2) / (double)ndraw,
           (double)b.used / (double)(ndraw + 1), sink);
    em_cont_free(C);
    mpq_clears(eps, delta, (mpq_ptr)0);
    return 0;
}

int main(void)
{
    em_pieces ps;
    /* seed 003 pricing: bids {1,1,1,3.01}, [0, 3.5], Delta = 3.5 */
    em_pieces_init(&ps);
    push(&ps, 0, 1, 1, 1, 0, 1, 4, 1);
    push(&ps, 1, 1, 301, 100, 0, 1, 1, 1);
    push(&ps, 301, 100, 7, 2, 0, 1, 0, 1);
    ps.has_sensitivity = 1;
    mpq_set_ui(ps.sensitivity, 7, 2);
    if (draws("seed 003 pricing, eps = 1", &ps, "1", 200000))
        return 1;
    em_pieces_free(&ps);
    /* Laplace over R, x = 3.5 */
    em_pieces_init(&ps);
    push(&ps, 0, 1, 7, 2, -7, 2, 1, 1);
    push(&ps, 7, 2, 0, 1, 7, 2, -1, 1);
    ps.lo_inf = ps.hi_inf = 1;
    if (draws("Laplace over R, eps = 1", &ps, "1", 200000))
        return 1;
    em_pieces_free(&ps);
    /* 10^5 pieces of length 1/100, slopes +-1/2, a = 0: the CDF at 10^3 points */
    em_pieces_init(&ps);
    const long N = 100000;
    for (long j = 0; j < N; j++)
        push(&ps, j, 100, j + 1, 100, (j % 3) - 1, 7, (j % 2) ? 1 : -1, 2);
    mpq_t eps, delta, x;
    mpq_inits(eps, delta, x, (mpq_ptr)0);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);
    em_cont *C;
    double t0 = now();
    if (tp_cont_new_pieces(&ps, eps, delta, EM_STANDARD, 17, &C, NULL, 0) != EM_OK)
        return 1;
    em_cval v;
    em_cval_init(&v);
    double t1 = now(), t2 = 0;
    for (long i = 0; i < 1000; i++) {
        mpq_set_si(x, i * N / 1000 + 7, 100 * 1); /* spread over [0, 1000] */
        mpq_canonicalize(x);
        if (em_cont_cdf(C, x, &v) != EM_OK)
            return 1;
        if (i == 0)
            t2 = now();
    }
    double t3 = now();
    printf("%-28s set-up %.3f s | first CDF (computes the prefix sums) %.3f s | "
           "CDF at 10^3 points %.3f s in all (%.0f us each after the first)\n",
           "10^5 pieces", t1 - t0, t2 - t1, t3 - t1, 1e6 * (t3 - t2) / 999.0);
    em_cval_clear(&v);
    em_cont_free(C);
    em_pieces_free(&ps);
    mpq_clears(eps, delta, x, (mpq_ptr)0);
    return 0;
}
