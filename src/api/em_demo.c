/* em_demo.c: the marital-status demo of seed 000 (em_example.h, `expmech demo`): the
 * verified core's float path on the seed's scores, written as a table and draws. */
#include <stdint.h>
#include <stdio.h>

#include "api/em_seeds.h"
#include "api/em_write_priv.h"
#include "base/em_error.h"
#include "core/em_fixed.h"
#include "core/em_logweights.h"
#include "core/em_params.h"
#include "core/em_uniform.h"
#include "em_example.h"

#define NCAT EM_MARITAL_N

int em_demo_write(FILE *out, uint64_t draws, const uint64_t *seed, em_error *err)
{
    double u[NCAT], lw[NCAT], logp[NCAT], p[NCAT];
    uint64_t W[NCAT], total, scale;
    size_t argmax, hits[NCAT] = {0};
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_demo_write: out is NULL");
    for (size_t i = 0; i < NCAT; i++)
        u[i] = em_marital_counts[i] / 1000.0; /* the seed's score, count/1000 */
    int st = em_logweights(NCAT, u, 1.0, 1.0, EM_STANDARD, lw, &argmax);
    if (st == EM_OK)
        st = em_normalize(NCAT, lw, logp, p);
    if (st == EM_OK)
        st = em_weights_fixed(NCAT, lw, W, &total, &scale);
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    fprintf(out, "Exponential mechanism, seed 000 marital status: u = count/1000, "
                 "epsilon = 1, sensitivity = 1, standard variant\n"
                 "float path: the verified core in double precision (exact values: "
                 "expmech example marital | expmech probs --epsilon 1)\n\n");
    fprintf(out, "%-22s %7s %10s %24s %22s\n", "category", "count", "utility",
            "float probability", "float log-prob.");
    for (size_t i = 0; i < NCAT; i++)
        fprintf(out, "%-22s %7ld %10.3f %24.17g %22.17g\n", em_marital_labels[i],
                em_marital_counts[i], u[i], p[i], logp[i]);
    em_rng rng;
    st = em_rng_init(&rng, seed ? EM_RNG_CHACHA : EM_RNG_OS, seed, seed ? 1 : 0);
    if (st != EM_OK)
        return em_err(err, st, "%s", em_strerror(st));
    fprintf(out, "\n%llu draws (%s), float sampler:\n", (unsigned long long)draws,
            seed ? "ChaCha20, explicit seed" : "operating-system CSPRNG");
    for (uint64_t d = 0; d < draws; d++) {
        size_t r;
        if ((st = em_sample_fixed(NCAT, W, total, &rng, &r)) != EM_OK)
            return em_err(err, st, "%s", em_strerror(st));
        hits[r]++;
        if (d < 20) /* the first draws shown, then only the counts */
            fprintf(out, "  %s\n", em_marital_labels[r]);
    }
    if (draws > 20) {
        fprintf(out, "  ...\ncounts over all %llu draws:\n", (unsigned long long)draws);
        for (size_t i = 0; i < NCAT; i++)
            fprintf(out, "  %-22s %zu\n", em_marital_labels[i], hits[i]);
    }
    return em_write_end("em_demo_write", out, err);
}
