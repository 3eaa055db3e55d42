/* em_law.c: the law of a mechanism (src/include/em_law.h) over the oracles: the finite
 * oracle (em_oracle), permute-and-flip (em_pf), the weighted and continuous law (em_cont),
 * the exact samplers and the verified core's float sampler.  What they build is cached in
 * the mechanism (struct em_law_cache), so a caller asking candidate by candidate or draw
 * by draw pays for the normaliser, the law and the samplers once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "expmech.h"
#include "io/em_label.h"
#include "io/em_scn_priv.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "oracle/em_pf_law.h"
#include "oracle/em_rational.h"

/* permute-and-flip's probabilities, all computed at once (em_pf_law.h: one shared
 * quadrature serves every candidate) */
typedef struct pf_table {
    char **dec, **log;   /* log[i] NULL: undecided ("nan") */
    double *pd, *ld;
    unsigned *fl;        /* EM_OF_FROM_LOG, EM_OF_LOG_FROM_LOG (= EM_PROB_*) */
    char *nines;         /* K nines: a probability below 1 that rounds to 1 */
    size_t left;         /* candidates not excluded */
} pf_table;

struct em_law_cache {
    em_usrc src;         /* the scenario's utilities for the oracle and the exact sampler */
    em_oracle *oracle;
    em_cont *law;
    pf_table *pf;
    em_pfu *pfu;         /* permute-and-flip's utility report */
    em_cval p, lp;       /* the last em_probs_get of the law */
    em_exact *exact;
    unsigned chunk0;     /* the exact sampler's own first chunk (variable timing) */
    em_pf *pfs;
    uint64_t *W, total;  /* the float sampler's fixed-point weights */
    uint64_t *C;         /* their cumulative table (em_cumulative), built for many draws */
};

struct em_sampler {
    em_mech *m;
    int kind;
    uint64_t calls;      /* em_sampler_draw calls so far */
    em_rng rng;
    em_bits bits;
};

enum { S_EXACT, S_PF, S_FLOAT, S_LAW, S_LAW_FLOAT };

static void pf_table_free(pf_table *t, size_t n)
{
    if (!t)
        return;
    for (size_t i = 0; i < n; i++) {
        if (t->dec)
            free(t->dec[i]);
        if (t->log)
            free(t->log[i]);
    }
    free(t->dec);
    free(t->log);
    free(t->pd);
    free(t->ld);
    free(t->fl);
    free(t->nines);
    free(t);
}

void em_law_cache_free(struct em_law_cache *c)
{
    if (!c)
        return;
    em_oracle_free(c->oracle);
    em_cont_free(c->law);
    pf_table_free(c->pf, c->pf ? ((const em_scenario *)c->src.ctx)->n : 0);
    em_pfu_free(c->pfu);
    em_cval_clear(&c->p);
    em_cval_clear(&c->lp);
    em_exact_free(c->exact);
    em_pf_free(c->pfs);
    free(c->W);
    free(c->C);
    free(c);
}

static int fail(em_error *err, int st, const char *what)
{
    return em_err(err, st, "%s%s%s", what ? what : "", what ? ": " : "", em_cont_strerror(st));
}

static struct em_law_cache *cache(em_mech *m, em_error *err)
{
    if (!m->law) {
        m->law = calloc(1, sizeof *m->law);
        if (!m->law) {
            em_err(err, EM_ERR_NOMEM, "out of memory");
            return NULL;
        }
        m->law->src.get = em_scenario_usrc_get;
        m->law->src.ctx = &m->scn->sc;
        em_cval_init(&m->law->p);
        em_cval_init(&m->law->lp);
    }
    return m->law;
}

/* The weighted or continuous law (em_cont) of m, built once. */
static int law(em_mech *m, em_cont **out, em_error *err)
{
    struct em_law_cache *c = cache(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_scenario *sc = &m->scn->sc;
    if (!c->law) {
        if (m->variant == EM_PF)
            return em_err(err, EM_ERR_VARIANT,
                          "variant pf is not available for this computation (standard and "
                          "monotone only)");
        char msg[EM_SCENARIO_ERRLEN] = "";
        int st;
        if (sc->continuous)
            st = em_cont_new_pieces(&sc->pieces, m->eps, m->delta, m->variant, m->digits,
                                    &c->law, msg, sizeof msg);
        else if ((st = em_scn_expand(m->scn, err)) == EM_OK)
            st = em_cont_new_atoms(sc->n, sc->u, sc->excluded,
                                   sc->has_measure ? sc->measure : NULL, m->eps, m->delta,
                                   m->variant, m->digits, &c->law, msg, sizeof msg);
        else
            return st;
        if (st != EM_OK)
            return msg[0] ? em_err(err, st, "%s", msg)
                          : em_err(err, st, "%s: %s", sc->name, em_strerror(st));
    }
    *out = c->law;
    return EM_OK;
}

static int continuous_law(em_mech *m, const char *fn, em_cont **out, em_error *err)
{
    if (!m)
        return em_err(err, EM_ERR_NULL, "%s: m is NULL", fn);
    if (!m->scn->sc.continuous)
        return em_err(err, EM_ERR_DOMAIN, "%s: %s is a finite scenario; a continuous one is "
                      "needed", fn, m->scn->sc.name);
    return law(m, out, err);
}

static int parse_num(const char *text, mpq_t q, em_error *err)
{
    int kind;
    const char *msg = NULL;
    if (!text)
        return em_err(err, EM_ERR_NULL, "a number is NULL");
    if (em_q_parse_str(text, 0, q, &kind, &msg) != EM_OK)
        return em_err(err, EM_ERR_PARSE, "bad number '%.60s': %s", text, msg ? msg : "malformed");
    return EM_OK;
}

/* ---------------------------------------------------------- permute-and-flip */

/* "1", "1.", "1.000..." (and no exponent): the K-digit rounding is exactly 1 */
static int dec_is_one(const char *s)
{
    if (s[0] != '1')
        return 0;
    const char *p = s + 1;
    if (*p == '.')
        p++;
    while (*p == '0')
        p++;
    return *p == 0;
}

/* The limit of permute-and-flip's exact law (EM_PF_PROBS_MAX_N), with a message. */
static int pf_limit(em_mech *m, em_error *err)
{
    const em_scenario *sc = &m->scn->sc;
    if (sc->n > EM_PF_PROBS_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY,
                      "variant pf: %s has %zu candidates; the exact permute-and-flip pmf is "
                      "limited to %zu", sc->name, sc->n, (size_t)EM_PF_PROBS_MAX_N);
    return EM_OK;
}

/* The utilities as rationals for PF's utility report. */
static int pf_expand(em_mech *m, em_error *err)
{
    int st = pf_limit(m, err);
    return st == EM_OK ? em_scn_expand(m->scn, err) : st;
}

/* A failure of a computation over PF's pmf: the utility report's sums have no logarithmic
 * fallback (the probabilities have, em_pf_law.h). */
static int pf_fail(em_error *err, int st)
{
    if (st == EM_ERR_UNDECIDED)
        return em_err(err, st, "variant pf: not computed: a value needs more than 2^20 bits, "
                      "or lies below MPFR's exponent range (about 10^-1.4e18) in the utility "
                      "report, whose sums have no logarithmic fallback");
    return em_err(err, st, "variant pf: %s", em_strerror(st));
}

static int pf_prepare(em_mech *m, struct em_law_cache *c, em_error *err)
{
    em_scenario *sc = &m->scn->sc;
    const size_t n = sc->n;
    int st = pf_limit(m, err);
    if (st != EM_OK)
        return st;
    pf_table *t = calloc(1, sizeof *t);
    if (t) {
        t->dec = calloc(n, sizeof *t->dec);
        t->log = calloc(n, sizeof *t->log);
        t->pd = malloc(n * sizeof *t->pd);
        t->ld = malloc(n * sizeof *t->ld);
        t->fl = calloc(n, sizeof *t->fl);
        t->nines = em_format_nines(m->digits);
    }
    if (!t || !t->dec || !t->log || !t->pd || !t->ld || !t->fl || !t->nines) {
        pf_table_free(t, n);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        t->left += !sc->excluded[i];
    em_pfl *L;
    st = em_pfl_new(n, &c->src, sc->excluded, m->eps, m->delta, EM_STANDARD, &L);
    if (st == EM_OK) {
        em_pfl_out o = {t->dec, t->log, t->pd, t->ld, t->fl};
        st = em_pfl_round(L, m->digits, &o);
        em_pfl_free(L);
    }
    if (st != EM_OK) {
        pf_table_free(t, n);
        return pf_fail(err, st);
    }
    c->pf = t;
    return EM_OK;
}

/* ------------------------------------------------------------- probabilities */

int em_probs_prepare(em_mech *m, em_error *err)
{
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_probs_prepare: m is NULL");
    struct em_law_cache *c = cache(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_scenario *sc = &m->scn->sc;
    int st = EM_OK;
    em_cont *L;
    if (sc->continuous || sc->has_measure)
        st = law(m, &L, err);
    else if (m->variant == EM_PF && !c->pf)
        st = pf_prepare(m, c, err);
    else if (m->variant != EM_PF && !c->oracle &&
             (st = em_oracle_new_src(sc->n, &c->src, sc->excluded, m->eps, m->delta,
                                     m->variant, m->digits, &c->oracle)) != EM_OK)
        em_err(err, st, "%s", em_strerror(st));
    if (st == EM_OK)
        em_err_ok(err);
    return st;
}

static unsigned cval_flags(const em_cval *p)
{
    unsigned f = (p->flags & EM_CV_NEAR_ONE) ? EM_PROB_NEAR_ONE : 0;
    if ((p->flags & EM_CV_EXACT) && !strcmp(p->str, "0"))
        f |= EM_PROB_ZERO;
    if ((p->flags & EM_CV_EXACT) && !strcmp(p->str, "1"))
        f |= EM_PROB_ONE;
    return f;
}

int em_probs_get(em_mech *m, size_t i, em_prob *out, em_error *err)
{
    if (!m || !out)
        return em_err(err, EM_ERR_NULL, "em_probs_get: m or out is NULL");
    int st = em_probs_prepare(m, err);
    if (st != EM_OK)
        return st;
    struct em_law_cache *c = m->law;
    const em_scenario *sc = &m->scn->sc;
    if (c->law) {
        if (i >= em_cont_size(c->law))
            return em_err(err, EM_ERR_DOMAIN, "%zu: no such %s (%zu)", i,
                          sc->continuous ? "piece" : "candidate", em_cont_size(c->law));
        if ((st = em_cont_prob(c->law, i, &c->p, &c->lp)) != EM_OK)
            return fail(err, st, NULL);
        *out = (em_prob){c->p.str, c->lp.str, c->p.d, c->lp.d, cval_flags(&c->p)};
    } else if (i >= sc->n) {
        return em_err(err, EM_ERR_DOMAIN, "%zu: no such candidate (%zu)", i, sc->n);
    } else if (c->pf) {
        const pf_table *t = c->pf;
        /* exactly 1 only for the only candidate; below 1 but rounding to 1: K nines */
        int n1 = t->left > 1 && dec_is_one(t->dec[i]);
        unsigned f = sc->excluded[i] ? EM_PROB_ZERO : t->left == 1 ? EM_PROB_ONE : 0;
        f |= (n1 ? EM_PROB_NEAR_ONE : 0) | t->fl[i];
        f |= !t->log[i] ? EM_PROB_UNDECIDED : 0;
        *out = (em_prob){n1 ? t->nines : t->dec[i], t->log[i] ? t->log[i] : "nan", t->pd[i],
                         t->ld[i], f};
    } else {
        em_oracle_cand r;
        if ((st = em_oracle_get(c->oracle, i, &r)) != EM_OK)
            return fail(err, st, NULL);
        /* EM_PROB_* are the oracle's EM_OF_* bits */
        *out = (em_prob){r.prob, r.logprob, r.prob_d, r.logprob_d, r.flags};
    }
    em_err_ok(err);
    return EM_OK;
}

static int end_text(const mpq_t q, int inf, const char *inf_text, char **out)
{
    *out = inf ? strdup(inf_text) : em_q_to_string(q, 40);
    return *out ? EM_OK : EM_ERR_NOMEM;
}

int em_piece_ends(em_mech *m, size_t j, char **lo, char **hi, em_error *err)
{
    if (!lo || !hi)
        return em_err(err, EM_ERR_NULL, "em_piece_ends: lo or hi is NULL");
    *lo = *hi = NULL;
    em_cont *L;
    int st = continuous_law(m, "em_piece_ends", &L, err);
    if (st != EM_OK)
        return st;
    if (j >= em_cont_size(L))
        return em_err(err, EM_ERR_DOMAIN, "piece %zu: no such piece (%zu)", j, em_cont_size(L));
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    int li, hinf;
    em_cont_piece(L, j, a, b, &li, &hinf, NULL, NULL);
    st = end_text(a, li, "-inf", lo);
    if (st == EM_OK)
        st = end_text(b, hinf, "inf", hi);
    mpq_clears(a, b, (mpq_ptr)0);
    if (st != EM_OK) {
        free(*lo);
        *lo = NULL;
        return em_err(err, st, "out of memory");
    }
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------------ sampling */

/* The float sampler's weights: utilities, epsilon and D rounded to doubles, then the
 * verified core (em_logweights, em_weights_fixed). */
static int float_weights(em_mech *m, struct em_law_cache *c, em_error *err)
{
    em_scenario *sc = &m->scn->sc;
    int st = em_scn_doubles(m->scn, err);
    if (st != EM_OK)
        return st;
    for (size_t i = 0; i < sc->n; i++)
        if (!sc->excluded[i] && isinf(sc->ud[i])) {
            char buf[EM_SCENARIO_MAX_LINE * 6 + 16];
            return em_err(err, EM_ERR_DOMAIN, "%s:%lu: utility of '%s' is beyond double's "
                          "range; the float sampler cannot take it (expmech probs can)",
                          sc->name, em_scenario_line(sc, i),
                          em_label_human_str(buf, sizeof buf, sc->labels[i], 0));
        }
    double eps = em_q_get_d(m->eps, NULL), del = em_q_get_d(m->delta, NULL);
    if ((st = em_check_params(eps, del, m->variant)) != EM_OK)
        return em_err(err, st, "%s (as doubles: epsilon %g, sensitivity %g)", em_strerror(st),
                      eps, del);
    c->W = malloc(sc->n * sizeof *c->W);
    if (!c->W)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    size_t argmax;
    uint64_t scale;
    /* the weights of em_logweights + em_weights_fixed, without the log-weight array */
    st = em_weights_fixed_u(sc->n, sc->ud, eps, del, m->variant, c->W, &c->total, &scale, &argmax);
    if (st != EM_OK) {
        free(c->W);
        c->W = NULL;
        return em_err(err, st, "%s", em_strerror(st));
    }
    return EM_OK;
}

/* The finite exact samplers, built once; timing sets the exact sampler's first chunk. */
static int finite_sampler(em_mech *m, struct em_law_cache *c, int pf, int timing, em_error *err)
{
    em_scenario *sc = &m->scn->sc;
    int st = EM_OK;
    if (pf && !c->pfs && (st = em_scn_expand(m->scn, err)) == EM_OK) /* em_pf takes rationals */
        st = em_pf_new(sc->n, sc->u, sc->excluded, m->eps, m->delta, EM_STANDARD, &c->pfs);
    else if (!pf && !c->exact &&
             (st = em_exact_new_src(sc->n, &c->src, sc->excluded, m->eps, m->delta, m->variant,
                                    &c->exact)) == EM_OK)
        c->chunk0 = em_exact_first_chunk(c->exact);
    /* SECURITY.md: one 63-bit read, one full scan per draw */
    if (st == EM_OK && !pf)
        st = em_exact_set_first_chunk(c->exact, timing == EM_TIMING_FIXED ? 63 : c->chunk0);
    if (st != EM_OK && !(err && err->msg[0])) /* em_scn_expand has said it */
        em_err(err, st, "%s", em_strerror(st));
    return st;
}

int em_sampler_new(em_mech *m, const em_sample_opts *o, em_sampler **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_sampler_new: out is NULL");
    *out = NULL;
    if (!m || !o)
        return em_err(err, EM_ERR_NULL, "em_sampler_new: m or options NULL");
    if (o->sampler != EM_SAMPLER_EXACT && o->sampler != EM_SAMPLER_FLOAT)
        return em_err(err, EM_ERR_DOMAIN, "unknown sampler %d", o->sampler);
    if (o->timing != EM_TIMING_VARIABLE && o->timing != EM_TIMING_FIXED)
        return em_err(err, EM_ERR_DOMAIN, "unknown timing %d", o->timing);
    const em_scenario *sc = &m->scn->sc;
    const int fl = o->sampler == EM_SAMPLER_FLOAT, pf = m->variant == EM_PF;
    const int cont = sc->continuous || sc->has_measure;
    if (o->timing == EM_TIMING_FIXED && (fl || cont || pf))
        return em_err(err, EM_ERR_DOMAIN,
                      "timing fixed is offered by the exact sampler of a finite scenario only: "
                      "the continuous sampler's time reveals the piece, permute-and-flip's the "
                      "visiting order (SECURITY.md)");
    struct em_law_cache *c = cache(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_err_ok(err);
    em_cont *L;
    int st, kind = S_EXACT;
    if (cont) {
        st = law(m, &L, err);
        kind = fl ? S_LAW_FLOAT : S_LAW;
    } else if (pf && fl) {
        st = em_err(err, EM_ERR_VARIANT, "variant pf has only the exact sampler");
    } else if (fl) {
        st = c->W ? EM_OK : float_weights(m, c, err);
        kind = S_FLOAT;
    } else {
        st = finite_sampler(m, c, pf, o->timing, err);
        kind = pf ? S_PF : S_EXACT;
    }
    if (st != EM_OK)
        return st;
    em_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    s->m = m;
    s->kind = kind;
    st = o->seeded ? em_rng_init_chacha(&s->rng, o->seed) : em_rng_init_os(&s->rng);
    if (st != EM_OK) {
        free(s);
        return em_err(err, st, "random source: %s", em_strerror(st));
    }
    em_bits_init_rng(&s->bits, &s->rng);
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

void em_sampler_free(em_sampler *s) { free(s); }

/* One draw: the index, and x for a continuous law. */
static int draw1(em_sampler *s, size_t *idx, double *x)
{
    struct em_law_cache *c = s->m->law;
    switch (s->kind) {
    case S_EXACT:
        return em_exact_sample(c->exact, &s->bits, idx);
    case S_PF:
        return em_pf_sample(c->pfs, &s->bits, idx);
    case S_FLOAT: /* the same uniform word, the same cell as em_sample_fixed, in O(log n) */
        if (c->C)
            return em_sample_cumulative_many(s->m->scn->sc.n, c->C, &s->rng, 1, idx);
        return em_sample_fixed(s->m->scn->sc.n, c->W, c->total, &s->rng, idx);
    case S_LAW:
        return em_cont_sample(c->law, &s->bits, idx, x);
    default:
        return em_cont_sample_float(c->law, &s->rng, idx, x);
    }
}

static int draw(em_sampler *s, size_t n, size_t *idx, double *x, em_error *err)
{
    const char *fn = x ? "em_sampler_draw_cont" : "em_sampler_draw";
    if (!s || (!idx && !x))
        return em_err(err, EM_ERR_NULL, "%s: sampler or out is NULL", fn);
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "%s: n = 0: no draws asked", fn);
    if (!s->m->scn->sc.continuous != !x)
        return em_err(err, EM_ERR_DOMAIN, "%s: the mechanism is %s", fn,
                      x ? "finite (em_sampler_draw)" : "continuous (em_sampler_draw_cont)");
    /* Many float draws (several in one call, or a second call): one O(n) pass builds
       the cumulative table, then each draw is a binary search instead of em_select's
       full scan; a one-shot draw does not pay for it.  Without memory, the scan it is. */
    struct em_law_cache *c = s->m->law;
    size_t ncand = s->m->scn->sc.n;
    if (s->kind == S_FLOAT && (n >= 2 || s->calls >= 1) && !c->C && c->W && c->total >= 1 &&
        ncand >= 1 && (c->C = malloc(ncand * sizeof *c->C)) != NULL)
        em_cumulative(ncand, c->W, c->C);
    s->calls++;
    /* Finite float draws from the table: one call draws them all, from the same words
       and to the same cells as n calls of draw1 (em_sample_cumulative_many's contract),
       without a call of the random source per word. */
    if (s->kind == S_FLOAT && c->C && idx) {
        int st = em_sample_cumulative_many(ncand, c->C, &s->rng, n, idx);
        if (st != EM_OK)
            return fail(err, st, NULL);
        em_err_ok(err);
        return EM_OK;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i;
        double v = 0;
        int st = draw1(s, &i, &v);
        if (st != EM_OK)
            return fail(err, st, NULL);
        if (x)
            x[k] = v;
        else
            idx[k] = i;
    }
    em_err_ok(err);
    return EM_OK;
}

int em_sampler_draw(em_sampler *s, size_t n, size_t *out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_sampler_draw: out is NULL");
    return draw(s, n, out, NULL, err);
}

int em_sampler_draw_cont(em_sampler *s, size_t n, double *out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_sampler_draw_cont: out is NULL");
    return draw(s, n, NULL, out, err);
}

static int sample_n(em_mech *m, const em_sample_opts *o, size_t n, size_t *idx, double *x,
                    em_error *err)
{
    if (!idx && !x)
        return em_err(err, EM_ERR_NULL, "%s: out is NULL", x ? "em_sample_cont" : "em_sample");
    em_sampler *s;
    int st = em_sampler_new(m, o, &s, err);
    if (st == EM_OK)
        st = x ? em_sampler_draw_cont(s, n, x, err) : em_sampler_draw(s, n, idx, err);
    em_sampler_free(s);
    return st;
}

int em_sample(em_mech *m, const em_sample_opts *o, size_t n, size_t *out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_sample: out is NULL");
    return sample_n(m, o, n, out, NULL, err);
}

int em_sample_cont(em_mech *m, const em_sample_opts *o, size_t n, double *out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_sample_cont: out is NULL");
    return sample_n(m, o, n, NULL, out, err);
}

/* ----------------------------------------------------------- continuous laws */

/* The strings of v1 and v2 handed to *o1 and *o2 (a NULL o1 or o2: not wanted). */
static void take(em_cval *v1, char **o1, em_cval *v2, char **o2)
{
    if (o1) {
        *o1 = v1->str;
        v1->str = NULL;
    }
    if (o2) {
        *o2 = v2->str;
        v2->str = NULL;
    }
}

/* One or two exact numbers in, one em_cont computation, one or two strings out. */
enum { F_CDF, F_DENSITY, F_QUANTILE, F_INTERVAL, F_TAIL };

static int pointwise(em_mech *m, int f, const char *fn, const char *x, const char *y,
                     char **out, char **out2, em_error *err)
{
    if (!out || (f == F_DENSITY && !out2))
        return em_err(err, EM_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (out2)
        *out2 = NULL;
    em_cont *L;
    int st = f == F_TAIL ? (m ? law(m, &L, err) : em_err(err, EM_ERR_NULL, "%s: m is NULL", fn))
                         : continuous_law(m, fn, &L, err);
    if (st != EM_OK)
        return st;
    mpq_t a, b;
    mpq_inits(a, b, (mpq_ptr)0);
    em_cval v1, v2;
    em_cval_init(&v1);
    em_cval_init(&v2);
    st = parse_num(x, a, err);
    if (st == EM_OK && f == F_INTERVAL)
        st = parse_num(y, b, err);
    if (st == EM_OK && f == F_INTERVAL && mpq_cmp(a, b) > 0)
        st = em_err(err, EM_ERR_DOMAIN, "%s: a > b", fn);
    else if (st == EM_OK && f == F_TAIL && mpq_sgn(a) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "%s: a loss threshold must be >= 0", fn);
    else if (st == EM_OK) {
        st = f == F_CDF        ? em_cont_cdf(L, a, &v1)
             : f == F_DENSITY  ? em_cont_density(L, a, &v1, &v2)
             : f == F_QUANTILE ? em_cont_quantile(L, a, &v1)
             : f == F_INTERVAL ? em_cont_interval_prob(L, a, b, &v1)
                               : em_cont_loss_tail(L, a, &v1);
        if (st != EM_OK)
            fail(err, st, NULL);
    }
    mpq_clears(a, b, (mpq_ptr)0);
    if (st == EM_OK) {
        take(&v1, out, &v2, out2);
        em_err_ok(err);
    }
    em_cval_clear(&v1);
    em_cval_clear(&v2);
    return st;
}

int em_cdf(em_mech *m, const char *x, char **out, em_error *err)
{
    return pointwise(m, F_CDF, "em_cdf", x, NULL, out, NULL, err);
}

int em_interval_prob(em_mech *m, const char *a, const char *b, char **out, em_error *err)
{
    return pointwise(m, F_INTERVAL, "em_interval_prob", a, b, out, NULL, err);
}

int em_density(em_mech *m, const char *x, char **out, em_error *err)
{
    char *logd = NULL;
    int st = pointwise(m, F_DENSITY, "em_density", x, NULL, out, &logd, err);
    free(logd);
    return st;
}

int em_density_log(em_mech *m, const char *x, char **density, char **log_density,
                   em_error *err)
{
    return pointwise(m, F_DENSITY, "em_density_log", x, NULL, density, log_density, err);
}

int em_quantile(em_mech *m, const char *p, char **out, em_error *err)
{
    return pointwise(m, F_QUANTILE, "em_quantile", p, NULL, out, NULL, err);
}

/* Permute-and-flip's utility report (em_accuracy.h), built once; the law's refusal of pf
 * for a measure or pieces. */
static int pf_report(em_mech *m, em_pfu **out, em_error *err)
{
    struct em_law_cache *c = cache(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_scenario *sc = &m->scn->sc;
    em_cont *L;
    if (sc->continuous || sc->has_measure)
        return law(m, &L, err);
    int st = c->pfu ? EM_OK : pf_expand(m, err);
    if (st == EM_OK && !c->pfu &&
        (st = em_pfu_new(sc->n, sc->u, sc->excluded, m->eps, m->delta, m->digits, &c->pfu)) !=
            EM_OK)
        em_err(err, st, "out of memory");
    *out = c->pfu;
    return st;
}

int em_loss_tail(em_mech *m, const char *t, char **out, em_error *err)
{
    if (!m || m->variant != EM_PF)
        return pointwise(m, F_TAIL, "em_loss_tail", t, NULL, out, NULL, err);
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_loss_tail: out is NULL");
    *out = NULL;
    em_pfu *P;
    int st = pf_report(m, &P, err);
    if (st != EM_OK)
        return st;
    mpq_t q;
    mpq_init(q);
    em_cval v;
    em_cval_init(&v);
    st = parse_num(t, q, err);
    if (st == EM_OK && mpq_sgn(q) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "em_loss_tail: a loss threshold must be >= 0");
    else if (st == EM_OK && (st = em_pfu_loss_tail(P, q, &v)) != EM_OK)
        pf_fail(err, st);
    mpq_clear(q);
    if (st == EM_OK) {
        take(&v, out, NULL, NULL);
        em_err_ok(err);
    }
    em_cval_clear(&v);
    return st;
}

/* ------------------------------------------------------------ exact numbers */

int em_num_cmp(const char *a, const char *b, int *sign, em_error *err)
{
    if (!a || !b || !sign)
        return em_err(err, EM_ERR_NULL, "em_num_cmp: a, b or sign is NULL");
    mpq_t qa, qb;
    mpq_inits(qa, qb, (mpq_ptr)0);
    int st = parse_num(a, qa, err);
    if (st == EM_OK)
        st = parse_num(b, qb, err);
    if (st == EM_OK) {
        int c = mpq_cmp(qa, qb);
        *sign = (c > 0) - (c < 0);
        em_err_ok(err);
    }
    mpq_clears(qa, qb, (mpq_ptr)0);
    return st;
}

static int grid_q(const char *lo, const char *hi, uint64_t n, uint64_t i, mpq_t q,
                  em_error *err)
{
    mpq_t a, step;
    mpq_inits(a, step, (mpq_ptr)0);
    int st = parse_num(lo, a, err);
    if (st == EM_OK)
        st = parse_num(hi, step, err);
    if (st == EM_OK && (n == 0 || i >= n))
        st = em_err(err, EM_ERR_DOMAIN, "grid point %llu of %llu: no such point",
                    (unsigned long long)i, (unsigned long long)n);
    else if (st == EM_OK && mpq_cmp(a, step) > 0)
        st = em_err(err, EM_ERR_DOMAIN, "grid: lo > hi");
    else if (st == EM_OK && n == 1 && !mpq_equal(a, step))
        st = em_err(err, EM_ERR_DOMAIN, "grid: n = 1 needs lo = hi");
    else if (st == EM_OK) {
        mpq_set(q, a);
        if (n > 1) {
            mpq_sub(step, step, a);
            mpz_mul_ui(mpq_denref(step), mpq_denref(step), (unsigned long)(n - 1));
            mpq_canonicalize(step);
            mpz_mul_ui(mpq_numref(step), mpq_numref(step), (unsigned long)i);
            mpq_canonicalize(step);
            mpq_add(q, q, step);
        }
    }
    mpq_clears(a, step, (mpq_ptr)0);
    return st;
}

int em_grid_point(em_mech *m, const char *lo, const char *hi, uint64_t n, uint64_t i,
                  char **exact, char **shown, em_error *err)
{
    if (!exact)
        return em_err(err, EM_ERR_NULL, "em_grid_point: exact is NULL");
    *exact = NULL;
    if (shown)
        *shown = NULL;
    em_cont *L = NULL;
    int st = shown ? continuous_law(m, "em_grid_point", &L, err) : EM_OK;
    if (st != EM_OK)
        return st;
    mpq_t q;
    mpq_init(q);
    em_cval v;
    em_cval_init(&v);
    if ((st = grid_q(lo, hi, n, i, q, err)) == EM_OK) {
        *exact = em_q_to_string(q, 60);
        char *sh = shown ? em_q_to_string(q, 20) : NULL;
        if (sh && strchr(sh, '/')) { /* no short exact form: correctly rounded */
            free(sh);
            sh = NULL;
            if ((st = em_cont_round_q(L, q, &v)) != EM_OK)
                fail(err, st, NULL);
            else
                sh = strdup(v.str);
        }
        if (st == EM_OK && (!*exact || (shown && !sh)))
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        if (shown)
            *shown = sh;
    }
    em_cval_clear(&v);
    mpq_clear(q);
    if (st != EM_OK) {
        free(*exact);
        *exact = NULL;
        if (shown) {
            free(*shown);
            *shown = NULL;
        }
        return st;
    }
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------ utility report */

void em_utility_result_free(em_utility_result *r)
{
    if (!r)
        return;
    free(r->opt);
    free(r->expected_utility);
    free(r->expected_loss);
    free(r->sd_loss);
    free(r->p_best);
    free(r);
}

int em_utility(em_mech *m, em_utility_result **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_utility: out is NULL");
    *out = NULL;
    if (!m)
        return em_err(err, EM_ERR_NULL, "em_utility: m is NULL");
    em_cont *L = NULL;
    em_pfu *P = NULL;
    int st = m->variant == EM_PF ? pf_report(m, &P, err) : law(m, &L, err);
    if (st != EM_OK)
        return st;
    em_cval v[5]; /* opt, E[u], loss, sd, P(best) */
    for (int k = 0; k < 5; k++)
        em_cval_init(&v[k]);
    if (P) {
        if ((st = em_pfu_utility(P, &v[0], &v[1], &v[2], &v[3], &v[4])) != EM_OK)
            pf_fail(err, st);
    } else {
        st = em_cont_utility(L, &v[1], &v[2], &v[0]);
        if (st == EM_OK)
            st = em_cont_sd(L, &v[3]);
        if (st == EM_OK)
            st = em_cont_p_best(L, &v[4]);
    }
    em_utility_result *r = st == EM_OK ? calloc(1, sizeof *r) : NULL;
    if (st != EM_OK) {
        if (!P) /* pf: pf_fail has said why */
            fail(err, st, NULL);
    } else if (!r)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    else {
        char **s[5] = {&r->opt, &r->expected_utility, &r->expected_loss, &r->sd_loss, &r->p_best};
        double *d[5] = {&r->opt_d, &r->expected_utility_d, &r->expected_loss_d, &r->sd_loss_d,
                        &r->p_best_d};
        for (int k = 0; k < 5; k++) {
            *s[k] = v[k].str;
            v[k].str = NULL;
            *d[k] = v[k].d;
        }
        /* P(best) < 1 exactly when the loss is positive (the loss is 0 only when all mass
         * sits at opt, and a positive loss never rounds to "0"): a rounding to 1 is then
         * printed as K nines, as the probabilities are (EM_PROB_NEAR_ONE), never as a
         * "1.000" that reads as certainty */
        if (r->p_best && r->p_best[0] == '1' && strspn(r->p_best + 1, ".0") == strlen(r->p_best + 1) &&
            r->expected_loss && strcmp(r->expected_loss, "0") != 0) {
            char *nines = em_format_nines(m->digits);
            if (!nines) {
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
            } else {
                free(r->p_best);
                r->p_best = nines;
            }
        }
        if (st == EM_OK) {
            *out = r;
            em_err_ok(err);
        } else {
            em_utility_result_free(r);
        }
    }
    for (int k = 0; k < 5; k++)
        em_cval_clear(&v[k]);
    return st;
}

/* ------------------------------------------------------- the accuracy theorem */

int em_loss_bounds(em_mech *m, const char *t, char **expected_loss_bound, char **p_bound,
                   em_error *err)
{
    if (expected_loss_bound)
        *expected_loss_bound = NULL;
    if (p_bound)
        *p_bound = NULL;
    if (!m || (!expected_loss_bound && !t) || (t && !p_bound))
        return em_err(err, EM_ERR_NULL, "em_loss_bounds: m or an output is NULL");
    const em_scenario *sc = &m->scn->sc;
    if (sc->continuous)
        return em_err(err, EM_ERR_DOMAIN, "em_loss_bounds: %s is a continuous scenario; the "
                      "accuracy theorem bounds finite ones", sc->name);
    mpq_t tq, u, opt, tot, best, c, one;
    mpq_inits(tq, u, opt, tot, best, c, one, (mpq_ptr)0);
    mpq_set_ui(one, 1, 1);
    int st = t ? parse_num(t, tq, err) : EM_OK;
    if (st == EM_OK && mpq_sgn(tq) < 0)
        st = em_err(err, EM_ERR_DOMAIN, "em_loss_bounds: a loss threshold must be >= 0");
    /* |R| and |R_OPT| over the outputs of positive probability, weighted by the measure */
    int have = 0;
    for (size_t i = 0; i < sc->n && st == EM_OK; i++) {
        mpq_srcptr w = sc->has_measure ? sc->measure[i] : NULL;
        if (sc->excluded[i] || (w && mpq_sgn(w) == 0))
            continue;
        em_scenario_get_u(sc, i, u);
        int cmp = have ? mpq_cmp(u, opt) : 1;
        if (cmp > 0) {
            mpq_set(opt, u);
            mpq_set_ui(best, 0, 1);
        }
        if (cmp >= 0)
            mpq_add(best, best, w ? w : one);
        mpq_add(tot, tot, w ? w : one);
        have = 1;
    }
    if (st == EM_OK && !have)
        st = em_err(err, EM_ERR_ALL_EXCLUDED, "%s: no output has positive probability",
                    sc->name);
    em_cval eb, pb;
    em_cval_init(&eb);
    em_cval_init(&pb);
    if (st == EM_OK) {
        mpq_div(tot, tot, best);
        mpq_div(c, m->eps, m->delta);
        if (m->variant != EM_MONOTONE) /* pf meets the standard mechanism's bounds */
            mpz_mul_ui(mpq_denref(c), mpq_denref(c), 2);
        mpq_canonicalize(c);
        st = em_theorem_bounds(tot, c, t ? tq : NULL, m->digits,
                               expected_loss_bound ? &eb : NULL, &pb);
        if (st == EM_ERR_UNDECIDED)
            em_err(err, st, "the bound ratio exp(-c t) at t = %.60s lies below MPFR's exponent "
                   "range (about 10^-1.4e18): not computed", t);
        else if (st != EM_OK)
            fail(err, st, NULL);
    }
    if (st == EM_OK) {
        take(&eb, expected_loss_bound, &pb, t ? p_bound : NULL);
        em_err_ok(err);
    }
    em_cval_clear(&eb);
    em_cval_clear(&pb);
    mpq_clears(tq, u, opt, tot, best, c, one, (mpq_ptr)0);
    return st;
}

/* ------------------------------------------------------------ Monte Carlo */

int em_loss_mc(em_mech *m, const em_sample_opts *o, uint64_t n, double *mean, double *se,
               em_error *err)
{
    if (!m || !o || !mean || !se)
        return em_err(err, EM_ERR_NULL, "em_loss_mc: m, o, mean or se is NULL");
    if (n < 2)
        return em_err(err, EM_ERR_DOMAIN, "em_loss_mc: %llu draws: a standard error needs 2 "
                      "at least", (unsigned long long)n);
    em_sampler *s;
    int st = em_sampler_new(m, o, &s, err);
    if (st != EM_OK)
        return st;
    const em_scenario *sc = &m->scn->sc;
    const em_cont *L = m->law->law; /* built by the sampler for a measure or pieces */
    mpq_t opt, q, a, b;
    mpq_inits(opt, q, a, b, (mpq_ptr)0);
    if (sc->continuous || sc->has_measure)
        em_cont_opt(L, opt);
    for (size_t i = 0, have = 0; !sc->continuous && !sc->has_measure && i < sc->n; i++)
        if (!sc->excluded[i]) {
            em_scenario_get_u(sc, i, q);
            if (!have++ || mpq_cmp(q, opt) > 0)
                mpq_set(opt, q);
        }
    /* Welford's running mean and sum of squares: one pass, no cancellation */
    long double mu = 0, m2 = 0;
    for (uint64_t k = 0; k < n && st == EM_OK; k++) {
        size_t i;
        double x = 0;
        if ((st = draw1(s, &i, &x)) != EM_OK) {
            fail(err, st, NULL);
            break;
        }
        if (sc->continuous) { /* u = a + b x at the double drawn, exactly */
            em_cont_piece(L, i, NULL, NULL, NULL, NULL, a, b);
            mpq_set_d(q, x);
            mpq_mul(q, q, b);
            mpq_add(q, q, a);
        } else {
            em_scenario_get_u(sc, i, q);
        }
        mpq_sub(q, opt, q);
        long double l = em_q_get_d(q, NULL), d = l - mu;
        mu += d / (long double)(k + 1);
        m2 += d * (l - mu);
    }
    em_sampler_free(s);
    mpq_clears(opt, q, a, b, (mpq_ptr)0);
    if (st != EM_OK)
        return st;
    *mean = (double)mu;
    *se = (double)sqrtl(m2 / (long double)(n - 1) / (long double)n);
    em_err_ok(err);
    return EM_OK;
}
