/* em_params_src.h: which sensitivity and variant a computation uses, where each came from,
 * and whether that choice may weaken the privacy the scenario's headers declare.
 *
 * The rule (docs/cli.md, "Sensitivity and variant"):
 *   - the sensitivity is the option's, else the '# sensitivity:' header's, else 1;
 *     an option BELOW the header is refused (the header is the proven bound: a smaller
 *     Delta makes the mechanism only (H/D) epsilon-DP), unless forced;
 *   - the variant is the option's, else standard.  '# monotone: yes' declares that the
 *     monotone variant is valid; it never switches the default (what the seeds and every
 *     peer compute).  The monotone variant on a scenario without that header is refused
 *     (exp(eps u / Delta) is not eps-DP for a non-monotone score: Monotone.mlw,
 *     monotone_counterexample), unless forced.
 * The caller prints the provenance (em_params_src_name) and the refusal.
 */
#ifndef EM_IO_PARAMS_SRC_H
#define EM_IO_PARAMS_SRC_H

#include <gmp.h>

typedef enum em_src { EM_SRC_DEFAULT = 0, EM_SRC_OPTION = 1, EM_SRC_HEADER = 2 } em_src;

typedef enum em_params_refusal {
    EM_PARAMS_OK = 0,
    EM_PARAMS_DELTA_BELOW_HEADER = 1, /* --sensitivity < '# sensitivity:' */
    EM_PARAMS_MONOTONE_UNDECLARED = 2 /* --variant monotone without '# monotone: yes' */
} em_params_refusal;

typedef struct em_params_in {
    int opt_delta_given;  mpq_srcptr opt_delta;    /* --sensitivity */
    int hdr_delta_given;  mpq_srcptr hdr_delta;    /* '# sensitivity:' */
    int opt_variant_given; int opt_variant;          /* --variant (any int; monotone checked) */
    int hdr_monotone;                                /* '# monotone: yes' */
    int monotone_value;                              /* the value that means monotone */
    int standard_value;                              /* the default variant's value */
    int force;                                       /* --force */
} em_params_in;

typedef struct em_params_out {
    int variant;
    em_src variant_src, delta_src;
    unsigned refusal;           /* the rules broken, a set of em_params_refusal bits (also
                                 * set when forced) */
    int forced;                 /* a refusal overridden by force */
} em_params_out;

/* delta receives the sensitivity.  Returns 0, or -1 when refused (out->refusal says why and
 * force was not given). */
int em_params_resolve(const em_params_in *in, mpq_t delta, em_params_out *out);

/* "default", "option", "header" */
const char *em_src_name(em_src s);

#endif
