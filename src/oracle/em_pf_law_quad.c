/* em_pf_law_quad.c: permute-and-flip's law at scale (em_pf_law.h): the certified
 * quadrature of the moments of h (em_pf_law_priv.h): Clenshaw-Curtis rules on
 * subintervals, their errors bounded through Cauchy's estimate on discs where |h| is
 * bounded exactly (spec/PermuteAndFlip.md, "Exact pmf at scale"). */
#include <math.h>
#include <stdlib.h>

#include <mpfr.h>

#include "oracle/em_pf_law_priv.h"

/* -------------------------------------------------------- Clenshaw-Curtis */

/* The (N+1)-point Clenshaw-Curtis rule on [-1, 1] (N even): nodes cos(j pi / N) and
 * weights w_j = (c_j / N) (1 - sum_{k=1}^{N/2} b_k cos(2 k j pi / N) / (4 k^2 - 1)),
 * c_0 = c_N = 1, else 2; b_(N/2) = 1, else 2.  Exact for polynomials of degree N, weights
 * positive (Imhof 1963; checked here on the enclosures).  Enclosures: xi[2j], xi[2j+1]
 * and wt[2j], wt[2j+1].  Returns 0, or -1 when a weight is not certainly positive. */
int em_pfl_cc_rule(int N, mpfr_prec_t w, mpfr_t *xi, mpfr_t *wt)
{
    mpfr_t *cl = malloc(2 * ((size_t)N + 1) * sizeof *cl);
    if (!cl)
        return -2;
    mpfr_t pl, ph, t, s_lo, s_hi, v;
    mpfr_inits2(w + 16, pl, ph, t, s_lo, s_hi, v, (mpfr_ptr)0);
    mpfr_const_pi(pl, MPFR_RNDD);
    mpfr_const_pi(ph, MPFR_RNDU);
    for (int i = 0; i <= N; i++)
        mpfr_inits2(w, cl[2 * i], cl[2 * i + 1], (mpfr_ptr)0);
    /* cos(i pi / N) for i <= N/2 (angle in [0, pi/2], cos decreasing), then by symmetry */
    for (int i = 0; i <= N / 2; i++) {
        if (i == 0) {
            mpfr_set_ui(cl[0], 1, MPFR_RNDN);
            mpfr_set_ui(cl[1], 1, MPFR_RNDN);
        } else if (2 * i == N) {
            mpfr_set_zero(cl[2 * i], 1);
            mpfr_set_zero(cl[2 * i + 1], 1);
        } else {
            mpfr_mul_ui(t, ph, (unsigned long)i, MPFR_RNDU);
            mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDU);
            mpfr_cos(cl[2 * i], t, MPFR_RNDD);
            mpfr_mul_ui(t, pl, (unsigned long)i, MPFR_RNDD);
            mpfr_div_ui(t, t, (unsigned long)N, MPFR_RNDD);
            mpfr_cos(cl[2 * i + 1], t, MPFR_RNDU);
        }
        mpfr_neg(cl[2 * (N - i)], cl[2 * i + 1], MPFR_RNDN);
        mpfr_neg(cl[2 * (N - i) + 1], cl[2 * i], MPFR_RNDN);
    }
    int bad = 0;
    for (int j = 0; j <= N; j++) {
        mpfr_set(xi[2 * j], cl[2 * j], MPFR_RNDD);
        mpfr_set(xi[2 * j + 1], cl[2 * j + 1], MPFR_RNDU);
        if (2 * j > N) { /* w_j = w_(N-j) */
            mpfr_set(wt[2 * j], wt[2 * (N - j)], MPFR_RNDN);
            mpfr_set(wt[2 * j + 1], wt[2 * (N - j) + 1], MPFR_RNDN);
            continue;
        }
        mpfr_set_ui(s_lo, 1, MPFR_RNDN);
        mpfr_set_ui(s_hi, 1, MPFR_RNDN);
        for (int k = 1; k <= N / 2; k++) {
            long idx = (2L * k * j) % (2L * N);
            if (idx > N)
                idx = 2L * N - idx;
            unsigned long bk = 2 * k == N ? 1 : 2, den = 4UL * (unsigned long)k * k - 1;
            mpfr_mul_ui(v, cl[2 * idx + 1], bk, MPFR_RNDU);
            mpfr_div_ui(v, v, den, MPFR_RNDU);
            mpfr_sub(s_lo, s_lo, v, MPFR_RNDD);
            mpfr_mul_ui(v, cl[2 * idx], bk, MPFR_RNDD);
            mpfr_div_ui(v, v, den, MPFR_RNDD);
            mpfr_sub(s_hi, s_hi, v, MPFR_RNDU);
        }
        unsigned long cj = (j == 0 || j == N) ? 1 : 2;
        mpfr_mul_ui(s_lo, s_lo, cj, MPFR_RNDD);
        mpfr_div_ui(wt[2 * j], s_lo, (unsigned long)N, MPFR_RNDD);
        mpfr_mul_ui(s_hi, s_hi, cj, MPFR_RNDU);
        mpfr_div_ui(wt[2 * j + 1], s_hi, (unsigned long)N, MPFR_RNDU);
        if (mpfr_sgn(wt[2 * j]) <= 0)
            bad = 1;
    }
    for (int i = 0; i <= N; i++)
        mpfr_clears(cl[2 * i], cl[2 * i + 1], (mpfr_ptr)0);
    free(cl);
    mpfr_clears(pl, ph, t, s_lo, s_hi, v, (mpfr_ptr)0);
    return bad ? -1 : 0;
}



/* Local decay rate of h at a (double, for the plan only): -(log h)'(a) <=
 * (mm - 1)/(1 - a) + sum_heavy p/(1 - p a) + sum_light p / (1 - th a / T). */
static double rate(const em_pfl *F, const em_pfl_level *L, const double *hpd, double P1d,
                   double a)
{
    double one = 1 - a > 1e-300 ? 1 - a : 1e-300;
    double r = (double)(F->mm - 1) / one;
    for (size_t g = 0; g < L->ng; g++) {
        double d = 1 - hpd[g] * a;
        r += (double)L->gm[g] * hpd[g] / (d > 1e-300 ? d : 1e-300);
    }
    return r + P1d / (1 - ldexp(a, L->jT - THETA_LOG2));
}

/* (1 - a) h(a) <= tol, certified (a exact in F->hx) */
int em_pfl_rest_negligible(em_pfl *F, const em_pfl_level *L, double a, mpfr_srcptr tol,
                           mpfr_t out)
{
    mpfr_set_d(F->hx, a, MPFR_RNDN);
    em_pfl_h_eval(F, L, F->hx, 1, out);
    mpfr_ui_sub(F->hx, 1, F->hx, MPFR_RNDU);
    mpfr_mul(out, out, F->hx, MPFR_RNDU);
    return mpfr_cmp(out, tol) <= 0;
}

/* The subintervals of [0, Tend]: lengths powers of two (at least 2^-50 T, so that every
 * end is exact in a double), each about 2 shrink / rate, so that h changes by a bounded
 * factor over its Cauchy disc; the plan ends at T, or earlier where (1 - a) h(a) is
 * certainly below tol (then [a, 1] is a tail bounded by monotonicity).  Returns the
 * count, or 0 when out of memory or past MAX_SUB. */
size_t em_pfl_plan(em_pfl *F, const em_pfl_level *L, double shrink, mpfr_srcptr tol,
                   em_pfl_sub **out,
                   double *Tend, mpfr_t scr)
{
    double *hpd = malloc((L->ng ? L->ng : 1) * sizeof *hpd);
    size_t cap = 64, ns = 0;
    em_pfl_sub *S = malloc(cap * sizeof *S);
    if (!hpd || !S) {
        free(hpd);
        free(S);
        return 0;
    }
    for (size_t g = 0; g < L->ng; g++)
        hpd[g] = mpfr_get_d(L->hp[2 * g + 1], MPFR_RNDN);
    const double T = ldexp(1.0, -L->jT), lmin = ldexp(T, -50);
    const double P1d = ldexp(mpfr_get_d(L->Q1hi, MPFR_RNDN), L->jT);
    const double stop = -((double)L->B + 20) * 0.6931 - log(F->Sd + 1);
    double a = 0, len = T;
    int checks = 0;
    while (a < T) {
        double r = rate(F, L, hpd, P1d, a), want = shrink * 2 / (r > 0 ? r : 1e-300);
        while (len > want && len > lmin)
            len /= 2;
        if (a > 0 && checks < 64) {
            /* a negligible rest?  A double estimate first, then certified */
            double est = (F->mm > 1 ? (double)(F->mm - 1) * log1p(-a) : 0) -
                         a * (F->Sd - (double)F->mm);
            if (est < stop) {
                checks++;
                if (em_pfl_rest_negligible(F, L, a, tol, scr))
                    break;
            }
        }
        if (ns == cap) {
            em_pfl_sub *nS = cap < MAX_SUB ? realloc(S, 2 * cap * sizeof *S) : NULL;
            if (!nS) {
                free(hpd);
                free(S);
                return 0;
            }
            S = nS;
            cap *= 2;
        }
        S[ns].a = a;
        S[ns].hh = len / 2;
        ns++;
        a += len; /* exact: both multiples of lmin, below T */
    }
    free(hpd);
    *Tend = a < T ? a : T;
    *out = S;
    return ns;
}


/* The subinterval's Cauchy factor C = 4 hh Hd / (1 - q) (q = 1/4) and, in x0, the left
 * end of its disc (radius 4 hh) */
void em_pfl_sub_factor(em_pfl *F, const em_pfl_level *L, const em_pfl_sub *S, mpfr_t x0,
                       mpfr_t C)
{
    mpfr_set_d(x0, S->a - 3 * S->hh, MPFR_RNDN); /* exact */
    em_pfl_disc_bound(F, L, x0, C);
    mpfr_mul_d(C, C, S->hh * 16, MPFR_RNDU);
    mpfr_div_ui(C, C, 3, MPFR_RNDU);
}

/* The errors of the rule of degree N on subinterval S (spec/PermuteAndFlip.md): exact to
 * degree N with positive weights summing to 2 hh, it leaves of an integrand P g (P a
 * polynomial of degree d, g analytic with |g| <= G on the disc of radius 4 hh) at most
 * 2 (2 hh) max|P| G q^(N-d+1) / (1 - q), q = 1/4 (Cauchy's estimate on g's Taylor
 * series).  Added to EM (M_k), ER (R_k) and EH (the heavy groups' integrals). */
static void sub_errors(em_pfl *F, const em_pfl_level *L, const em_pfl_sub *S, int N,
                       mpfr_t x0, mpfr_t C, mpfr_t *EM, mpfr_t *ER, mpfr_t *EH)
{
    const int K = L->K;
    mpfr_t bk, oma, qp, fr, b;
    mpfr_inits2(64, bk, oma, qp, fr, b, (mpfr_ptr)0);
    em_pfl_sub_factor(F, L, S, x0, C);
    mpfr_set_d(oma, S->a, MPFR_RNDN);
    mpfr_ui_sub(oma, 1, oma, MPFR_RNDU);  /* max (1 - x) */
    mpfr_set_d(bk, S->a + 2 * S->hh, MPFR_RNDN); /* b, exact */
    mpfr_set(b, bk, MPFR_RNDN);
    mpfr_set_ui(bk, 1, MPFR_RNDN);
    for (int k = 0; k <= K + 1; k++) {
        mpfr_mul(qp, C, bk, MPFR_RNDU); /* R_k: P = x^k, max b^k */
        mpfr_div_2ui(qp, qp, 2 * (unsigned long)(N - k + 1), MPFR_RNDU);
        mpfr_add(ER[k], ER[k], qp, MPFR_RNDU);
        if (k <= K) { /* M_k: P = x^k (1 - x) */
            mpfr_mul(qp, C, bk, MPFR_RNDU);
            mpfr_mul(qp, qp, oma, MPFR_RNDU);
            mpfr_div_2ui(qp, qp, 2 * (unsigned long)(N - k), MPFR_RNDU);
            mpfr_add(EM[k], EM[k], qp, MPFR_RNDU);
        }
        mpfr_mul(bk, bk, b, MPFR_RNDU);
    }
    for (size_t h = 0; h < L->ng; h++) {
        /* (1 - x) times h / (1 - p x), whose factors' maxima are Hd / (1 - p x0) */
        mpfr_mul(fr, L->hp[2 * h + (mpfr_sgn(x0) >= 0)], x0, MPFR_RNDU);
        mpfr_ui_sub(fr, 1, fr, MPFR_RNDD);
        mpfr_div(qp, C, fr, MPFR_RNDU);
        mpfr_mul(qp, qp, oma, MPFR_RNDU);
        mpfr_div_2ui(qp, qp, 2 * (unsigned long)N, MPFR_RNDU);
        mpfr_add(EH[h], EH[h], qp, MPFR_RNDU);
    }
    mpfr_clears(bk, oma, qp, fr, b, (mpfr_ptr)0);
}

/* The moments M_k (k <= K), R_k (k <= K + 1) and the heavy candidates' I with their
 * errors, by the rule (xi, wt) of degree N on the ns subintervals, and the tail past
 * Tend.  EM_OK. */
void em_pfl_integrate(em_pfl *F, em_pfl_level *L, const em_pfl_sub *S, size_t ns, double Tend,
                      int N, mpfr_t *xi, mpfr_t *wt, mpfr_t *Rlo, mpfr_t *EM, mpfr_t *ER,
                      mpfr_t *EH)
{
    const int K = L->K;
    const mpfr_prec_t w = L->w;
    mpfr_t xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s;
    mpfr_inits2(w, xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s, (mpfr_ptr)0);
    mpfr_t x0, C, tR, tM;
    mpfr_inits2(64, C, tR, tM, (mpfr_ptr)0);
    mpfr_init2(x0, w);
    for (size_t i = 0; i < ns; i++) {
        mpfr_set_d(hh, S[i].hh, MPFR_RNDN);
        mpfr_set_d(cc, S[i].a + S[i].hh, MPFR_RNDN);
        if (!L->exact) /* else polynomials of degree <= N: the rule is exact */
            sub_errors(F, L, &S[i], N, x0, C, EM, ER, EH);
        /* the rule: nodes in [xl, xu], weights in [Wl, Wu]; h is non-increasing, so
         * h(node) is in [h(xu), h(xl)]; every factor is >= 0 */
        for (int j = 0; j <= N; j++) {
            mpfr_mul(xl, hh, xi[2 * j], MPFR_RNDD);
            mpfr_add(xl, xl, cc, MPFR_RNDD);
            mpfr_mul(xu, hh, xi[2 * j + 1], MPFR_RNDU);
            mpfr_add(xu, xu, cc, MPFR_RNDU);
            if (mpfr_sgn(xl) < 0)
                mpfr_set_zero(xl, 1);
            mpfr_mul(Wl, hh, wt[2 * j], MPFR_RNDD);
            mpfr_mul(Wu, hh, wt[2 * j + 1], MPFR_RNDU);
            em_pfl_h_eval(F, L, xu, 0, hl);
            em_pfl_h_eval(F, L, xl, 1, hu);
            mpfr_mul(hl, hl, Wl, MPFR_RNDD);
            mpfr_mul(hu, hu, Wu, MPFR_RNDU);
            mpfr_set(al, hl, MPFR_RNDD);
            mpfr_set(au, hu, MPFR_RNDU);
            mpfr_ui_sub(pl, 1, xu, MPFR_RNDD);
            mpfr_ui_sub(pu, 1, xl, MPFR_RNDU);
            for (int k = 0; k <= K + 1; k++) {
                if (k == 0)
                    mpfr_add(Rlo[0], Rlo[0], al, MPFR_RNDD);
                mpfr_add(L->Rhi[k], L->Rhi[k], au, MPFR_RNDU);
                if (k <= K) {
                    mpfr_mul(s, al, pl, MPFR_RNDD);
                    mpfr_add(L->Mlo[k], L->Mlo[k], s, MPFR_RNDD);
                    mpfr_mul(s, au, pu, MPFR_RNDU);
                    mpfr_add(L->Mhi[k], L->Mhi[k], s, MPFR_RNDU);
                }
                mpfr_mul(al, al, xl, MPFR_RNDD);
                mpfr_mul(au, au, xu, MPFR_RNDU);
            }
            mpfr_mul(hl, hl, pl, MPFR_RNDD);
            mpfr_mul(hu, hu, pu, MPFR_RNDU);
            for (size_t h = 0; h < L->ng; h++) { /* (1 - x) h(x) / (1 - p x) */
                mpfr_mul(s, L->hp[2 * h], xl, MPFR_RNDD);
                mpfr_ui_sub(s, 1, s, MPFR_RNDU);
                mpfr_div(s, hl, s, MPFR_RNDD);
                mpfr_add(L->hI[2 * h], L->hI[2 * h], s, MPFR_RNDD);
                mpfr_mul(s, L->hp[2 * h + 1], xu, MPFR_RNDU);
                mpfr_ui_sub(s, 1, s, MPFR_RNDD);
                if (mpfr_sgn(s) <= 0)
                    mpfr_set_inf(L->hI[2 * h + 1], 1);
                else {
                    mpfr_div(s, hu, s, MPFR_RNDU);
                    mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], s, MPFR_RNDU);
                }
            }
        }
    }
    /* past Tend: x^k <= 1, (1 - x) h(x) <= (1 - Tend) h(Tend), (1 - x)/(1 - p x) <= 1 */
    mpfr_set_zero(tR, 1);
    mpfr_set_zero(tM, 1);
    if (Tend < 1) {
        em_pfl_rest_negligible(F, L, Tend, tR, tR);
        mpfr_set_d(x0, Tend, MPFR_RNDN);
        mpfr_ui_sub(x0, 1, x0, MPFR_RNDU);
        mpfr_mul(tM, tR, x0, MPFR_RNDU);
    }
    for (int k = 0; k <= K + 1; k++) {
        mpfr_add(L->Rhi[k], L->Rhi[k], ER[k], MPFR_RNDU);
        mpfr_add(L->Rhi[k], L->Rhi[k], tR, MPFR_RNDU);
        L->lR[k] = em_pfl_lg2(L->Rhi[k]);
        if (k <= K) {
            mpfr_sub(L->Mlo[k], L->Mlo[k], EM[k], MPFR_RNDD);
            if (mpfr_sgn(L->Mlo[k]) < 0)
                mpfr_set_zero(L->Mlo[k], 1);
            mpfr_add(L->Mhi[k], L->Mhi[k], EM[k], MPFR_RNDU);
            mpfr_add(L->Mhi[k], L->Mhi[k], tM, MPFR_RNDU);
        }
    }
    mpfr_sub(L->R0lo, Rlo[0], ER[0], MPFR_RNDD);
    if (mpfr_sgn(L->R0lo) < 0)
        mpfr_set_zero(L->R0lo, 1);
    /* M_0 = E[1/(1 + K_all)] >= 1/(1 + S) (Jensen) in any case */
    mpfr_add_ui(s, L->Shi, 1, MPFR_RNDU);
    mpfr_ui_div(s, 1, s, MPFR_RNDD);
    if (mpfr_cmp(L->Mlo[0], s) < 0)
        mpfr_set(L->Mlo[0], s, MPFR_RNDD);
    L->lM0 = em_pfl_lg2(L->Mlo[0]);
    mpfr_log(L->LM0lo, L->Mlo[0], MPFR_RNDD);
    mpfr_log(L->LM0hi, L->Mhi[0], MPFR_RNDU);
    for (size_t h = 0; h < L->ng; h++) {
        mpfr_sub(L->hI[2 * h], L->hI[2 * h], EH[h], MPFR_RNDD);
        if (mpfr_cmp(L->hI[2 * h], L->Mlo[0]) < 0) /* 1/(1 - p x) >= 1 */
            mpfr_set(L->hI[2 * h], L->Mlo[0], MPFR_RNDD);
        mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], EH[h], MPFR_RNDU);
        mpfr_add(L->hI[2 * h + 1], L->hI[2 * h + 1], tR, MPFR_RNDU);
        if (mpfr_cmp(L->hI[2 * h + 1], L->Rhi[0]) > 0) /* (1 - x)/(1 - p x) <= 1 */
            mpfr_set(L->hI[2 * h + 1], L->Rhi[0], MPFR_RNDU);
    }
    mpfr_clears(xl, xu, Wl, Wu, hl, hu, pl, pu, al, au, cc, hh, s, x0, (mpfr_ptr)0);
    mpfr_clears(C, tR, tM, (mpfr_ptr)0);
}
