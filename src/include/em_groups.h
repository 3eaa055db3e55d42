/* em_groups.h: who loses more?  The rows of a CSV file grouped by one column, each group's
 * rows scored into its own scenario (count, frequency or maxnorm over one candidate set),
 * and the exponential mechanism run per group with a share of one total epsilon (seed
 * 001): each group's epsilon, its true mode(s), the probability that the output is a
 * true mode, the expected loss, and the gap between the best and the worst group.
 *
 * Conventions: em_scn.h; decimal results are rounded as em_law.h says (correctly rounded
 * to the digits asked for; "0" and "1" only when exact).
 */
#ifndef EM_GROUPS_H
#define EM_GROUPS_H

#include <stddef.h>
#include <stdio.h>

#include "em_mech.h"
#include "em_scoring.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct em_groups em_groups;

/* Read o->data, a CSV file with a header line: o->column holds the values scored, group_by
 * the group of each row (neither empty on any row; the two columns differ).  o->function
 * is count, frequency or maxnorm; o->aggregated is refused (an aggregate has no groups).
 * One candidate set serves every group: o->candidates, or with o->candidates_from_data
 * the distinct values of all the rows (em_groups_get's warning then says it is not private).
 * Each group's scenario is what em_scoring_new makes of that group's rows alone, with the
 * sensitivity proven for them (frequency, n public: 1/n_g), its first comment line
 * "group: GROUP_BY = NAME (n_g of n rows)".  Groups are in order of first appearance in
 * the file (the order of the weights of em_groups_analyse).  Errors: EM_ERR_NULL,
 * EM_ERR_PARSE (what em_scoring_new refuses, with the same messages; a missing column or
 * --group-by column; fewer than two groups: the message names the one), EM_ERR_NOMEM.
 * *out freed with em_free. */
EM_API int em_groups_new(const em_scoring_opts *o, const char *group_by, em_groups **out,
                         em_error *err);

/* What groups hold (owned by g; valid until em_free(g)). */
typedef struct em_groups_info {
    size_t count;                /* k >= 2 groups */
    size_t total_rows;           /* n, all groups */
    const char *const *name;     /* name[i], i < count: group i's value of group_by */
    const size_t *rows;          /* rows[i]: n_i */
    em_scoring *const *scoring;  /* scoring[i]: group i's score (scenario and comment lines) */
    const char *warning;         /* the warning of candidates_from_data, or NULL */
} em_groups_info;

/* g not NULL. */
EM_API em_groups_info em_groups_get(const em_groups *g);

/* em_write (em_scn.h) of the groups: every group's scenario (as em_write writes its score)
 * written to DIR/NAME, DIR the field dir of em_write_opts, creating the files (whatever
 * the format), NAME the group's name with every byte other than A-Z, a-z, 0-9, '_', '-' and a '.'
 * that does not start the name written %XX (two upper-case hex digits), then ".txt" ("Blue"
 * -> "Blue.txt", "a b/c" -> "a%20b%2Fc.txt", ".." -> "%2E..txt"): distinct names give
 * distinct files, none hidden, none a path.  The files: when one exists already (or cannot
 * be created) nothing is written (the files this call created are removed) and the message
 * names it.  Once all are written, their paths "DIR/NAME" to em_write's f, one a line.
 * Errors: EM_ERR_NULL (o->dir), EM_ERR_DOMAIN (a file exists, cannot be created or
 * written), EM_ERR_NOMEM. */

/* ------------------------------------------------------------------ analysis */

typedef struct em_groups_opts {
    const char *epsilon;     /* the total epsilon, exact, > 0 */
    const char *split;       /* how it is shared: "proportional" (eps n_g / n, seed 001's),
                                "equal" (eps / k), "full" (eps to each group: parallel
                                composition, eps-DP overall only when the groups partition
                                the rows and membership is public), or "w1,w2,...": k exact
                                weights > 0 in group order summing to <= 1 (eps w_g) */
    const char *sensitivity; /* exact, > 0; NULL: each group's proven one */
    int variant;             /* as em_opts (EM_VARIANT_AUTO: standard) */
    int force;               /* as em_opts: a sensitivity below a group's proven one, or
                                monotone on a scenario not declared monotone, is refused
                                (em_mech_new) unless force */
    int digits;              /* significant digits, 1..1000; 0: 17 */
} em_groups_opts;

#define EM_GROUPS_OPTS_INIT {NULL, NULL, NULL, EM_VARIANT_AUTO, 0, 0}

typedef struct em_group_report {
    char *epsilon;         /* the group's epsilon, exact text (em_mech_get's epsilon) */
    char *share;           /* n_g / n, exact text */
    size_t n_modes;
    char **modes;          /* the candidates of largest utility (the true mode(s): the
                              non-private answer), in candidate order */
    char *p_true_mode;     /* P(the output is a true mode) (em_utility's p_best); below 1
                              but rounding to 1: K nines "0.99...9" (em_law.h) */
    char *expected_loss;   /* OPT - E[u(output)] (em_utility) */
    double p_true_mode_d, expected_loss_d;
    char *provenance;      /* em_mech_get's provenance of the group's mechanism */
} em_group_report;

typedef struct em_groups_report {
    size_t n;              /* = em_groups_get(g).count */
    em_group_report *group;
    char *gap;             /* max - min over the groups of P(true mode): exact, correctly
                              rounded (Ziv: as the difference of the P(no true mode), sums
                              of the other candidates' probabilities correctly rounded to
                              D >= digits + 8 digits, so that it keeps its relative
                              precision however close to 1 the probabilities are; D doubled
                              up to 1000 until both ends of the difference's interval
                              round alike); "0" exactly when every group's law is the same
                              (the same exponents c (u - max u)) */
    double gap_d;
} em_groups_report;

/* Run the mechanism of each group's scenario with its share of o->epsilon.  Errors:
 * EM_ERR_NULL, EM_ERR_PARSE (epsilon, sensitivity or a weight not an exact number; a
 * split that is none of the above; the message names it), EM_ERR_EPSILON (epsilon or a
 * weight not > 0), EM_ERR_DOMAIN (k weights expected; weights summing above 1; digits; a
 * refusal of em_mech_new, the message naming the group), the errors of em_mech_new and
 * em_utility (EM_ERR_VARIANT: pf where em_utility does not take it), EM_ERR_UNDECIDED
 * (the gap not decided at 1000 digits), EM_ERR_NOMEM.  *out freed with
 * em_free. */
EM_API int em_groups_analyse(em_groups *g, const em_groups_opts *o, em_groups_report **out,
                             em_error *err);

/* em_write (em_scn.h) of a report of em_groups_analyse (g, over which it was computed, must
 * still exist), at the total epsilon o->epsilon as given, as expmech groups writes it:
 * EM_WRITE_CSV (the header line
 * "epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,gap" at run
 * 0, then a row per group: the true modes as one field "a|b") or EM_WRITE_JSON (one object
 * {"epsilon", "split", "groups": [...], "gap"}; in a sweep of sweep_n > 1 the runs' objects
 * in one list; "split" as em_groups_analyse was given it). Errors: EM_ERR_NULL
 * (o->epsilon), EM_ERR_DOMAIN (EM_WRITE_TEXT or an unknown format, sweep_i beyond sweep_n,
 * writing to f failed), EM_ERR_NOMEM. */

#ifdef __cplusplus
}
#endif
#endif
