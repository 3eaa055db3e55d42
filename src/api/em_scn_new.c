/* em_scn_new.c: the one constructor of a scenario from arrays (em_scn.h), over its five
 * forms: exact text, pieces, a file and its text (em_scn.c), doubles (em_binary.c). */
#include "api/em_scn_priv.h"
#include "base/em_error.h"

int em_scn_new(const em_scn_spec *spec, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new: out is NULL");
    *out = NULL;
    if (!spec)
        return em_err(err, EM_ERR_NULL, "em_scn_new: spec is NULL");
    const em_scn_spec *p = spec;
    int text = p->utilities || p->labels || p->measure;
    int dbl = p->utilities_d || p->measure_d;
    int pieces = p->lo || p->hi || p->a || p->b;
    int file = p->path != NULL;
    int source = p->text || p->len || p->name;
    if (text + dbl + pieces + file + source != 1)
        return em_err(err, EM_ERR_DOMAIN, "em_scn_new: give one of utilities, utilities_d, "
                                          "lo, hi, a, path or text (and the fields of that "
                                          "form only)");
    if (file || source)
        return em_scn_from_source(p->path, p->text, p->len, p->name, out, err);
    if (text)
        return em_scn_from_text(p->n, p->utilities, p->labels, p->measure, out, err);
    if (dbl)
        return em_scn_from_doubles(p->n, p->utilities_d, p->measure_d, out, err);
    return em_scn_from_pieces(p->n, p->lo, p->hi, p->a, p->b, out, err);
}
