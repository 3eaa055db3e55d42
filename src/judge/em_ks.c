/* em_ks.c: Kolmogorov-Smirnov statistic and p-values (see em_ks.h for the method).
 *
 * Marsaglia, Tsang & Wang (2003).  With k = floor(N d) + 1, m = 2k - 1, h = k - N d
 * (0 < h <= 1), the m x m matrix H has H[i][j] = 1 / (i - j + 1)! for i - j + 1 >= 0 and
 * 0 above, corrected in its first column and last row: H[i][0] -= h^(i+1) / (i+1)!,
 * H[m-1][j] -= h^(m-j) / (m-j)!, and H[m-1][0] gets + (2h - 1)^m / m! when 2h > 1.
 * Then K_N(d) = N! / N^N * (H^N)[k-1][k-1].  Powers are taken by binary exponentiation;
 * every product is rescaled by a power of two kept in an integer exponent (the paper
 * does the same with 10^140), so nothing overflows for any N.  The cost is about
 * 2 m^3 flops per product, 2 log2 N products.
 *
 * Birnbaum & Tingey (1951): for 0 < d < 1,
 *   P(D+_N >= d) = d sum_{j=0}^{floor(N(1-d))} C(N, j) (1 - d - j/N)^(N-j) (d + j/N)^(j-1),
 * every term positive; summed in long double from the logarithms of the terms (log C(N, j)
 * by the recurrence C(N, j+1) = C(N, j) (N - j) / (j + 1)), with a running maximum.
 */
#include "judge/em_ks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/em_vec.h"

/* C = A B (m x m, row major), i-k-j order: each C[i][j] sums its products over k = 0, 1, ...
 * in order, as the plain i-j-k loop does, and the contiguous inner loop over j is vectorised
 * across j (EM_VECTOR_CLONES, and the dynamic cost model of the Makefile), never across k:
 * the same operations in the same order, so the same bits, at 2.6 times the speed (an
 * N = 10^4 p-value on AVX2).  Two shortcuts leave out only additions of +-0, which change
 * nothing (the sums start at +0, +0 + -0 = +0 when rounding to nearest, and a product with a
 * zero factor is +-0 when A and B are finite, which is checked, else neither is taken): four
 * rows of C at a time share each load of B's row k (a quarter of the memory traffic, about
 * 1.2 to 1.4 times faster at m = 500), a row of A adding 0 * B[k][j] where its A[i][k] is 0;
 * and row k of B is read only up to its last non-zero entry end[k] (m scratch entries): the
 * powers H^j of the lower Hessenberg H are zero above their j-th superdiagonal, so the first
 * squarings are about half as long.  So each C[i][j] gets exactly the additions of the plain
 * loop that change it, in the same order. */
EM_VECTOR_CLONES static void mat_mul(const double *restrict A, const double *restrict B,
                                     double *restrict C, size_t m, size_t *restrict end)
{
    memset(C, 0, m * m * sizeof *C);
    int finite = 1;
    for (size_t t = 0; t < m * m; t++)
        finite &= (isfinite(A[t]) && isfinite(B[t])) != 0;
    for (size_t k = 0; k < m; k++) {
        size_t e = m;
        if (finite)
            while (e > 0 && B[k * m + e - 1] == 0)
                e--;
        end[k] = e;
    }
    size_t i = 0;
    for (; finite && i + 4 <= m; i += 4) {
        double *c0 = C + i * m, *c1 = c0 + m, *c2 = c1 + m, *c3 = c2 + m;
        for (size_t k = 0; k < m; k++) {
            const double a0 = A[i * m + k], a1 = A[(i + 1) * m + k];
            const double a2 = A[(i + 2) * m + k], a3 = A[(i + 3) * m + k];
            if (a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0)
                continue;
            const double *b = B + k * m;
            const size_t e = end[k];
            for (size_t j = 0; j < e; j++) {
                const double bj = b[j];
                c0[j] += a0 * bj;
                c1[j] += a1 * bj;
                c2[j] += a2 * bj;
                c3[j] += a3 * bj;
            }
        }
    }
    for (; i < m; i++) {
        double *c = C + i * m;
        for (size_t k = 0; k < m; k++) {
            const double a = A[i * m + k];
            if (a == 0)
                continue;
            const double *b = B + k * m;
            const size_t e = end[k];
            for (size_t j = 0; j < e; j++)
                c[j] += a * b[j];
        }
    }
}

/* rescale V by a power of two so that its centre entry is near 1; *e keeps the exponent */
static void rescale(double *V, size_t m, long *e)
{
    double c = V[(m / 2) * m + m / 2];
    if (!(c > 0) || isinf(c))
        return;
    int x;
    frexp(c, &x);
    if (x > 256 || x < -256) {
        for (size_t i = 0; i < m * m; i++)
            V[i] = ldexp(V[i], -x);
        *e += x;
    }
}

/* rescale for a column v of V holding its centre entry at c (the same test, the same power
 * of two, applied to the entries that are still needed) */
static void rescale_col(double *v, size_t m, size_t c, long *e)
{
    double x0 = v[c];
    if (!(x0 > 0) || isinf(x0))
        return;
    int x;
    frexp(x0, &x);
    if (x > 256 || x < -256) {
        for (size_t i = 0; i < m; i++)
            v[i] = ldexp(v[i], -x);
        *e += x;
    }
}

/* The last step of the exponentiation computes only what the result reads, V[c][c] (c the
 * centre): column c of V V (m sums over k = 0, 1, ... in order, every product added: the
 * ones mat_mul leaves out are +-0 and change nothing, A and B being finite), rescaled as
 * rescale would, then (odd n) row c of H times it; the same bits as the full products at
 * m^2 operations instead of m^3.  0 (nothing done) when an entry is not finite. */
static int last_step(const double *H, double *V, double *T, size_t m, size_t c, int odd, long eH,
                     long *eV)
{
    for (size_t t = 0; t < m * m; t++)
        if (!isfinite(V[t]) || !isfinite(H[t]))
            return 0;
    for (size_t i = 0; i < m; i++) {
        double sum = 0;
        for (size_t q = 0; q < m; q++)
            sum += V[i * m + q] * V[q * m + c];
        T[i] = sum;
    }
    *eV *= 2;
    rescale_col(T, m, c, eV);
    if (odd) {
        double sum = 0;
        for (size_t q = 0; q < m; q++)
            sum += H[c * m + q] * T[q];
        *eV += eH;
        rescale_col(&sum, 1, 0, eV);
        T[c] = sum;
    }
    V[c * m + c] = T[c];
    return 1;
}

static size_t mtw_size(uint64_t n, double d, long double *nd, uint64_t *k)
{
    *nd = (long double)n * (long double)d;
    long double fk = floorl(*nd) + 1;
    if (fk > 1e9L)
        return SIZE_MAX;
    *k = (uint64_t)fk;
    return (size_t)(2 * *k - 1);
}

static unsigned bits_of(uint64_t n)
{
    unsigned b = 0;
    while (n) {
        b++;
        n >>= 1;
    }
    return b;
}

static double mtw_flops(uint64_t n, size_t m)
{
    double md = (double)m;
    return 2 * md * md * md * 2 * bits_of(n);
}

/* The values of a law of D_n that need no sum: NaN for no sample or a NaN d, at0 for
 * d <= 0, at1 for d >= 1 (*r set and 1; 0 for d inside (0, 1)) */
static int d_edge(uint64_t n, double d, double at0, double at1, double *r)
{
    if (n == 0 || isnan(d))
        *r = NAN;
    else if (d <= 0)
        *r = at0;
    else if (d >= 1)
        *r = at1;
    else
        return 0;
    return 1;
}

double em_ks_mtw_cdf(uint64_t n, double d, size_t max_m)
{
    double edge;
    if (d_edge(n, d, 0.0, 1.0, &edge))
        return edge;
    long double nd;
    uint64_t k;
    size_t m = mtw_size(n, d, &nd, &k);
    if (m == SIZE_MAX || (max_m && m > max_m))
        return NAN;
    const double h = (double)((long double)k - nd);
    double *H = malloc(m * m * sizeof *H), *V = malloc(m * m * sizeof *V),
           *T = malloc(m * m * sizeof *T);
    size_t *end = malloc(m * sizeof *end);
    if (!H || !V || !T || !end) {
        free(H); free(V); free(T); free(end);
        return NAN;
    }
    /* H before the factorial division, as in the paper */
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            H[i * m + j] = (i + 1 >= j) ? 1.0 : 0.0;
    for (size_t i = 0; i < m; i++) {
        H[i * m] -= pow(h, (double)(i + 1));
        H[(m - 1) * m + i] -= pow(h, (double)(m - i));
    }
    H[(m - 1) * m] += (2 * h - 1 > 0) ? pow(2 * h - 1, (double)m) : 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            if (i + 1 > j)
                for (size_t g = 1; g <= i + 1 - j; g++)
                    H[i * m + j] /= (double)g;
    /* V = H^n by binary exponentiation, from the top bit */
    long eH = 0, eV = 0;
    memcpy(V, H, m * m * sizeof *V);
    eV = eH;
    const size_t ck = k - 1; /* the centre, m / 2: rescale's entry, and the one wanted */
    for (int b = (int)bits_of(n) - 2; b >= 0; b--) {
        if (b == 0 && last_step(H, V, T, m, ck, n & 1, eH, &eV))
            break;
        mat_mul(V, V, T, m, end);
        memcpy(V, T, m * m * sizeof *V);
        eV *= 2;
        rescale(V, m, &eV);
        if ((n >> b) & 1) {
            mat_mul(H, V, T, m, end);
            memcpy(V, T, m * m * sizeof *V);
            eV += eH;
            rescale(V, m, &eV);
        }
    }
    /* s = V[k-1][k-1] * n! / n^n, scaled as we go */
    long double s = V[(k - 1) * m + (k - 1)];
    long e = eV;
    for (uint64_t i = 1; i <= n; i++) {
        s = s * (long double)i / (long double)n;
        if (s < 0x1p-256L && s > 0) {
            s = ldexpl(s, 256);
            e -= 256;
        }
    }
    free(H); free(V); free(T); free(end);
    double r = (double)ldexpl(s, (int)(e < -100000 ? -100000 : e > 100000 ? 100000 : e));
    if (r < 0)
        r = 0;
    if (r > 1)
        r = 1;
    return r;
}

double em_ks_smirnov_upper(uint64_t n, double d)
{
    double edge;
    if (d_edge(n, d, 1.0, 0.0, &edge))
        return edge;
    const long double N = (long double)n, nd = N * (long double)d, ld = logl((long double)d);
    long double lc = 0; /* log C(n, j) */
    long double M = -INFINITY, S = 0;
    for (uint64_t j = 0; j <= n; j++) {
        const long double J = (long double)j;
        const long double a = (N - J) - nd; /* n (1 - d - j/n) */
        if (a <= 0) /* the last term is j = floor(n (1 - d)); (1-d-j/n) = 0 gives 0 (d > 0) */
            break;
        long double L = lc + ld + (J - 1) * logl((nd + J) / N) + (N - J) * logl(a / N);
        if (L > M) {
            S = S * expl(M - L) + 1;
            M = L;
        } else {
            S += expl(L - M);
        }
        lc += logl((N - J) / (J + 1));
    }
    if (S == 0)
        return 0.0;
    long double p = expl(M) * S;
    return p > 1 ? 1.0 : (double)p;
}

double em_ks_kolmogorov_q(double t)
{
    if (isnan(t))
        return NAN;
    if (t <= 0)
        return 1.0;
    if (t < 1) { /* 1 - sqrt(2 pi) / t sum_k exp(-(2k-1)^2 pi^2 / (8 t^2)) */
        double s = 0;
        for (int k = 1; k < 50; k++) {
            double a = (2.0 * k - 1) * M_PI / t;
            double term = exp(-a * a / 8);
            s += term;
            if (term < 1e-300)
                break;
        }
        double q = 1 - sqrt(2 * M_PI) / t * s;
        return q < 0 ? 0 : q > 1 ? 1 : q;
    }
    double s = 0;
    for (int k = 1; k < 100; k++) {
        double term = exp(-2.0 * k * k * t * t);
        s += (k % 2 ? 2 : -2) * term;
        if (term < 1e-300)
            break;
    }
    return s < 0 ? 0 : s > 1 ? 1 : s;
}

double em_ks_pvalue(uint64_t n, double d, int *method, double *upper)
{
    int mth = EM_KS_EXACT;
    double p, up = NAN;
    if (n == 0 || isnan(d)) {
        p = NAN;
    } else if (d <= 0.5 / (double)n) {
        p = 1.0; /* D_N >= 1/(2N) always */
    } else if (d >= 1) {
        p = 0.0;
    } else {
        double t2 = 2 * em_ks_smirnov_upper(n, d);
        if (t2 > 1)
            t2 = 1;
        up = t2;
        if (d >= 0.5 || t2 < EM_KS_TAIL) {
            p = t2;
            mth = EM_KS_TAIL2;
        } else {
            long double nd;
            uint64_t k;
            size_t m = mtw_size(n, d, &nd, &k);
            double K = NAN;
            if (m != SIZE_MAX && mtw_flops(n, m) <= EM_KS_MTW_FLOPS)
                K = em_ks_mtw_cdf(n, d, 0);
            if (isnan(K)) {
                double sn = sqrt((double)n);
                p = em_ks_kolmogorov_q(d * (sn + 0.12 + 0.11 / sn));
                if (p > t2) /* the true p-value is below the rigorous bound */
                    p = t2;
                mth = EM_KS_ASYMPTOTIC;
            } else {
                p = 1 - K;
                if (p > t2) /* the union bound is exact arithmetic's upper bound */
                    p = t2;
            }
        }
    }
    if (method)
        *method = mth;
    if (upper)
        *upper = isnan(up) || mth != EM_KS_ASYMPTOTIC ? p : up;
    return p;
}

double em_ks_statistic(size_t m, const double *F, const uint64_t *count, uint64_t N,
                       size_t *where, int *side)
{
    return em_ks_statistic_atoms(m, F, F, count, N, where, side);
}

double em_ks_statistic_atoms(size_t m, const double *Fleft, const double *F,
                             const uint64_t *count, uint64_t N, size_t *where, int *side)
{
    long double best = 0, cum = 0;
    size_t w = 0;
    int sd = 1;
    const long double Nl = (long double)N;
    for (size_t i = 0; i < m; i++) {
        long double f = F[i] < 0 ? 0 : F[i] > 1 ? 1 : F[i];
        long double fl = Fleft[i] < 0 ? 0 : Fleft[i] > 1 ? 1 : Fleft[i];
        long double below = cum / Nl; /* F_N(x_i-) */
        cum += (long double)count[i];
        long double at = cum / Nl; /* F_N(x_i) */
        if (fl - below > best) {
            best = fl - below;
            w = i;
            sd = -1;
        }
        if (at - f > best) {
            best = at - f;
            w = i;
            sd = 1;
        }
    }
    if (where)
        *where = w;
    if (side)
        *side = sd;
    return (double)best;
}

const char *em_ks_method_name(int method)
{
    switch (method) {
    case EM_KS_EXACT:
        return "exact (Marsaglia-Tsang-Wang 2003)";
    case EM_KS_TAIL2:
        return "2 x exact one-sided tail (Birnbaum-Tingey 1951; equals the two-sided p-value "
               "to about its own size relatively)";
    default:
        return "Kolmogorov's limit with Stephens' correction (the exact matrix is too large "
               "at this N)";
    }
}
