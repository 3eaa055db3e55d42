/* em_audit_nb.c: are the two datasets of an audit neighbours at the sensitivity used?  An
 * audit of two scenarios that are not (a utility moves by more than Delta, or the
 * candidates differ) measures a loss no eps-DP guarantee bounds: it is said, not hidden.
 * Two different '# sensitivity:' headers leave Delta ambiguous: refused unless the caller
 * chose one. */
#include "em_base.h"
#include "em_judge.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "io/em_label.h"
#include "num/em_rational.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/em_obj.h"

static int audit_neighbours_plain(const em_mech *x, const em_mech *y, int sensitivity_given,
                                  char **note,
                                  em_error *err)
{
    if (!x || !y || !note)
        return em_err(err, EM_ERR_NULL, "em_audit_neighbours: x, y or note is NULL");
    *note = NULL;
    const em_scn *sx = x->scn, *sy = y->scn;
    if (!sensitivity_given && sx->has_sensitivity && sy->has_sensitivity &&
        !mpq_equal(sx->sensitivity, sy->sensitivity)) {
        char *a = em_q_to_string(sx->sensitivity, 17), *b = em_q_to_string(sy->sensitivity, 17);
        int st = em_err(err, EM_ERR_DOMAIN, "%s declares '# sensitivity: %s', %s '# sensitivity: "
                        "%s': which one holds for both?  Pass o->sensitivity D", sx->name,
                        a ? a : "?", sy->name, b ? b : "?");
        free(a);
        free(b);
        return st;
    }
    if (sx->continuous || sy->continuous || sx->n != sy->n) {
        em_err_ok(err);
        return EM_OK; /* pieces: compared by the exact loss; sizes: check_pair says so */
    }
    mpq_t ux, uy, d;
    mpq_inits(ux, uy, d, (mpq_ptr)0);
    int st = EM_OK;
    for (size_t i = 0; i < sx->n && !*note && st == EM_OK; i++) {
        char h[128];
        long j = em_scn_lookup(sy, sx->labels[i], strlen(sx->labels[i]));
        if (j < 0)
            break; /* check_pair and the label map say so */
        int ex = sx->excluded[i], ey = sy->excluded[j];
        if (ex != ey) {
            if (asprintf(note, "X and Y are not neighbours: '%s' is excluded (-inf) in %s only",
                         em_label_human_str(h, sizeof h, sx->labels[i], 64),
                         ex ? sx->name : sy->name) < 0)
                st = EM_ERR_NOMEM;
            continue;
        }
        if (ex)
            continue;
        em_scn_get_u(sx, i, ux);
        em_scn_get_u(sy, (size_t)j, uy);
        mpq_sub(d, ux, uy);
        mpq_abs(d, d);
        if (mpq_cmp(d, x->delta) > 0) {
            char *ds = em_q_to_string(d, 17);
            if (asprintf(note, "X and Y are not neighbours at sensitivity %s: |u_X - u_Y| = %s "
                         "at '%s' (eps-DP bounds the loss only between neighbours)",
                         x->delta_s, ds ? ds : "?",
                         em_label_human_str(h, sizeof h, sx->labels[i], 64)) < 0)
                st = EM_ERR_NOMEM;
            free(ds);
        }
    }
    mpq_clears(ux, uy, d, (mpq_ptr)0);
    if (st != EM_OK) {
        *note = NULL;
        return em_err(err, st, "out of memory");
    }
    em_err_ok(err);
    return EM_OK;
}

int em_audit_neighbours(const em_mech *x, const em_mech *y, int sensitivity_given, char **note,
                        em_error *err)
{
    return EM_OBJ_STRINGS(audit_neighbours_plain(x, y, sensitivity_given, note, err), err, note);
}
