/* probabilities.c: the exponential mechanism through libexpmech's public API, the way
 * another project would call it.  Build: make (uses pkg-config expmech).
 *
 * Seed 000's marital-status example: seven categories with utilities u, epsilon 1,
 * sensitivity 1, the standard variant (weight exp(eps*u/(2*delta))).  Prints
 *   the library version,
 *   each category's probability (float path: em_logweights + em_normalize),
 *   a few draws from the proven fixed-point sampler (em_weights_fixed +
 *   em_sample_fixed) with a seeded ChaCha20 source, so the run is reproducible.
 * Exit status 0 on success, 1 if the library reports an error. */
#include <expmech.h>
#include <inttypes.h>
#include <stdio.h>

#define N 7
#define DRAWS 5

static int fail(const char *what, int status)
{
    fprintf(stderr, "probabilities: %s: %s\n", what, em_strerror(status));
    return 1;
}

int main(void)
{
    static const char *const label[N] = {
        "Never-married", "Married-civ-spouse", "Divorced", "Married-spouse-absent",
        "Separated", "Married-AF-spouse", "Widowed"};
    static const double u[N] = {10.683, 14.976, 4.443, 0.418, 1.025, 0.023, 0.993};
    const double eps = 1.0, delta = 1.0;
    double lw[N], logp[N], p[N];
    size_t argmax;
    int st;

    printf("libexpmech %s (header %s)\n", em_version(), EM_VERSION_STRING);

    if ((st = em_logweights(N, u, eps, delta, EM_STANDARD, lw, &argmax)) != EM_OK)
        return fail("em_logweights", st);
    if ((st = em_normalize(N, lw, logp, p)) != EM_OK)
        return fail("em_normalize", st);
    for (size_t i = 0; i < N; i++)
        printf("p %-22s %.17g\n", label[i], p[i]);

    /* The sampler draws integers: weights 2^k * exp(lw) rounded up, then one exact
     * uniform pick per draw; no floating point after em_weights_fixed. */
    uint64_t W[N], total, scale;
    if ((st = em_weights_fixed(N, lw, W, &total, &scale)) != EM_OK)
        return fail("em_weights_fixed", st);
    em_rng rng;
    if ((st = em_rng_init(&rng, EM_RNG_CHACHA, &(uint64_t){2026}, 1)) != EM_OK)
        return fail("em_rng_init", st);
    for (int d = 0; d < DRAWS; d++) {
        size_t r;
        if ((st = em_sample_fixed(N, W, total, &rng, &r)) != EM_OK)
            return fail("em_sample_fixed", st);
        printf("draw %s\n", label[r]);
    }
    return 0;
}
