/* em_scn.c: scenarios and mechanisms of the high-level API (src/include/em_scn.h).
 * Every way in goes through the one scenario parser (io/em_scenario.c), so an array from
 * Python and a file from the shell are read by the same code and refused for the same
 * reasons. */
#include "io/em_scn_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_base.h"
#include "io/em_params_src.h"
#include "oracle/em_oracle.h"
#include "oracle/em_rational.h"

int em_err(em_error *err, int status, const char *fmt, ...)
{
    if (err) {
        err->status = status;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

void em_err_ok(em_error *err)
{
    if (err) {
        err->status = EM_OK;
        err->msg[0] = 0;
    }
}

void em_free(void *p) { free(p); }

const char *em_variant_text(int variant)
{
    return variant == EM_PF ? "pf" : variant == EM_MONOTONE ? "monotone" : "standard";
}

/* ------------------------------------------------------------------ scenarios */

static int scn_alloc(em_scn **out, em_error *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_scenario_init(&(*out)->sc);
    (*out)->sc.compact = 1; /* 10 bytes per utility instead of a rational's 100 */
    return EM_OK;
}

int em_scn_parse(const char *text, size_t len, const char *name, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_parse: out is NULL");
    *out = NULL;
    if (!text && len)
        return em_err(err, EM_ERR_NULL, "em_scn_parse: text is NULL");
    em_scn *s;
    int st = scn_alloc(&s, err);
    if (st != EM_OK)
        return st;
    char msg[EM_SCENARIO_ERRLEN] = "";
    st = em_scenario_parse(&s->sc, text ? text : "", len, name ? name : "<text>", msg, sizeof msg);
    if (st != EM_OK) {
        em_scn_free(s);
        return em_err(err, st, "%s", msg[0] ? msg : em_strerror(st));
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

int em_scn_load(const char *path, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_load: out is NULL");
    *out = NULL;
    em_scn *s;
    int st = scn_alloc(&s, err);
    if (st != EM_OK)
        return st;
    char msg[EM_SCENARIO_ERRLEN] = "";
    st = em_scenario_load(&s->sc, path, msg, sizeof msg);
    if (st != EM_OK) {
        em_scn_free(s);
        return em_err(err, st, "%s", msg[0] ? msg : em_strerror(st));
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

/* A number for the text format: exact syntax (em_rational.h), and nothing the line format
 * would read differently (a comma, a line break). */
static int check_number(const char *what, size_t i, const char *v, int allow_neg_inf,
                        int nonneg, em_error *err)
{
    if (strpbrk(v, ",\r\n"))
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: '%.40s' is not a number", what, i, v);
    mpq_t q;
    mpq_init(q);
    int kind;
    const char *msg = NULL;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    while (n && (*v == ' ' || *v == '\t'))
        v++, n--;
    int st = em_q_parse(v, n, allow_neg_inf, q, &kind, &msg);
    if (st == EM_OK && nonneg && kind == EM_Q_FINITE && mpq_sgn(q) < 0) {
        msg = "must be >= 0";
        st = EM_ERR_PARSE;
    }
    mpq_clear(q);
    if (st != EM_OK)
        return em_err(err, EM_ERR_PARSE, "%s[%zu]: bad number '%.40s': %s", what, i, v,
                      msg ? msg : "malformed");
    return EM_OK;
}

/* Close a memory stream written by em_scn_new / em_scn_new_pieces: EM_OK, or
 * EM_ERR_NOMEM with *text freed (a memory stream fails only when out of memory). */
static int close_text(FILE *f, char **text, em_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(*text);
        *text = NULL;
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    return EM_OK;
}

/* Parse generated text; a parser message "NAME:LINE: rest" becomes "what[LINE - first]: rest". */
static int parse_generated(char *text, size_t len, const char *what, unsigned long first,
                           em_scn **out, em_error *err)
{
    em_scn *s;
    int st = scn_alloc(&s, err);
    if (st != EM_OK)
        return st;
    char msg[EM_SCENARIO_ERRLEN] = "";
    st = em_scenario_parse(&s->sc, text, len, what, msg, sizeof msg);
    if (st != EM_OK) {
        em_scn_free(s);
        size_t wl = strlen(what);
        unsigned long line;
        int k = 0;
        if (!strncmp(msg, what, wl) && sscanf(msg + wl, ":%lu: %n", &line, &k) == 1 && k > 0 &&
            line >= first)
            return em_err(err, st, "%s[%lu]: %s", what, line - first, msg + wl + k);
        return em_err(err, st, "%s", msg[0] ? msg : em_strerror(st));
    }
    *out = s;
    em_err_ok(err);
    return EM_OK;
}

int em_scn_new(size_t n, const char *const *utilities, const char *const *labels,
               const char *const *measure, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new: out is NULL");
    *out = NULL;
    if (!utilities)
        return em_err(err, EM_ERR_NULL, "em_scn_new: utilities is NULL");
    if (n == 0)
        return em_err(err, EM_ERR_EMPTY, "no candidates (n = 0)");
    if (n > EM_SCENARIO_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY, "%zu candidates: more than the limit %zu", n,
                      (size_t)EM_SCENARIO_MAX_N);
    for (size_t i = 0; i < n; i++) {
        int st;
        if (utilities[i] && (st = check_number("utilities", i, utilities[i], 1, 0, err)) != EM_OK)
            return st;
        if (measure && !measure[i])
            return em_err(err, EM_ERR_NULL, "measure[%zu] is NULL", i);
        if (measure && (st = check_number("measure", i, measure[i], 0, 1, err)) != EM_OK)
            return st;
        if (labels) {
            if (!labels[i])
                return em_err(err, EM_ERR_NULL, "labels[%zu] is NULL", i);
            if (!labels[i][0])
                return em_err(err, EM_ERR_PARSE, "labels[%zu] is empty", i);
            if (strpbrk(labels[i], "\r\n"))
                return em_err(err, EM_ERR_PARSE, "labels[%zu] contains a line break", i);
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    unsigned long first = 1;
    if (measure) {
        fputs("# measure: yes\n", f);
        first = 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (labels)
            em_csv_label(f, labels[i]);
        else
            fprintf(f, "%zu", i);
        fprintf(f, ",%s", utilities[i] ? utilities[i] : "-inf");
        if (measure)
            fprintf(f, ",%s", measure[i]);
        fputc('\n', f);
    }
    if (close_text(f, &text, err) != EM_OK)
        return EM_ERR_NOMEM;
    int st = parse_generated(text, len, labels ? "labels" : "utilities", first, out, err);
    free(text);
    return st;
}

int em_scn_new_pieces(size_t k, const char *const *lo, const char *const *hi,
                      const char *const *a, const char *const *b, em_scn **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_scn_new_pieces: out is NULL");
    *out = NULL;
    if (!lo || !hi || !a)
        return em_err(err, EM_ERR_NULL, "em_scn_new_pieces: lo, hi or a is NULL");
    if (k == 0)
        return em_err(err, EM_ERR_EMPTY, "no pieces (k = 0)");
    if (k > EM_SCENARIO_MAX_N)
        return em_err(err, EM_ERR_TOO_MANY, "%zu pieces: more than the limit %zu", k,
                      (size_t)EM_SCENARIO_MAX_N);
    for (size_t j = 0; j < k; j++) {
        const char *v[4] = {lo[j], hi[j], a[j], b ? b[j] : "0"};
        const char *nm[4] = {"lo", "hi", "a", "b"};
        for (int t = 0; t < 4; t++) {
            if (!v[t])
                return em_err(err, EM_ERR_NULL, "%s[%zu] is NULL", nm[t], j);
            if (strpbrk(v[t], ",\r\n"))
                return em_err(err, EM_ERR_PARSE, "%s[%zu]: '%.40s' is not a number", nm[t], j, v[t]);
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    fputs("# output: continuous\n", f);
    for (size_t j = 0; j < k; j++)
        fprintf(f, "%s,%s,%s,%s\n", lo[j], hi[j], a[j], b ? b[j] : "0");
    if (close_text(f, &text, err) != EM_OK)
        return EM_ERR_NOMEM;
    int st = parse_generated(text, len, "pieces", 2, out, err);
    free(text);
    return st;
}

int em_scn_declare(em_scn *s, const char *sensitivity, int monotone, em_error *err)
{
    if (!s)
        return em_err(err, EM_ERR_NULL, "em_scn_declare: s is NULL");
    if (sensitivity) {
        mpq_t q;
        mpq_init(q);
        int kind;
        const char *msg = NULL;
        int st = em_q_parse_str(sensitivity, 0, q, &kind, &msg);
        if (st != EM_OK) {
            mpq_clear(q);
            return em_err(err, EM_ERR_PARSE, "bad sensitivity '%.40s': %s", sensitivity,
                          msg ? msg : "malformed");
        }
        if (mpq_sgn(q) <= 0) {
            mpq_clear(q);
            return em_err(err, EM_ERR_SENSITIVITY, "sensitivity %.40s: must be > 0", sensitivity);
        }
        mpq_set(s->sc.sensitivity, q);
        mpq_set(s->sc.pieces.sensitivity, q);
        s->sc.has_sensitivity = s->sc.pieces.has_sensitivity = 1;
        mpq_clear(q);
    }
    s->sc.has_monotone = s->sc.pieces.has_monotone = 1;
    s->sc.monotone = s->sc.pieces.monotone = monotone != 0;
    em_err_ok(err);
    return EM_OK;
}

void em_scn_free(em_scn *s)
{
    if (!s)
        return;
    em_scenario_free(&s->sc);
    free(s);
}

size_t em_scn_size(const em_scn *s) { return s->sc.continuous ? 0 : s->sc.n; }
size_t em_scn_pieces(const em_scn *s) { return s->sc.continuous ? s->sc.pieces.n : 0; }
int em_scn_is_continuous(const em_scn *s) { return s->sc.continuous != 0; }
int em_scn_has_measure(const em_scn *s) { return s->sc.has_measure != 0; }
const char *em_scn_name(const em_scn *s) { return s->sc.name ? s->sc.name : "<text>"; }

const char *em_scn_label(const em_scn *s, size_t i)
{
    return !s->sc.continuous && i < s->sc.n ? s->sc.labels[i] : NULL;
}

long em_scn_find(const em_scn *s, const char *label)
{
    return label && !s->sc.continuous ? em_scenario_find(&s->sc, label, strlen(label)) : -1;
}

int em_scn_utility(const em_scn *s, size_t i, char **text, em_error *err)
{
    if (!s || !text)
        return em_err(err, EM_ERR_NULL, "em_scn_utility: s or text is NULL");
    *text = NULL;
    if (s->sc.continuous || i >= s->sc.n)
        return em_err(err, EM_ERR_DOMAIN, "candidate %zu: no such candidate (%zu)", i,
                      em_scn_size(s));
    if (s->sc.excluded[i])
        *text = strdup("-inf");
    else {
        mpq_t q;
        mpq_init(q);
        em_scenario_get_u(&s->sc, i, q);
        *text = em_q_to_string(q, 60);
        mpq_clear(q);
    }
    if (!*text)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    em_err_ok(err);
    return EM_OK;
}

int em_scn_expand(em_scn *s, em_error *err)
{
    if (em_scenario_expand(&s->sc) != EM_OK)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    return EM_OK;
}

int em_scn_doubles(em_scn *s, em_error *err)
{
    if (em_scenario_doubles(&s->sc) != EM_OK)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    return EM_OK;
}

/* ------------------------------------------------------------------ mechanisms */

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

void em_mech_free(em_mech *m)
{
    if (!m)
        return;
    em_law_cache_free(m->law);
    mpq_clears(m->eps, m->delta, (mpq_ptr)0);
    free(m->eps_s);
    free(m->delta_s);
    free(m->provenance);
    free(m);
}

static char *provenance(const em_scenario *sc, const em_params_out *o, const char *ds,
                        const char *hs)
{
    char src[EM_SCENARIO_ERRLEN + 64];
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

int em_mech_new(em_scn *s, const em_opts *o, em_mech **out, em_error *err)
{
    if (!out)
        return em_err(err, EM_ERR_NULL, "em_mech_new: out is NULL");
    *out = NULL;
    if (!s || !o)
        return em_err(err, EM_ERR_NULL, "em_mech_new: scenario or options NULL");
    if (!o->epsilon)
        return em_err(err, EM_ERR_EPSILON, "epsilon is required");
    if (o->variant != EM_VARIANT_AUTO && o->variant != EM_STANDARD &&
        o->variant != EM_MONOTONE && o->variant != EM_PF)
        return em_err(err, EM_ERR_VARIANT, "unknown variant %d", o->variant);
    int digits = o->digits ? o->digits : 17;
    if (digits < 1 || digits > EM_ORACLE_MAX_DIGITS)
        return em_err(err, EM_ERR_DOMAIN, "digits %d: expected 1 to %d", o->digits,
                      EM_ORACLE_MAX_DIGITS);
    const em_scenario *sc = &s->sc;
    if (o->variant == EM_PF && (sc->continuous || sc->has_measure))
        return em_err(err, EM_ERR_VARIANT, "variant pf is not available for %s scenarios",
                      sc->continuous ? "continuous" : "weighted (measure)");
    em_mech *m = calloc(1, sizeof *m);
    if (!m)
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    mpq_inits(m->eps, m->delta, (mpq_ptr)0);
    m->scn = s;
    m->digits = digits;
    mpq_t opt_delta;
    mpq_init(opt_delta);
    int st = parse_param("epsilon", o->epsilon, m->eps, EM_ERR_EPSILON, err);
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
    return EM_HAND_OUT(st, m, em_mech_free, out, err);
}

em_scn *em_mech_scn(const em_mech *m) { return m->scn; }
int em_mech_variant(const em_mech *m) { return m->variant; }
int em_mech_digits(const em_mech *m) { return m->digits; }
const char *em_mech_epsilon(const em_mech *m) { return m->eps_s; }
const char *em_mech_sensitivity(const em_mech *m) { return m->delta_s; }
int em_mech_forced(const em_mech *m) { return m->forced; }
const char *em_mech_provenance(const em_mech *m) { return m->provenance; }
