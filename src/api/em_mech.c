/* em_mech.c: mechanisms of the high-level API (src/include/em_mech.h): a scenario with
 * epsilon, the sensitivity and the variant resolved by the one rule that keeps privacy as
 * declared (em_params_src.h), and the line that says where each came from. */
#include "api/em_params_src.h"
#include "api/em_scn_priv.h"
#include "base/em_error.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_problem.h"
#include "em_mech.h"

_Static_assert(EM_DIGITS_MAX == EM_ROUND_MAX_DIGITS, "em_opts.digits is the rounding's limit");

#include <stdio.h>
#include <stdlib.h>
#include "api/em_obj.h"


const char *em_variant_text(int variant)
{
    return variant == EM_PF ? "pf" : variant == EM_MONOTONE ? "monotone" : "standard";
}

static int parse_param(const char *what, const char *text, mpq_t q, int bad_status,
                       em_error *err)
{
    int kind;
    const char *msg = NULL;
    if (em_q_parse_str(text, 0, q, &kind, &msg) != EM_OK)
        return em_err(err, EM_ERR_PARSE, "%s '%.40s': %s", what, text, msg ? msg : "malformed");
    if (mpq_sgn(q) <= 0)
        return em_err(err, bad_status, "%s %.40s: must be > 0", what, text);
    return EM_OK;
}

static void mech_destroy(void *obj)
{
    em_mech *m = obj;
    if (m->law)
        m->law_free(m->law);
    mpq_clears(m->eps, m->delta, (mpq_ptr)0);
    em_problem_clear(&m->prob);
    free(m->eps_s);
    free(m->delta_s);
    free(m->provenance);
    em_obj_release(m);
}

static char *provenance(const em_scn *sc, const em_params_out *o, const char *ds,
                        const char *hs)
{
    char src[EM_SCN_ERRLEN + 64];
    if (o->delta_src == EM_SRC_HEADER)
        snprintf(src, sizeof src, "header of %s", sc->name);
    else if (o->delta_src == EM_SRC_OPTION && sc->has_sensitivity)
        snprintf(src, sizeof src, "option; the header of %s says %s", sc->name, hs);
    else
        snprintf(src, sizeof src, "%s", em_src_name(o->delta_src));
    char *line = NULL;
    if (asprintf(&line, "variant %s (%s), sensitivity %s (%s)%s%s",
                 em_variant_text(o->variant), em_src_name(o->variant_src), ds, src,
                 o->forced && (o->refusal & EM_PARAMS_DELTA_BELOW_HEADER)
                     ? "; FORCED below the header's sensitivity: not epsilon-DP as declared" : "",
                 o->forced && (o->refusal & EM_PARAMS_MONOTONE_UNDECLARED)
                     ? "; FORCED monotone without '# monotone: yes': not epsilon-DP as declared"
                     : "") < 0)
        return NULL;
    return line;
}

/* The problem of m (its variant resolved): the scenario's utilities read through the
 * scenario, whatever form they are kept in. */
static int mech_problem(em_mech *m, em_error *err)
{
    em_scn *sc = m->scn;
    int st = em_problem_params(&m->prob, m->eps, m->delta,
                               m->variant == EM_PF ? EM_STANDARD : m->variant, err);
    if (sc->continuous) {
        m->prob.pieces = &sc->pieces;
    } else {
        m->prob.n = sc->n;
        m->prob.reader = (em_utility_reader){em_scn_reader_get, sc};
        m->prob.excluded = sc->excluded;
        m->prob.measure = sc->has_measure ? sc->measure : NULL;
    }
    return st;
}

int em_mech_new(em_scn *s, const em_opts *o, em_mech **out, em_error *err)
{
    int st = EM_OUT_OPEN("em_mech_new", out, s && o, "scenario or options", err);
    if (st != EM_OK)
        return st;
    if (!o->epsilon)
        return em_err(err, EM_ERR_EPSILON, "epsilon is required");
    if (o->variant != EM_VARIANT_AUTO && o->variant != EM_STANDARD &&
        o->variant != EM_MONOTONE && o->variant != EM_PF)
        return em_err(err, EM_ERR_VARIANT, "unknown variant %d", o->variant);
    int digits = o->digits ? o->digits : 17;
    if (digits < 1 || digits > EM_ROUND_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", o->digits,
                      EM_ROUND_MAX_DIGITS);
    const em_scn *sc = s;
    if (o->variant == EM_PF && (sc->continuous || sc->has_measure))
        return em_err(err, EM_ERR_VARIANT, "variant pf is not available for %s scenarios",
                      sc->continuous ? "continuous" : "weighted (measure)");
    em_mech *m = em_obj_new(sizeof *m, mech_destroy);
    if (!m)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_obj_writer(m, em_mech_write, NULL, NULL);
    mpq_inits(m->eps, m->delta, (mpq_ptr)0);
    em_problem_init(&m->prob);
    m->scn = s;
    m->digits = digits;
    mpq_t opt_delta;
    mpq_init(opt_delta);
    st = parse_param("epsilon", o->epsilon, m->eps, EM_ERR_EPSILON, err);
    if (st == EM_OK && o->sensitivity)
        st = parse_param("sensitivity", o->sensitivity, opt_delta, EM_ERR_SENSITIVITY, err);
    char *ds = NULL, *hs = NULL;
    if (st == EM_OK) {
        em_params_in in = {
            .opt_delta_given = o->sensitivity != NULL, .opt_delta = opt_delta,
            .hdr_delta_given = sc->has_sensitivity, .hdr_delta = sc->sensitivity,
            .opt_variant_given = o->variant != EM_VARIANT_AUTO, .opt_variant = o->variant,
            .hdr_monotone = sc->has_monotone && sc->monotone,
            .monotone_value = EM_MONOTONE, .standard_value = EM_STANDARD, .force = o->force,
        };
        em_params_out po;
        int r = em_params_resolve(&in, m->delta, &po);
        ds = em_q_to_string(m->delta, 17);
        hs = em_q_to_string(sc->sensitivity, 17);
        if (!ds || !hs)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        else if (r != 0 && (po.refusal & EM_PARAMS_DELTA_BELOW_HEADER))
            st = em_err(err, EM_ERR_DOMAIN,
                        "sensitivity %s is below the sensitivity %s declared by %s's header: "
                        "the mechanism would not be epsilon-DP for that score (force to run it "
                        "anyway)", ds, hs, sc->name);
        else if (r != 0)
            st = em_err(err, EM_ERR_DOMAIN,
                        "variant monotone needs '# monotone: yes' in %s: exp(eps u / D) is not "
                        "epsilon-DP for a score that is not monotone (force to run it anyway)",
                        sc->name);
        else {
            m->variant = po.variant;
            m->forced = po.forced;
            m->provenance = provenance(sc, &po, ds, hs);
            m->eps_s = em_q_to_string(m->eps, 60);
            m->delta_s = em_q_to_string(m->delta, 60);
            if (!m->provenance || !m->eps_s || !m->delta_s)
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
        }
    }
    if (st == EM_OK)
        st = mech_problem(m, err);
    if (st == EM_OK && !sc->continuous) {
        int all = 1;
        for (size_t i = 0; i < sc->n && all; i++)
            all = sc->excluded[i] != 0;
        if (all)
            st = em_err(err, EM_ERR_ALL_EXCLUDED, "%s: every candidate is excluded (-inf)",
                        sc->name);
    }
    free(ds);
    free(hs);
    mpq_clear(opt_delta);
    return EM_HAND_OUT(st, m, em_free, out, err);
}

em_mech_info em_mech_get(const em_mech *m)
{
    return em_mech_view(m);
}
