/* em_score_text.c: the text of a scored scenario: exact numbers, the header lines
 * (function, definition, rows, neighbours) and the proven sensitivity. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmp.h>

#include "em_base.h"
#include "em_score.h"
#include "api/em_scn_priv.h"
#include "api/em_score_priv.h"
#include "base/em_error.h"
#include "core/em_count.h"
#include "core/em_score_count.h"
#include "core/em_score_laplace.h"
#include "core/em_score_range.h"
#include "core/em_score_rank.h"
#include "core/em_score_revenue.h"
#include "core/em_score_rr.h"
#include "io/em_data.h"
#include "num/em_rational.h"

int em_scoring_parse_q(em_error *err, const char *s, mpq_t q, const char *what)
{
    const char *msg = NULL;
    int kind;
    if (em_q_parse_str(s, 0, q, &kind, &msg) != EM_OK)
        return em_data_fail(err, "%s: '%s' is not an exact number (%s)", what, s,
                            msg ? msg : "malformed");
    return EM_OK;
}

/* q as a short exact decimal or a/b ("?" when out of memory: the parse of the text then
   fails, and the caller reports it). */
void em_scoring_put_q(FILE *out, const mpq_t q)
{
    char *s = em_q_to_string(q, 40);
    fputs(s ? s : "?", out);
    free(s);
}

/* The canonical text of a number ("3.0" -> "3"), or NULL when s is not a number. */
char *em_scoring_canon_number(const char *s)
{
    mpq_t q;
    mpq_init(q);
    int kind;
    char *r = NULL;
    if (em_q_parse_str(s, 0, q, &kind, NULL) == EM_OK)
        r = em_q_to_string(q, 60);
    mpq_clear(q);
    return r;
}

/* ------------------------------------------------------------ output */

void em_scoring_puts(FILE *out, const char *s)
{
    fputs(s, out);
    fputc('\n', out);
}

void em_scoring_header(FILE *out, const char *fn, const char *def, size_t rows, size_t m, int neigh,
                   const char *lemma)
{
    if (rows == 0) /* laplace with --f: no data file */
        fprintf(out, "# expmech score %s: %s; %zu candidates\n", fn, def, m);
    else
        fprintf(out, "# expmech score %s: %s; %zu rows, %zu candidates\n", fn, def, rows, m);
    fprintf(out, "# neighbours: %s; sensitivity proven in %s\n",
            neigh == NB_ADD_REMOVE ? "add/remove one row" : "substitute one row", lemma);
}

void em_scoring_put_sensitivity(FILE *out, const mpq_t delta, int monotone)
{
    fputs("# sensitivity: ", out);
    em_scoring_put_q(out, delta);
    fputc('\n', out);
    if (monotone)
        em_scoring_puts(out, "# monotone: yes");
}

const char em_scoring_median_def[] =
    "u(A, c) = -min |A (+) B| over B of the same size with lower median c (spec/Rank.acsl)";

const char em_scoring_laplace_factor[] =
    "# the factor of 2 of seed 002: spec/Theorems.md section 6";
