/* vectors_independent.h: an independent check of tests/vectors/NAME.json.
 *
 * Written separately from the oracle (src/oracle/) and sharing none of its code: its own
 * JSON reader, its own number reading (mpfr_strtofr, a/b as a quotient), no interval
 * arithmetic, no Ziv loop, and a different formula.  For every candidate i it computes
 *     y_i = sum_{j != i} exp(c (u_j - u_i))          (in log form: ly_i = logsumexp),
 *     log P_i = -log1p(y_i),  P_i = 1 / (1 + y_i),
 * at a fixed high precision: 2048 bits (plus the bits of the largest exponent involved)
 * for cases of at most 100 candidates; for larger ones (up to 10^6) the sum over j is
 * shared, y_i = Z exp(-c (u_i - u_max)) - 1 with Z = sum_j exp(c (u_j - u_max)), at 512
 * bits (falling back to the direct sum when that subtraction would cancel),
 * and checks that each 40-digit string of the vectors is the correctly rounded value of
 * this independent result: |printed - true| <= (1/2 + 1e-20) unit in the last digit,
 * in the log10 domain for probabilities (so exponents such as 1e-4.3e299 are checked
 * exactly), with the documented special forms "0", "1", "-inf", and 0.99...9 (K nines:
 * a probability below 1 whose rounding is 1).
 *
 * Used by tests/test_oracle.c (indep_check_file); header-only, static functions.
 */
#ifndef EM_VECTORS_INDEPENDENT_H
#define EM_VECTORS_INDEPENDENT_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

/* ------------------------------------------------------------ tiny JSON */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv {
    int t;
    char *s;               /* J_STR, J_NUM (text), J_OBJ keys in k */
    struct jv **a;         /* J_ARR items / J_OBJ values */
    char **k;
    size_t n;
    int b;
} jv;

static void j_free(jv *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        j_free(v->a[i]);
        if (v->k)
            free(v->k[i]);
    }
    free(v->a);
    free(v->k);
    free(v->s);
    free(v);
}

static void j_ws(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t')
        (*p)++;
}

static char *j_str(const char **p)
{
    if (**p != '"')
        return NULL;
    (*p)++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (**p && **p != '"') {
        char c = **p;
        if (c == '\\') {
            (*p)++;
            c = **p;
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c == 'u') { /* only \u00XX is written by the generator */
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    (*p)++;
                    v = v * 16 + (unsigned)(isdigit((unsigned char)**p) ? **p - '0' : (tolower((unsigned char)**p) - 'a' + 10));
                }
                c = (char)v;
            }
        }
        if (n + 2 > cap)
            s = realloc(s, cap *= 2);
        s[n++] = c;
        (*p)++;
    }
    if (**p != '"') {
        free(s);
        return NULL;
    }
    (*p)++;
    s[n] = 0;
    return s;
}

static jv *j_parse(const char **p)
{
    j_ws(p);
    jv *v = calloc(1, sizeof *v);
    if (**p == '{' || **p == '[') {
        int obj = **p == '{';
        v->t = obj ? J_OBJ : J_ARR;
        (*p)++;
        size_t cap = 0;
        j_ws(p);
        if (**p == (obj ? '}' : ']')) {
            (*p)++;
            return v;
        }
        for (;;) {
            j_ws(p);
            char *key = NULL;
            if (obj) {
                key = j_str(p);
                j_ws(p);
                if (!key || **p != ':') { free(key); j_free(v); return NULL; }
                (*p)++;
            }
            jv *item = j_parse(p);
            if (!item) { free(key); j_free(v); return NULL; }
            if (v->n == cap) {
                cap = cap ? cap * 2 : 8;
                v->a = realloc(v->a, cap * sizeof *v->a);
                if (obj)
                    v->k = realloc(v->k, cap * sizeof *v->k);
            }
            if (obj)
                v->k[v->n] = key;
            v->a[v->n++] = item;
            j_ws(p);
            if (**p == ',') { (*p)++; continue; }
            if (**p == (obj ? '}' : ']')) { (*p)++; return v; }
            j_free(v);
            return NULL;
        }
    }
    if (**p == '"') {
        v->t = J_STR;
        v->s = j_str(p);
        if (!v->s) { free(v); return NULL; }
        return v;
    }
    if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
        v->t = J_BOOL;
        v->b = **p == 't';
        *p += v->b ? 4 : 5;
        return v;
    }
    if (!strncmp(*p, "null", 4)) {
        *p += 4;
        return v;
    }
    const char *q = *p;
    while (*q && (isdigit((unsigned char)*q) || strchr("+-.eE", *q)))
        q++;
    if (q == *p) { free(v); return NULL; }
    v->t = J_NUM;
    v->s = strndup(*p, (size_t)(q - *p));
    *p = q;
    return v;
}

static jv *j_get(const jv *o, const char *key)
{
    if (!o || o->t != J_OBJ)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->k[i], key))
            return o->a[i];
    return NULL;
}

static const char *j_gets(const jv *o, const char *key)
{
    jv *v = j_get(o, key);
    return v && (v->t == J_STR || v->t == J_NUM) ? v->s : NULL;
}

/* ------------------------------------------------------ the computation */

typedef struct indep_stats {
    long checked, failed;
    char first_failure[512];
} indep_stats;

static void indep_fail(indep_stats *st, const char *cid, const char *what, const char *got)
{
    if (st->failed++ == 0)
        snprintf(st->first_failure, sizeof st->first_failure, "%s: %s: vector says %.200s", cid, what, got);
}

/* exact-enough reading of an input number at precision of x: a/b, hex, decimal, -inf */
static int indep_read(mpfr_t x, const char *s)
{
    if (!strcmp(s, "-inf")) {
        mpfr_set_inf(x, -1);
        return 0;
    }
    const char *slash = strchr(s, '/');
    if (slash) {
        mpfr_t d;
        mpfr_init2(d, mpfr_get_prec(x));
        char *a = strndup(s, (size_t)(slash - s));
        mpfr_strtofr(x, a, NULL, 10, MPFR_RNDN);
        mpfr_strtofr(d, slash + 1, NULL, 10, MPFR_RNDN);
        mpfr_div(x, x, d, MPFR_RNDN);
        free(a);
        mpfr_clear(d);
        return 0;
    }
    char *end;
    mpfr_strtofr(x, s, &end, 0, MPFR_RNDN);
    return *end ? -1 : 0;
}

/* Is the K-digit decimal string `str` (the oracle's format) the correct rounding of the
 * positive number whose log10 is lg?  Checked as mantissa in [1, 10) and integer exponent. */
static int indep_dec_ok(const char *str, const mpfr_t lg, int K)
{
    /* split str: digits and decimal exponent */
    const char *e = strpbrk(str, "eE");
    size_t mlen = e ? (size_t)(e - str) : strlen(str);
    char digs[2048];
    size_t nd = 0;
    long point = -1, lead = -1;
    for (size_t i = 0; i < mlen && nd + 1 < sizeof digs; i++) {
        if (str[i] == '.') { point = (long)nd; continue; }
        if (str[i] == '-') continue;
        if (lead < 0 && str[i] != '0') lead = (long)nd;
        digs[nd++] = str[i];
    }
    digs[nd] = 0;
    if (point < 0)
        point = (long)nd;
    if (lead < 0)
        return 0;
    if ((long)nd - lead != K)
        return 0; /* exactly K significant digits */
    /* value = 0.digs[lead..] * 10^(point - lead) * 10^E  =>  d.ddd * 10^(point-lead-1+E) */
    mpz_t X;
    mpz_init_set_si(X, point - lead - 1);
    if (e) {
        mpz_t E;
        mpz_init(E);
        mpz_set_str(E, e[1] == '+' ? e + 2 : e + 1, 10);
        mpz_add(X, X, E);
        mpz_clear(E);
    }
    mpfr_prec_t p = mpfr_get_prec(lg);
    mpfr_t M, Mt, fl, f, half;
    mpfr_inits2(p, M, Mt, fl, f, half, (mpfr_ptr)0);
    /* M = d.ddd (K digits) */
    char ms[2100];
    snprintf(ms, sizeof ms, "%c.%se0", digs[lead], digs + lead + 1);
    mpfr_strtofr(M, ms, NULL, 10, MPFR_RNDN);
    /* true mantissa at exponent X: 10^(lg - X) */
    mpfr_set_z(fl, X, MPFR_RNDN);
    mpfr_sub(f, lg, fl, MPFR_RNDN);
    mpfr_exp10(Mt, f, MPFR_RNDN);
    mpfr_sub(Mt, Mt, M, MPFR_RNDN);
    mpfr_abs(Mt, Mt, MPFR_RNDN);
    /* half a unit in the K-th digit (plus slack for this computation's own error) */
    mpfr_set_ui(half, 10, MPFR_RNDN);
    mpfr_pow_si(half, half, 1 - K, MPFR_RNDN);
    mpfr_mul_d(half, half, 0.5 * (1 + 1e-20), MPFR_RNDN);
    int ok = mpfr_cmp(Mt, half) <= 0;
    mpfr_clears(M, Mt, fl, f, half, (mpfr_ptr)0);
    mpz_clear(X);
    return ok;
}

static int all_nines(const char *s, int K)
{
    if (strncmp(s, "0.", 2))
        return 0;
    int n = 0;
    for (s += 2; *s; s++, n++)
        if (*s != '9')
            return 0;
    return n == K;
}

/* Check one case: n utilities (strings), parameters, the vector's strings at `idx`. */
static void indep_case(const char *cid, size_t n, const char *const *u, const char *eps,
                       const char *delta, int monotone, int K, size_t nchk, const size_t *idx,
                       const char *const *prob, const char *const *logp, indep_stats *st)
{
    /* precision: enough for exponents as large as the utilities make them */
    long maxbits = 0;
    for (size_t j = 0; j < n; j++) {
        const char *e = strpbrk(u[j], "eEpP");
        if (e && !strchr(u[j], 'x')) {
            long v = labs(strtol(e + 1, NULL, 10));
            long b = (long)(v * 3.33) + 8;
            if (b > maxbits) maxbits = b;
        }
    }
    {
        const char *e = strpbrk(eps, "eE");
        if (e) maxbits += (long)(labs(strtol(e + 1, NULL, 10)) * 3.33) + 8;
    }
    /* at most 100 candidates: the O(n^2) per-candidate sums at 2048 bits; beyond, one
     * shared sum at 512 bits (its relative error, n 2^-512, is still far below 10^-40) */
    const int big = n > 100;
    mpfr_prec_t p = (big ? 512 : 2048) + 2 * maxbits + 64;
    mpfr_t *x = malloc(n * sizeof *x);
    mpfr_t c, d, t, m, s, ly, lp, l10, lg, umax;
    mpfr_inits2(p, c, d, t, m, s, ly, lp, l10, lg, umax, (mpfr_ptr)0);
    indep_read(c, eps);
    indep_read(d, delta);
    mpfr_div(c, c, d, MPFR_RNDN);
    if (!monotone)
        mpfr_div_2ui(c, c, 1, MPFR_RNDN);
    mpfr_log_ui(l10, 10, MPFR_RNDN);
    mpfr_set_inf(umax, -1);
    size_t nfin = 0;
    for (size_t j = 0; j < n; j++) {
        mpfr_init2(x[j], p);
        indep_read(x[j], u[j]);
        if (!mpfr_inf_p(x[j])) {
            nfin++;
            if (mpfr_cmp(x[j], umax) > 0)
                mpfr_set(umax, x[j], MPFR_RNDN);
        }
    }
    /* big case: Z = sum_j exp(c (u_j - umax)) once */
    mpfr_t Z;
    mpfr_init2(Z, p);
    if (big) {
        mpfr_set_ui(Z, 0, MPFR_RNDN);
        for (size_t j = 0; j < n; j++) {
            if (mpfr_inf_p(x[j])) continue;
            mpfr_sub(t, x[j], umax, MPFR_RNDN);
            mpfr_mul(t, t, c, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_add(Z, Z, t, MPFR_RNDN);
        }
    }
    for (size_t k = 0; k < nchk; k++) {
        size_t i = idx[k];
        char what[64];
        st->checked += 2;
        if (mpfr_inf_p(x[i])) {
            if (strcmp(prob[k], "0")) indep_fail(st, cid, "excluded candidate's probability", prob[k]);
            if (strcmp(logp[k], "-inf")) indep_fail(st, cid, "excluded candidate's log", logp[k]);
            continue;
        }
        if (nfin == 1) {
            if (strcmp(prob[k], "1")) indep_fail(st, cid, "single candidate's probability", prob[k]);
            if (strcmp(logp[k], "0")) indep_fail(st, cid, "single candidate's log", logp[k]);
            continue;
        }
        int direct = !big;
        if (big) {
            /* y_i = Z exp(-c (u_i - umax)) - 1, unless that cancels (P_i near 1) */
            mpfr_sub(t, x[i], umax, MPFR_RNDN);
            mpfr_mul(t, t, c, MPFR_RNDN);
            mpfr_neg(t, t, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_mul(t, t, Z, MPFR_RNDN);
            mpfr_sub_ui(t, t, 1, MPFR_RNDN);
            if (mpfr_cmp_d(t, 1e-6) < 0)
                direct = 1;
            else
                mpfr_log(ly, t, MPFR_RNDN);
        }
        if (direct) {
            /* ly = log sum_{j != i} exp(a_j), a_j = c (u_j - u_i): logsumexp */
            mpfr_set_inf(m, -1);
            for (size_t j = 0; j < n; j++) {
                if (j == i || mpfr_inf_p(x[j])) continue;
                mpfr_sub(t, x[j], x[i], MPFR_RNDN);
                mpfr_mul(t, t, c, MPFR_RNDN);
                if (mpfr_cmp(t, m) > 0) mpfr_set(m, t, MPFR_RNDN);
            }
            mpfr_set_ui(s, 0, MPFR_RNDN);
            for (size_t j = 0; j < n; j++) {
                if (j == i || mpfr_inf_p(x[j])) continue;
                mpfr_sub(t, x[j], x[i], MPFR_RNDN);
                mpfr_mul(t, t, c, MPFR_RNDN);
                mpfr_sub(t, t, m, MPFR_RNDN);
                mpfr_exp(t, t, MPFR_RNDN);
                mpfr_add(s, s, t, MPFR_RNDN);
            }
            mpfr_log(s, s, MPFR_RNDN);
            mpfr_add(ly, m, s, MPFR_RNDN);
        }
        /* log P = -log1p(y); tiny y: log|log P| = ly (to far below 2^-p) */
        int tiny = mpfr_cmp_si(ly, -(long)p) < 0;
        if (tiny) {
            /* log P = -y (1 - y/2 ...): its decimal from log10|log P| = ly / ln 10 */
            mpfr_div(lg, ly, l10, MPFR_RNDN);
            if (logp[k][0] != '-' || !indep_dec_ok(logp[k] + 1, lg, K))
                indep_fail(st, cid, "log-probability (tiny)", logp[k]);
            mpfr_set_inf(lp, -1); /* unused below */
            /* P = 1/(1+y) rounds to 1: K nines */
            if (!all_nines(prob[k], K))
                indep_fail(st, cid, "probability near 1", prob[k]);
            continue;
        }
        if (mpfr_cmp_si(ly, (long)p) > 0) {
            /* log1p(y) = ly + log1p(exp(-ly)) = ly to far below 2^-p relative */
            mpfr_neg(lp, ly, MPFR_RNDN);
        } else {
            mpfr_exp(t, ly, MPFR_RNDN);
            mpfr_log1p(lp, t, MPFR_RNDN);
            mpfr_neg(lp, lp, MPFR_RNDN);
        }
        /* log-probability string: parse (normal exponents) and check correct rounding */
        {
            mpfr_t v, ul;
            mpfr_inits2(p, v, ul, (mpfr_ptr)0);
            mpfr_abs(t, lp, MPFR_RNDN);
            mpfr_log10(t, t, MPFR_RNDN);
            if (logp[k][0] != '-' || !indep_dec_ok(logp[k] + 1, t, K)) {
                snprintf(what, sizeof what, "log-probability of candidate %zu", i);
                indep_fail(st, cid, what, logp[k]);
            }
            mpfr_clears(v, ul, (mpfr_ptr)0);
        }
        /* probability: log10 P = lp / ln 10 */
        mpfr_div(lg, lp, l10, MPFR_RNDN);
        if (all_nines(prob[k], K)) {
            /* allowed only if P rounds to 1: 1 - P < 10^-K / 2 */
            mpfr_exp(t, lp, MPFR_RNDN);
            mpfr_ui_sub(t, 1, t, MPFR_RNDN);
            mpfr_set_ui(s, 10, MPFR_RNDN);
            mpfr_pow_si(s, s, -K, MPFR_RNDN);
            mpfr_div_2ui(s, s, 1, MPFR_RNDN);
            if (mpfr_cmp(t, s) >= 0)
                indep_fail(st, cid, "0.99...9 for a probability that does not round to 1", prob[k]);
        } else if (!indep_dec_ok(prob[k], lg, K)) {
            snprintf(what, sizeof what, "probability of candidate %zu", i);
            indep_fail(st, cid, what, prob[k]);
        }
    }
    for (size_t j = 0; j < n; j++)
        mpfr_clear(x[j]);
    free(x);
    mpfr_clears(c, d, t, m, s, ly, lp, l10, lg, umax, Z, (mpfr_ptr)0);
}

/* The vectors' generated case kind "modular": u_i = ((a i + b) mod m) / scale. */
static char **indep_generate(const jv *g, size_t *n)
{
    const char *kind = j_gets(g, "kind");
    if (!kind || strcmp(kind, "modular"))
        return NULL;
    unsigned long long N = strtoull(j_gets(g, "n"), NULL, 10), a = strtoull(j_gets(g, "a"), NULL, 10),
                       b = strtoull(j_gets(g, "b"), NULL, 10), m = strtoull(j_gets(g, "m"), NULL, 10);
    const char *scale = j_gets(g, "scale");
    char **u = malloc(N * sizeof *u);
    for (unsigned long long i = 0; i < N; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%llu/%s", (a * i + b) % m, scale);
        u[i] = strdup(buf);
    }
    *n = (size_t)N;
    return u;
}

/* Check every case of one vector file.  Returns 0 if the file could be read. */
static int indep_check_file(const char *path, indep_stats *st)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    fclose(f);
    buf[got] = 0;
    const char *p = buf;
    jv *root = j_parse(&p);
    free(buf);
    if (!root)
        return -1;
    jv *cases = j_get(root, "cases");
    int K = atoi(j_gets(root, "digits") ? j_gets(root, "digits") : "40");
    for (size_t ci = 0; cases && ci < cases->n; ci++) {
        jv *cs = cases->a[ci];
        const char *cid = j_gets(cs, "id");
        const char *variant = j_gets(cs, "variant");
        jv *cands = j_get(cs, "candidates");
        jv *gen = j_get(cs, "generator");
        size_t n = 0;
        char **u = NULL;
        const char **pr, **lp;
        size_t *idx, nchk;
        if (gen) {
            u = indep_generate(gen, &n);
            jv *chk = j_get(cs, "checks");
            nchk = chk ? chk->n : 0;
            idx = malloc(nchk * sizeof *idx);
            pr = malloc(nchk * sizeof *pr);
            lp = malloc(nchk * sizeof *lp);
            for (size_t k = 0; k < nchk; k++) {
                idx[k] = (size_t)strtoull(j_gets(chk->a[k], "index"), NULL, 10);
                pr[k] = j_gets(chk->a[k], "probability");
                lp[k] = j_gets(chk->a[k], "log_probability");
            }
        } else {
            n = cands ? cands->n : 0;
            nchk = n;
            u = malloc(n * sizeof *u);
            idx = malloc(n * sizeof *idx);
            pr = malloc(n * sizeof *pr);
            lp = malloc(n * sizeof *lp);
            for (size_t k = 0; k < n; k++) {
                u[k] = strdup(j_gets(cands->a[k], "utility"));
                idx[k] = k;
                pr[k] = j_gets(cands->a[k], "probability");
                lp[k] = j_gets(cands->a[k], "log_probability");
            }
        }
        if (!u || n == 0) {
            indep_fail(st, cid ? cid : "?", "unreadable case", "");
        } else {
            indep_case(cid, n, (const char *const *)u, j_gets(cs, "epsilon"), j_gets(cs, "sensitivity"),
                       variant && !strcmp(variant, "monotone"), K, nchk, idx, pr, lp, st);
        }
        for (size_t k = 0; u && k < n; k++)
            free(u[k]);
        free(u);
        free(idx);
        free(pr);
        free(lp);
    }
    j_free(root);
    return 0;
}

#endif
