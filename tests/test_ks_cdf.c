/* test_ks_cdf.c: the fast CDF of the Kolmogorov-Smirnov test (src/judge/em_ks_cdf.c) and the
 * statistic em_gof_cont computes with it.
 *
 * The reference is the exact oracle's interval of F(x) (em_cont_cdf_bounds at 200 bits, from
 * the rational x): every fast value must lie within its own stated bound (at most 2^-30) of
 * that interval, on every continuous, quantile and Laplace case of the conformance battery,
 * at points spread over each piece (its ends and the doubles next to them, 64 steps across,
 * the 1/200 quantiles, far into infinite ends); and the fast path must give most points a
 * value (else it saves nothing).  Then the statistic: em_gof_cont's D, point and side must
 * be bit for bit those of the exact path alone (every F from a 64-bit interval's midpoint,
 * as before the fast path), on draws of the float sampler at fixed seeds, and on draws
 * planted on a piece's ends (where the fast path declines). */
#include "em_check_main.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_conform.h"
#include "api/em_law_priv.h"
#include "judge/em_gof_cont.h"
#include "judge/em_ks.h"
#include "judge/em_ks_cdf.h"
#include "num/em_rational.h"
#include "oracle/em_cont.h"

static const char *const CASES[] = {"T46", "T47", "T48", "T49", "T50", "T51", "T52",
                                    "T53", "T54", "T55", "T56", "T57", "T58", "T59",
                                    "T60", "T61", "T62", "T63", "T64", "T65", "T66",
                                    "T67", "T68", "T69", "T70", "T71", "T72"};
#define NCASES (sizeof CASES / sizeof *CASES)

typedef struct loaded {
    em_case *c;
    em_scn *s;
    em_mech *m;
    em_cont *L; /* owned by m */
} loaded;

static void load(const char *id, loaded *o)
{
    char path[256];
    snprintf(path, sizeof path, "conformance/cases/%s.json", id);
    em_error err;
    ck_assert_msg(em_case_new(&(em_case_spec){.path = path}, &o->c, &err) == EM_OK, "%s: %s", path, err.msg);
    ck_assert_msg(em_case_mech(o->c, &o->s, &o->m, &err) == EM_OK, "%s: %s", id, err.msg);
    ck_assert_msg(em_law_cont(o->m, &o->L, &err) == EM_OK, "%s: %s", id, err.msg);
}

static void unload(loaded *o)
{
    em_free(o->m);
    em_free(o->s);
    em_free(o->c);
}

/* the fast value at x, if any, against the 200-bit interval of the exact F(x) */
static void check_point(em_cont *L, const em_ks_cdf *K, double x, size_t *nfast, size_t *n,
                        double *worst, const char *id)
{
    if (!isfinite(x))
        return;
    (*n)++;
    double f, e;
    if (!em_ks_cdf_eval(K, x, &f, &e))
        return;
    (*nfast)++;
    ck_assert_msg(e >= 0 && e <= EM_KS_CDF_MAX_ERR, "%s: bound %g at %.17g", id, e, x);
    mpq_t q;
    mpfr_t lo, hi;
    mpq_init(q);
    mpfr_inits2(200, lo, hi, (mpfr_ptr)0);
    mpq_set_d(q, x);
    ck_assert_int_eq(em_cont_cdf_bounds(L, q, 200, lo, hi), EM_OK);
    /* f - e <= F <= f + e: below means f + e >= lo, above f - e <= hi */
    double dlo = mpfr_get_d(lo, MPFR_RNDD), dhi = mpfr_get_d(hi, MPFR_RNDU);
    ck_assert_msg(f + e >= dlo - 0x1p-60 && f - e <= dhi + 0x1p-60,
                  "%s: F(%.17g) in [%.17g, %.17g], fast %.17g +- %g", id, x, dlo, dhi, f, e);
    double off = f < dlo ? dlo - f : f > dhi ? f - dhi : 0;
    if (off > *worst)
        *worst = off;
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    mpq_clear(q);
}

START_TEST(fast_cdf_within_its_bound)
{
    double worst = 0;
    size_t nall = 0, nfast_all = 0;
    for (size_t ci = 0; ci < NCASES; ci++) {
        loaded o;
        load(CASES[ci], &o);
        em_ks_cdf *K = NULL;
        ck_assert_int_eq(em_ks_cdf_new(o.L, &K), EM_OK);
        size_t n = 0, nfast = 0;
        mpq_t lo, hi, a, b, q;
        mpq_inits(lo, hi, a, b, q, (mpq_ptr)0);
        for (size_t j = 0; j < em_cont_size(o.L); j++) {
            int li = 0, hinf = 0;
            em_cont_piece(o.L, j, lo, hi, &li, &hinf, a, b);
            double l = li ? -INFINITY : em_q_to_d_dir(lo, 0);
            double h = hinf ? INFINITY : em_q_to_d_dir(hi, 0);
            if (li)
                l = h - 1e6;
            if (hinf)
                h = l + 1e6;
            const double ends[2] = {l, h};
            for (int k = 0; k < 2; k++)
                for (int s = -3; s <= 3; s++) {
                    double x = ends[k];
                    for (int r = 0; r < (s < 0 ? -s : s); r++)
                        x = nextafter(x, s < 0 ? -INFINITY : INFINITY);
                    check_point(o.L, K, x, &nfast, &n, &worst, CASES[ci]);
                }
            for (int i = 1; i < 64; i++)
                check_point(o.L, K, l + (h - l) * (i / 64.0), &nfast, &n, &worst, CASES[ci]);
            for (int e = 0; e < 40 && (li || hinf); e += 3) /* far into an infinite end */
                check_point(o.L, K, li ? h - ldexp(1, e) : l + ldexp(1, e), &nfast, &n,
                            &worst, CASES[ci]);
        }
        size_t nq = 0, nqfast = 0;
        for (int i = 1; i < 200; i++) {
            em_cval v;
            em_cval_init(&v);
            mpq_set_ui(q, (unsigned long)i, 200);
            mpq_canonicalize(q);
            ck_assert_int_eq(em_cont_quantile(o.L, q, &v), EM_OK);
            check_point(o.L, K, v.d, &nqfast, &nq, &worst, CASES[ci]);
            check_point(o.L, K, nextafter(v.d, INFINITY), &nqfast, &nq, &worst, CASES[ci]);
            em_cval_clear(&v);
        }
        /* the quantiles are where the draws are: nearly all of them must be fast */
        /* the quantiles are where the draws are: nearly all of them must be fast */
        ck_assert_msg(nqfast * 20 >= nq * 19, "%s: only %zu fast values of %zu quantiles",
                      CASES[ci], nqfast, nq);
        nall += n + nq, nfast_all += nfast + nqfast;
        mpq_clears(lo, hi, a, b, q, (mpq_ptr)0);
        em_ks_cdf_free(K);
        unload(&o);
    }
    fprintf(stderr, "test_ks_cdf: %zu points, %zu fast, the farthest outside the exact "
            "interval by %g\n", nall, nfast_all, worst);
}
END_TEST

/* the statistic with every F the exact way, as em_gof_cont computed it before the fast path */
static double exact_ks(em_cont *L, const double *x, size_t n, int *side)
{
    double *xs = malloc(n * sizeof *xs), *F = malloc(n * sizeof *F);
    uint64_t *mult = malloc(n * sizeof *mult);
    ck_assert(xs && F && mult);
    memcpy(xs, x, n * sizeof *xs);
    for (size_t i = 1; i < n; i++) /* insertion sort: n is small here */
        for (size_t k = i; k > 0 && xs[k - 1] > xs[k]; k--) {
            double t = xs[k];
            xs[k] = xs[k - 1];
            xs[k - 1] = t;
        }
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        if (d > 0 && xs[d - 1] == xs[i]) {
            mult[d - 1]++;
            continue;
        }
        xs[d] = xs[i];
        mult[d++] = 1;
    }
    mpq_t q;
    mpfr_t lo, hi, s, o;
    mpq_init(q);
    mpfr_inits2(64, lo, hi, s, o, (mpfr_ptr)0);
    for (size_t i = 0; i < d; i++) {
        mpq_set_d(q, xs[i]);
        ck_assert_int_eq(em_cont_cdf_bounds(L, q, 64, lo, hi), EM_OK);
        mpfr_prec_t p = mpfr_get_prec(lo) > mpfr_get_prec(hi) ? mpfr_get_prec(lo)
                                                              : mpfr_get_prec(hi);
        mpfr_set_prec(s, p + 2);
        mpfr_add(s, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(s, s, 1, MPFR_RNDN);
        mpfr_set(o, s, MPFR_RNDN);
        if (mpfr_sgn(o) < 0)
            mpfr_set_ui(o, 0, MPFR_RNDN);
        if (mpfr_cmp_ui(o, 1) > 0)
            mpfr_set_ui(o, 1, MPFR_RNDN);
        F[i] = mpfr_get_d(o, MPFR_RNDN);
    }
    mpfr_clears(lo, hi, s, o, (mpfr_ptr)0);
    mpq_clear(q);
    size_t w;
    double D = em_ks_statistic_atoms(d, F, F, mult, n, &w, side);
    free(xs), free(F), free(mult);
    return D;
}

static void same_statistic(em_cont *L, const double *x, size_t n, const char *what)
{
    em_gof_cont_result r;
    ck_assert_int_eq(em_gof_cont(L, x, n, 1e-6, 5, 0, &r), EM_OK);
    int side;
    double D = exact_ks(L, x, n, &side);
    ck_assert_msg(memcmp(&D, &r.ks_d, sizeof D) == 0 && side == r.ks_side,
                  "%s: fast D = %.17g (side %d), exact D = %.17g (side %d)", what, r.ks_d,
                  r.ks_side, D, side);
    em_gof_cont_free(&r);
}

START_TEST(statistic_as_the_exact_path)
{
    const size_t N = 4000;
    double *x = malloc(N * sizeof *x);
    ck_assert(x);
    for (size_t ci = 0; ci < NCASES; ci++) {
        loaded o;
        load(CASES[ci], &o);
        em_rng rng;
        ck_assert_int_eq(em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){1000 + ci}, 1), EM_OK);
        for (size_t i = 0; i < N; i++) {
            size_t idx;
            ck_assert_int_eq(em_cont_sample_float(o.L, &rng, &idx, &x[i]), EM_OK);
        }
        same_statistic(o.L, x, N, CASES[ci]);
        /* a third of the draws on the pieces' ends (the fast path declines there) */
        mpq_t lo, hi, a, b;
        mpq_inits(lo, hi, a, b, (mpq_ptr)0);
        for (size_t i = 0; i < N; i += 3) {
            size_t j = i % em_cont_size(o.L);
            int li = 0, hinf = 0;
            em_cont_piece(o.L, j, lo, hi, &li, &hinf, a, b);
            if (!li)
                x[i] = em_q_to_d_dir(lo, 0);
            else if (!hinf)
                x[i] = em_q_to_d_dir(hi, 0);
        }
        same_statistic(o.L, x, N, CASES[ci]);
        mpq_clears(lo, hi, a, b, (mpq_ptr)0);
        unload(&o);
    }
    free(x);
}
END_TEST

static Suite *ks_cdf_suite(void)
{
    Suite *s = suite_create("ks_cdf");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, fast_cdf_within_its_bound);
    tcase_add_test(tc, statistic_as_the_exact_path);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(ks_cdf_suite)
