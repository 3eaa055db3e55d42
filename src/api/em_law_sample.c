/* em_law_sample.c: the samplers of a mechanism (em_law.h): the exact samplers and the
 * verified core's float sampler, built once and cached in the mechanism. */
#include "api/em_law_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "em_base.h"
#include "api/em_scn_priv.h"
#include "api/em_write_priv.h"
#include "base/em_error.h"
#include "core/em_fixed.h"
#include "core/em_logweights.h"
#include "core/em_params.h"
#include "core/em_select.h"
#include "core/em_uniform.h"
#include "io/em_label.h"
#include "num/em_bounds.h"
#include "num/em_format.h"
#include "num/em_rational.h"
#include "num/em_round.h"
#include "oracle/em_accuracy.h"
#include "oracle/em_cont.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "oracle/em_pf.h"
#include "em_law.h"
#include "api/em_obj.h"


struct em_sampler {
    em_mech *m;
    int kind;
    uint64_t calls;      /* em_sampler_draw calls so far */
    em_rng rng;
    em_bits bits;
};

enum { S_EXACT, S_PF, S_FLOAT, S_LAW, S_LAW_FLOAT };

/* ------------------------------------------------------------------ sampling */

/* The float sampler's weights: utilities, epsilon and D rounded to doubles, then the
 * verified core (em_logweights, em_weights_fixed). */
static int float_weights(em_mech *m, struct em_law_cache *c, em_error *err)
{
    em_scn *sc = m->scn;
    int st = em_scn_doubles(m->scn, err);
    if (st != EM_OK)
        return st;
    for (size_t i = 0; i < sc->n; i++)
        if (!sc->excluded[i] && isinf(sc->ud[i])) {
            char buf[EM_SCN_MAX_LINE * 6 + 16];
            return em_err(err, EM_ERR_DOMAIN, "%s:%lu: utility of '%s' is beyond double's "
                          "range; the float sampler cannot take it (expmech probs can)",
                          sc->name, em_scn_line(sc, i),
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
    int st = EM_OK;
    if (pf && !c->pfs)
        st = em_pf_new(&m->prob, &c->pfs, err);
    else if (!pf && !c->exact && (st = em_exact_new(&m->prob, &c->exact, err)) == EM_OK)
        c->chunk0 = em_exact_first_chunk(c->exact);
    /* SECURITY.md: one 63-bit read, one full scan per draw */
    if (st == EM_OK && !pf)
        st = em_exact_set_first_chunk(c->exact, timing == EM_TIMING_FIXED ? 63 : c->chunk0);
    return st;
}

static em_obj_write_fn sampler_write; /* em_write of a sampler: below */

int em_sampler_new(em_mech *m, const em_sample_opts *o, em_sampler **out, em_error *err)
{
    int st = EM_OUT_OPEN("em_sampler_new", out, m && o, "m or options", err);
    if (st != EM_OK)
        return st;
    if (o->sampler != EM_SAMPLER_EXACT && o->sampler != EM_SAMPLER_FLOAT)
        return em_err(err, EM_ERR_DOMAIN, "unknown sampler %d", o->sampler);
    if (o->timing != EM_TIMING_VARIABLE && o->timing != EM_TIMING_FIXED)
        return em_err(err, EM_ERR_DOMAIN, "unknown timing %d", o->timing);
    const em_scn *sc = m->scn;
    const int fl = o->sampler == EM_SAMPLER_FLOAT, pf = m->variant == EM_PF;
    const int cont = sc->continuous || sc->has_measure;
    if (o->timing == EM_TIMING_FIXED && (fl || cont || pf))
        return em_err(err, EM_ERR_DOMAIN,
                      "timing fixed is offered by the exact sampler of a finite scenario only: "
                      "the continuous sampler's time reveals the piece, permute-and-flip's the "
                      "visiting order (SECURITY.md)");
    struct em_law_cache *c = em_law_cache_of(m, err);
    if (!c)
        return EM_ERR_NOMEM;
    em_err_ok(err);
    em_cont *L;
    int kind = S_EXACT;
    if (cont) {
        st = em_law_cont(m, &L, err);
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
    em_sampler *s = em_obj_new(sizeof *s, NULL);
    if (!s)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_obj_writer(s, sampler_write, NULL, NULL);
    s->m = m;
    s->kind = kind;
    st = em_rng_init(&s->rng, o->seeded ? EM_RNG_CHACHA : EM_RNG_OS, &o->seed, o->seeded ? 1 : 0);
    if (st != EM_OK) {
        em_obj_release(s);
        return em_err(err, st, "random source: %s", em_strerror(st));
    }
    em_bits_init_rng(&s->bits, &s->rng);
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

/* One draw: the index, and x for a continuous law. */
int em_law_draw1(em_sampler *s, size_t *idx, double *x)
{
    struct em_law_cache *c = s->m->law;
    switch (s->kind) {
    case S_EXACT:
        return em_exact_sample(c->exact, &s->bits, idx);
    case S_PF:
        return em_pf_sample(c->pfs, &s->bits, idx);
    case S_FLOAT: /* the same uniform word, the same cell as em_sample_fixed, in O(log n) */
        if (c->C)
            return em_sample_cumulative_many(s->m->scn->n, c->C, &s->rng, 1, idx);
        return em_sample_fixed(s->m->scn->n, c->W, c->total, &s->rng, idx);
    case S_LAW:
        return em_cont_sample(c->law, &s->bits, idx, x);
    default:
        return em_cont_sample_float(c->law, &s->rng, idx, x);
    }
}

/* Finite float draws come from the table in batches of this many: one call of the core's
   many-draw sampler each, from the same words as one call for all of them. */
#define FLOAT_BATCH 512

int em_sampler_draw(em_sampler *s, size_t n, em_draw *out, em_error *err)
{
    if (!s || !out)
        return em_err(err, EM_ERR_NULL, "em_sampler_draw: sampler or out is NULL");
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "em_sampler_draw: n = 0: no draws asked");
    const int cont = s->m->scn->continuous;
    /* Many float draws (several in one call, or a second call): one O(n) pass builds
       the cumulative table, then each draw is a binary search instead of em_select's
       full scan; a one-shot draw does not pay for it.  Without memory, the scan it is. */
    struct em_law_cache *c = s->m->law;
    size_t ncand = s->m->scn->n;
    if (s->kind == S_FLOAT && (n >= 2 || s->calls >= 1) && !c->C && c->W && c->total >= 1 &&
        ncand >= 1 && (c->C = malloc(ncand * sizeof *c->C)) != NULL)
        em_cumulative(ncand, c->W, c->C);
    s->calls++;
    /* Finite float draws from the table: the same words and the same cells as n calls of
       em_law_draw1 (em_sample_cumulative_many's contract), without a call of the random
       source per word. */
    if (s->kind == S_FLOAT && c->C) {
        size_t idx[FLOAT_BATCH];
        for (size_t k = 0; k < n;) {
            size_t b = n - k < FLOAT_BATCH ? n - k : FLOAT_BATCH;
            int st = em_sample_cumulative_many(ncand, c->C, &s->rng, b, idx);
            if (st != EM_OK)
                return em_law_fail(err, st, NULL);
            for (size_t j = 0; j < b; j++, k++) {
                out[k].index = idx[j];
                out[k].value = NAN;
            }
        }
        em_err_ok(err);
        return EM_OK;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i;
        double v = NAN;
        int st = em_law_draw1(s, &i, &v);
        if (st != EM_OK)
            return em_law_fail(err, st, NULL);
        out[k].index = i;
        out[k].value = cont ? v : NAN;
    }
    em_err_ok(err);
    return EM_OK;
}


/* em_write of a sampler: w.draws of its draws */
static int sampler_write(FILE *f, const void *obj, const void *const *ctx,
                         const em_write_opts *o, em_error *err)
{
    static const char fn[] = "em_write";
    em_sampler *sp = (em_sampler *)obj; /* drawing advances its stream */
    em_write_opts w;
    uint64_t none;
    (void)ctx;
    int st = em_write_begin(fn, f, sp, sp, o, EM_WRITE_ACCEPTS(EM_WRITE_CSV), &w, err);
    uint64_t *done = w.done ? w.done : &none, n = w.draws;
    *done = 0;
    if (st != EM_OK)
        return st;
    const em_mech_info mi = em_mech_get(sp->m);
    const int cont = em_scn_get(mi.scn).continuous;
    /* one draw a call: a failed write stops the drawing at once, as a draw is costly */
    for (uint64_t k = 0; k < n; k++) {
        em_draw d;
        if ((st = em_sampler_draw(sp, 1, &d, err)) != EM_OK)
            return st;
        em_write_sweep_row(f, &w, mi.epsilon, "value", (size_t)k);
        if (cont) {
            fprintf(f, "%.17g\n", d.value);
        } else {
            em_write_csv_label(f, em_scn_label(mi.scn, d.index), &w);
            fputc('\n', f);
        }
        ++*done;
        if (ferror(f))
            break;
    }
    return em_write_end(fn, f, err);
}
