/* em_pf_brute.h: permute-and-flip's output distribution by brute force, independent of
 * src/oracle/em_pf.c, for the tests of the exact pmf (test_pf.c) and of the command line
 * (test_cli.c): P(r) = sum over all n! visiting orders of
 * prod_{j before r} (1 - p_j) p_r / n!, in long double, n <= 8. */
#ifndef EM_PF_BRUTE_H
#define EM_PF_BRUTE_H

#include <stddef.h>

static inline void pf_brute(size_t n, const double *p, long double *P)
{
    size_t perm[8];
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
        P[i] = 0;
    }
    long double nf = 1;
    for (size_t i = 2; i <= n; i++)
        nf *= i;
    for (;;) {
        long double rej = 1;
        for (size_t k = 0; k < n; k++) {
            P[perm[k]] += rej * p[perm[k]] / nf;
            rej *= 1 - (long double)p[perm[k]];
        }
        size_t i = n - 1;
        while (i > 0 && perm[i - 1] >= perm[i])
            i--;
        if (i == 0)
            break;
        size_t j = n - 1;
        while (perm[j] <= perm[i - 1])
            j--;
        size_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
        for (size_t a = i, b = n - 1; a < b; a++, b--) {
            t = perm[a];
            perm[a] = perm[b];
            perm[b] = t;
        }
    }
}

#endif
