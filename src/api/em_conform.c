/* em_conform.c: running a sampler on every case of a battery (em_conform.h): the runs of
 * growing size, the verdicts, the power against the mistakes each case catches, and the
 * diagnosis of the whole sampler.
 *
 * Levels.  A correct sampler must fail the suite with probability at most alpha (1e-6).
 * Each of the C cases run gets alpha / C; within a case, each of its at most R runs
 * (10^4, 10^5, ... draws up to max_draws: a run is made only while the case is undecided)
 * makes up to four tests (G over the pooled cells, the pooled tail, the most
 * over-represented cell, and Kolmogorov-Smirnov for the continuous kinds), so each test is
 * made at alpha / (4 C R): by the union bound no correct sampler fails any case with
 * probability above alpha.  An impossible draw (probability 0) is never a false alarm.
 *
 * Power.  A case passes when its tests accept and, at that number of draws and that level,
 * the G-test would have rejected the law of each mistake the case catches with probability
 * >= 0.99 (em_gof_alt_power: noncentral chi-square over the same pooled cells, and the chance of
 * an impossible draw); otherwise the next run has ten times the draws, and after the last
 * the case is undecided. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "em_conform.h"
#include "api/em_conform_priv.h"
#include "api/em_judge_priv.h"
#include "api/em_mistake_priv.h"
#include "base/em_error.h"
#include "io/em_draws.h"
#include "io/em_spawn.h"
#include "judge/em_gof_alt.h"
#include "api/em_obj.h"

#define FIRST_DRAWS 10000u
#define POWER_NEEDED 0.99
/* a passing case rules a mistake out of the sampler's diagnosis only when it would have
 * caught that mistake almost surely */
#define POWER_RULE_OUT (1 - 1e-6)
#define TESTS_PER_RUN 4
#define ERR_KEEP 4096
#define ERR_LINES 5

/* em_draws_cands.label over a scenario */
static const char *cand_label(const void *ctx, size_t i)
{
    return em_scn_label(ctx, i);
}

static int is_failure(int v)
{
    return v == EM_CONFORM_REJECT || v == EM_CONFORM_IMPOSSIBLE || v == EM_CONFORM_CRASH ||
           v == EM_CONFORM_TIMEOUT || v == EM_CONFORM_MALFORMED ||
           v == EM_CONFORM_ACCEPTED_INVALID;
}


/* ------------------------------------------------------------- the case list */

static int json_name(const char *s)
{
    size_t n = strlen(s);
    return n > 5 && !strcmp(s + n - 5, ".json") && s[0] != '.';
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_cases(const char *path, char ***files, size_t *n, em_error *err)
{
    *files = NULL;
    *n = 0;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return em_err(err, EM_ERR_DOMAIN, "cases '%s': %s", path, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) {
        *files = malloc(sizeof **files);
        if (!*files || !((*files)[0] = strdup(path)))
            return em_err(err, EM_ERR_NOMEM, "out of memory");
        *n = 1;
        return EM_OK;
    }
    DIR *d = opendir(path);
    if (!d)
        return em_err(err, EM_ERR_DOMAIN, "cases '%s': %s", path, strerror(errno));
    size_t cap = 0;
    struct dirent *e;
    int st = EM_OK;
    while (st == EM_OK && (e = readdir(d))) {
        if (!json_name(e->d_name))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 128;
            char **nf = realloc(*files, cap * sizeof *nf);
            if (!nf) {
                st = EM_ERR_NOMEM;
                break;
            }
            *files = nf;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *f = malloc(len);
        if (!f) {
            st = EM_ERR_NOMEM;
            break;
        }
        snprintf(f, len, "%s/%s", path, e->d_name);
        (*files)[(*n)++] = f;
    }
    closedir(d);
    if (st != EM_OK)
        return em_err(err, st, "out of memory");
    if (*n == 0)
        return em_err(err, EM_ERR_DOMAIN, "cases '%s': no *.json case file there", path);
    qsort(*files, *n, sizeof **files, cmp_str);
    return EM_OK;
}

/* ------------------------------------------------------------- seeds, text */

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* the seed of a run: from the suite's seed, the case id and the run's number */
static uint64_t run_seed(uint64_t base, const char *id, int run)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return mix(base ^ mix(h ^ (uint64_t)run)) & ((1ULL << 63) - 1);
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = NULL;
    if (vasprintf(&s, f, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

/* the last ERR_LINES lines of a sampler's standard error, each made safe to print */
static char *err_tail(const char *e, size_t len)
{
    size_t start = len, lines = 0;
    while (len && (e[len - 1] == '\n' || e[len - 1] == '\r'))
        len--;
    start = len;
    while (start > 0 && lines < ERR_LINES) {
        start--;
        if (e[start] == '\n' && ++lines == ERR_LINES) {
            start++;
            break;
        }
    }
    size_t cap = 4 * (len - start) + 16;
    char *out = malloc(cap), *w = out;
    if (!out)
        return NULL;
    *w = 0;
    size_t i = start;
    while (i < len) {
        const char *nl = memchr(e + i, '\n', len - i);
        size_t k = nl ? (size_t)(nl - (e + i)) : len - i;
        if (k && e[i + k - 1] == '\r')
            k--;
        char line[1024];
        em_draws_show(line, sizeof line, e + i, k, 200);
        size_t m = strlen(line);
        if ((size_t)(w - out) + m + 2 < cap) {
            if (w != out)
                *w++ = '\n';
            memcpy(w, line, m);
            w += m;
            *w = 0;
        }
        i += (nl ? (size_t)(nl - (e + i)) + 1 : len - i);
    }
    return out;
}

static const char *signal_name(int s)
{
    const char *d = strsignal(s);
    return d ? d : "unknown signal";
}

/* ------------------------------------------------------------- one case */

typedef struct runner {
    const em_conform_opts *o;
    em_sampler_fn *fn;
    void *ctx;
    double alpha_test;
    uint64_t ladder[16];
    int nladder;
    double power[EM_MISTAKE_COUNT]; /* scratch */
} runner;

static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u); /* this process only: a sampler program is a child */
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the output bytes a run of n draws may write */
static uint64_t max_bytes(const em_case *c, uint64_t n)
{
    uint64_t line = 128;
    if (c->n && c->labels) {
        line = 2;
        for (size_t i = 0; i < c->n; i++) {
            uint64_t l = strlen(c->labels[i]) + 2;
            line = l > line ? l : line;
        }
        line = line < 64 ? 64 : line;
    }
    return n * line + (1u << 20);
}

static void set_msg(em_conform_case *r, char *m)
{
    free(r->message);
    r->message = m ? m : strdup("");
}

/* the power against each caught mistake at N; the smallest, its mistake, ruled-out bits */
static int powers(em_mistake_laws *L, const em_case *c, const em_check_result *r,
                  const uint64_t *counts, uint64_t N, double alpha, double *pmin, int *weakest,
                  unsigned long *ruled, em_error *err)
{
    size_t n;
    double *p = NULL, *q = NULL;
    uint64_t *obs = NULL;
    *pmin = 1.0;
    *weakest = -1;
    *ruled = 0;
    int st = em_mistake_cells(L, r, counts, &n, &p, &obs, err);
    if (st == EM_OK && !(q = malloc(n * sizeof *q)))
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    /* every mistake: the caught ones decide the pass; all of them may be ruled out */
    for (int mk = 0; st == EM_OK && mk < EM_MISTAKE_COUNT; mk++) {
        int applies;
        if ((st = em_mistake_alt(L, mk, r, n, p, q, &applies, err)) != EM_OK || !applies)
            continue;
        double pw = em_gof_alt_power(n, p, q, N, alpha, EM_DIAG_MIN_EXPECTED);
        if (pw >= POWER_RULE_OUT)
            *ruled |= 1ul << mk;
        int caught = 0;
        for (size_t k = 0; k < c->ncatches; k++)
            caught |= c->catches[k] == mk;
        if (caught && pw < *pmin) {
            *pmin = pw;
            *weakest = mk;
        }
    }
    free(p), free(q), free(obs);
    return st;
}

static double min_p(const em_check_result *r, int cont)
{
    double p = r->p_value;
    if (r->tail_p < p)
        p = r->tail_p;
    if (cont && r->ks_p < p)
        p = r->ks_p;
    return p;
}

/* what the check rejected on, in a few words */
static char *reject_text(const em_check_result *r, const em_scn *s)
{
    char buf[512];
    size_t k = (size_t)snprintf(buf, sizeof buf, "at α = %.3g:", r->alpha);
    if (r->reasons & EM_CHECK_R_FIT)
        k += (size_t)snprintf(buf + k, sizeof buf - k, " G = %.4g (df %zu), p = %.3g;",
                              r->statistic, r->df, r->p_value);
    if ((r->reasons & EM_CHECK_R_KS) && k < sizeof buf)
        k += (size_t)snprintf(buf + k, sizeof buf - k, " Kolmogorov-Smirnov p = %.3g;", r->ks_p);
    if ((r->reasons & EM_CHECK_R_TAIL) && k < sizeof buf)
        k += (size_t)snprintf(buf + k, sizeof buf - k, " the pooled tail over-drawn, p = %.3g;",
                              r->tail_p);
    if ((r->reasons & EM_CHECK_R_CELL) && k < sizeof buf) {
        char lab[160] = "";
        if (!em_scn_get(s).continuous && r->cand_index != EM_JUDGE_NONE) {
            const char *l = em_scn_label(s, r->cand_index);
            em_draws_show(lab, sizeof lab, l, strlen(l), 40);
        } else {
            snprintf(lab, sizeof lab, "bin %zu", r->cand_index);
        }
        k += (size_t)snprintf(buf + k, sizeof buf - k, " '%s' over-drawn, p = %.3g;", lab,
                              r->cand_p);
    }
    if (k && k < sizeof buf && buf[k - 1] == ';')
        buf[k - 1] = 0;
    return strdup(buf);
}

static char *impossible_text(const em_check_result *r, const em_scn *s)
{
    if (em_scn_get(s).continuous)
        return fmt("%llu draw%s outside R, the first %.17g", (unsigned long long)r->support_count,
                   r->support_count == 1 ? "" : "s", r->outside_value);
    char lab[160];
    const char *l = em_scn_label(s, r->support_index);
    em_draws_show(lab, sizeof lab, l, strlen(l), 60);
    return fmt("drew '%s' (probability 0) %llu time%s", lab, (unsigned long long)r->support_count,
               r->support_count == 1 ? "" : "s");
}

/* one run's output turned into a verdict, or -1 when the draws are to be judged */
static int classify(const em_case *c, const em_run_output *out, uint64_t n, double timeout,
                    em_conform_case *r)
{
    switch (out->how) {
    case EM_RUN_NOT_STARTED:
        set_msg(r, fmt("cannot start the sampler: %s", strerror(out->code)));
        return EM_CONFORM_CRASH;
    case EM_RUN_EXCEPTION:
        set_msg(r, fmt("the sampler raised an exception"));
        return EM_CONFORM_CRASH;
    case EM_RUN_TIMEOUT:
        set_msg(r, fmt("no answer within %g s (%llu draws asked; stopped)", timeout,
                       (unsigned long long)n));
        return EM_CONFORM_TIMEOUT;
    case EM_RUN_FLOOD:
        set_msg(r, fmt("more output than %llu draws can take (stopped)", (unsigned long long)n));
        return EM_CONFORM_MALFORMED;
    case EM_RUN_SIGNALED:
        set_msg(r, fmt("killed by signal %d (%s)", out->code, signal_name(out->code)));
        return EM_CONFORM_CRASH;
    default:
        break;
    }
    if (out->code == EM_EXIT_SKIP) {
        set_msg(r, fmt("the sampler does not do the kind %s (exit 77)", em_kind_name(c->kind)));
        return EM_CONFORM_SKIPPED;
    }
    if (c->expect_error) {
        if (out->code != 0 && out->out_len == 0) {
            set_msg(r, fmt("refused, as it must (exit %d)", out->code));
            return EM_CONFORM_PASS;
        }
        set_msg(r, fmt("%s (exit %d) for input a correct sampler refuses: %s",
                       out->out_len ? "wrote draws" : "succeeded", out->code,
                       c->error ? c->error : "invalid input"));
        return EM_CONFORM_ACCEPTED_INVALID;
    }
    if (out->code != 0) {
        set_msg(r, fmt("exited with status %d", out->code));
        return EM_CONFORM_CRASH;
    }
    return -1;
}

static int run_case(runner *R, em_case *c, em_conform_case *r, em_error *err)
{
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_mistake_laws *L = NULL;
    em_error e;
    int st = EM_OK;
    r->power = NAN;
    r->p_value = NAN;
    r->weakest = -1;
    r->alpha = R->alpha_test;
    int cont = c->kind >= EM_KIND_CONTINUOUS;
    double *ud = NULL;
    if (!c->expect_error) {
        if (em_case_mech(c, &s, &m, &e) != EM_OK) {
            r->verdict = EM_CONFORM_BAD_CASE;
            set_msg(r, fmt("the case's law cannot be made: %s", e.msg));
            return EM_OK;
        }
        if (em_mistake_laws_new(m, c->kind == EM_KIND_LAPLACE ? EM_KIND_LAPLACE : -1, &L,
                                &e) != EM_OK) {
            em_free(m);
            em_free(s);
            r->verdict = EM_CONFORM_BAD_CASE;
            set_msg(r, fmt("the case's law cannot be made: %s", e.msg));
            return e.status == EM_ERR_NOMEM ? em_err(err, EM_ERR_NOMEM, "out of memory") : EM_OK;
        }
        if (!cont && (ud = malloc(c->n * sizeof *ud)))
            for (size_t i = 0; i < c->n; i++)
                ud[i] = em_conform_q_double(c->utilities[i]);
    }
    int verdict = -1;
    for (int run = 0; run < R->nladder && verdict < 0 && st == EM_OK; run++) {
        uint64_t n = R->ladder[run];
        uint64_t seed = run_seed(R->o->seed, c->id, run);
        em_run_output out;
        memset(&out, 0, sizeof out);
        st = R->fn(R->ctx, c, n, seed, max_bytes(c, n), &out);
        if (st != EM_OK) {
            if (err && err->status == EM_OK)
                em_err(err, st, "%s: the sampler function failed", c->id);
            free(out.out), free(out.err);
            break;
        }
        r->runs = run + 1;
        r->seed = seed;
        r->sampler_seconds += out.seconds;
        free(r->stderr_tail);
        r->stderr_tail = err_tail(out.err ? out.err : "", out.err_len);
        verdict = classify(c, &out, n, R->o->timeout, r);
        if (verdict >= 0) {
            free(out.out), free(out.err);
            break;
        }
        /* the draws */
        em_error de;
        uint64_t lines;
        uint64_t *counts = NULL;
        double *x = NULL;
        int rs;
        if (!cont) {
            counts = calloc(c->n, sizeof *counts);
            em_draws_cands dc = {c->n, em_judge_find_label, s, cand_label, ud};
            rs = counts ? em_draws_read_labels(out.out ? out.out : "", out.out_len, n, &dc,
                                               counts, &lines, &de)
                        : EM_ERR_NOMEM;
        } else {
            x = malloc(n * sizeof *x);
            rs = x ? em_draws_read_numbers(out.out ? out.out : "", out.out_len, n, x, &lines,
                                           &de)
                   : EM_ERR_NOMEM;
        }
        free(out.out), free(out.err);
        if (rs != EM_OK) {
            free(counts), free(x);
            if (rs == EM_ERR_NOMEM) {
                st = em_err(err, rs, "out of memory");
                break;
            }
            verdict = EM_CONFORM_MALFORMED;
            set_msg(r, strdup(de.msg));
            break;
        }
        /* the diagnosis of a reject with the laws of the mistakes already made for the case */
        em_check_opts co = {R->alpha_test, EM_DIAG_MIN_EXPECTED, 1};
        em_free(r->check);
        r->check = NULL;
        r->diagnosis = NULL;
        em_draws d = EM_DRAWS_INIT;
        d.counts = counts;
        d.n = c->n;
        int cs = cont ? em_judge_check_values(m, x, n, &co, &r->check, &e)
                      : em_draws_check(m, &d, &co, &r->check, &e);
        free(x);
        if (cs != EM_OK) {
            free(counts);
            verdict = EM_CONFORM_BAD_CASE;
            set_msg(r, fmt("the check failed: %s", e.msg));
            if (cs == EM_ERR_NOMEM)
                st = em_err(err, cs, "out of memory");
            break;
        }
        const em_check_result *ck = r->check;
        r->n = n;
        r->p_value = min_p(ck, cont);
        r->diagnosis = ck->diagnosis;
        if (ck->verdict == EM_VERDICT_REJECT) {
            em_diagnosis *dg = NULL;
            if (em_mistake_diagnose(L, ck, cont ? NULL : counts, &dg, &e) == EM_OK)
                r->check->diagnosis = dg;
            r->diagnosis = dg;
            free(counts);
            verdict = (ck->reasons & EM_CHECK_R_SUPPORT) ? EM_CONFORM_IMPOSSIBLE
                                                          : EM_CONFORM_REJECT;
            set_msg(r, verdict == EM_CONFORM_IMPOSSIBLE ? impossible_text(ck, s)
                                                        : reject_text(ck, s));
            break;
        }
        double pmin;
        int weakest;
        unsigned long ruled;
        st = powers(L, c, ck, counts, n, R->alpha_test, &pmin, &weakest, &ruled, err);
        free(counts);
        if (st != EM_OK)
            break;
        r->power = pmin;
        r->weakest = weakest;
        if (ck->verdict == EM_VERDICT_PASS && pmin >= POWER_NEEDED) {
            r->ruled_out = ruled;
            verdict = EM_CONFORM_PASS;
            set_msg(r, strdup(""));
        } else if (run + 1 == R->nladder) {
            r->ruled_out = ck->verdict == EM_VERDICT_PASS ? ruled : 0;
            verdict = EM_CONFORM_UNDECIDED;
            if (ck->verdict != EM_VERDICT_PASS)
                set_msg(r, fmt("too few draws to test at %llu (every draw in one pooled cell)",
                               (unsigned long long)n));
            else
                set_msg(r, fmt("power %.3g < 0.99 against: %s, at %llu draws (the most allowed)",
                               pmin, em_mistake_words(weakest), (unsigned long long)n));
        }
    }
    if (verdict >= 0)
        r->verdict = verdict;
    if (!r->message)
        r->message = strdup("");
    free(ud);
    em_mistake_laws_free(L);
    em_free(m);
    em_free(s);
    return st;
}

/* ------------------------------------------------------------- the suite */

static unsigned long fit_set(const em_diagnosis *d)
{
    unsigned long f = 0;
    for (size_t i = 0; d && i < d->nrows; i++)
        if (d->rows[i].fits)
            f |= 1ul << d->rows[i].mistake;
    return f;
}

/* the mistakes that fit (nearly) every failed case with draws and that no passing case ruled
 * out; among them those that fit the most */
static void suspects(em_conform_result *res)
{
    size_t judged = 0, fits[EM_MISTAKE_COUNT] = {0};
    unsigned long ruled = 0;
    for (size_t i = 0; i < res->ncases; i++) {
        const em_conform_case *r = &res->cases[i];
        if (r->verdict == EM_CONFORM_REJECT || r->verdict == EM_CONFORM_IMPOSSIBLE) {
            judged++;
            unsigned long f = fit_set(r->diagnosis);
            for (int m = 0; m < EM_MISTAKE_COUNT; m++)
                fits[m] += f >> m & 1;
        } else if (r->verdict == EM_CONFORM_PASS || r->verdict == EM_CONFORM_UNDECIDED) {
            ruled |= r->ruled_out;
        }
    }
    res->suspects = 0;
    if (!judged)
        return;
    size_t best = 0;
    for (int m = 0; m < EM_MISTAKE_COUNT; m++)
        if (!(ruled >> m & 1) && fits[m] * 10 >= judged * 9 && fits[m] > best)
            best = fits[m];
    for (int m = 0; best && m < EM_MISTAKE_COUNT; m++)
        if (!(ruled >> m & 1) && fits[m] == best)
            res->suspects |= 1ul << m;
}

static char *suspects_text(const em_conform_result *res)
{
    size_t judged = 0;
    for (size_t i = 0; i < res->ncases; i++)
        judged += res->cases[i].verdict == EM_CONFORM_REJECT ||
                  res->cases[i].verdict == EM_CONFORM_IMPOSSIBLE;
    if (!judged)
        return strdup("");
    if (!res->suspects)
        return fmt("no single known mistake explains the %zu rejected case%s", judged,
                   judged == 1 ? "" : "s");
    char buf[1024];
    size_t k = (size_t)snprintf(buf, sizeof buf, "the sampler's draws fit ");
    int first = 1;
    for (int m = 0; m < EM_MISTAKE_COUNT && k < sizeof buf; m++)
        if (res->suspects >> m & 1) {
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s: %s", first ? "" : "; or ",
                                  em_mistake_law(m), em_mistake_words(m));
            first = 0;
        }
    if (k < sizeof buf)
        snprintf(buf + k, sizeof buf - k, " (on the rejected cases, and no passing case rules "
                 "it out)");
    return strdup(buf);
}

static char *summary_text(const em_conform_result *res, size_t run)
{
    char buf[1024];
    size_t k = (size_t)snprintf(buf, sizeof buf, "expmech conform: %zu case%s:", res->ncases,
                                res->ncases == 1 ? "" : "s");
    int first = 1;
    for (int v = 0; v < EM_CONFORM_NVERDICTS && k < sizeof buf; v++)
        if (res->count[v]) {
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s %zu %s", first ? "" : ",",
                                  res->count[v], em_conform_verdict_name(v));
            first = 0;
        }
    if (k < sizeof buf)
        snprintf(buf + k, sizeof buf - k, "; α = %g over %zu case%s run (%.3g a case, each of "
                 "its tests at %.3g): a correct sampler fails this suite with probability at "
                 "most %g",
                 res->alpha, run, run == 1 ? "" : "s", res->alpha_case,
                 res->alpha_case / (TESTS_PER_RUN * res->max_runs), res->alpha);
    return strdup(buf);
}

static void conform_result_destroy(void *obj)
{
    em_conform_result *r = obj;
    for (size_t i = 0; i < r->ncases; i++) {
        em_conform_case *c = &r->cases[i];
        free((char *)c->id), free((char *)c->title), free((char *)c->file);
        free(c->message), free(c->stderr_tail);
        em_free(c->check);
    }
    free(r->cases);
    free(r->diagnosis);
    free(r->summary);
    em_obj_release(r);
}

/* 1 when the head of a case file as em_case_write writes it (the members one a line, one
 * space in, scalars only before "scenario": a line break followed by one space and a key
 * is then a member of the top-level object, since no JSON string holds a raw line break)
 * says the case is not to be run:
 * not quick in a quick run, or of a kind not asked for.  A quick run then does not parse
 * the battery's largest files (the 10^5 candidates of a case that is not quick: 6 MB) only
 * to drop them.  Anything else (another layout, a read error) is 0: the file is read whole
 * and judged as before. */
static int not_selected(const char *path, const em_conform_opts *op)
{
    static const char head[] = "{\n \"schema\": \"expmech-conformance-1\",\n";
    if (!op->quick && !op->kinds)
        return 0;
    char buf[2048];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    if (strncmp(buf, head, sizeof head - 1))
        return 0;
    const char *scn = strstr(buf, "\n \"scenario\": "); /* the members before it only */
    if (!scn || memchr(buf + 1, '{', (size_t)(scn - buf - 1)) ||
        memchr(buf, '[', (size_t)(scn - buf))) /* scalars only before it */
        return 0;
    const char *q = strstr(buf, "\n \"quick\": false,\n");
    if (op->quick && q && q < scn)
        return 1;
    const char *k = strstr(buf, "\n \"kind\": \"");
    if (op->kinds && k && k < scn) {
        k += strlen("\n \"kind\": \"");
        for (int kind = 0; kind < EM_KIND_COUNT; kind++) {
            const char *name = em_kind_name(kind);
            size_t n = strlen(name);
            if (!strncmp(k, name, n) && !strncmp(k + n, "\",\n", 3))
                return !(op->kinds >> kind & 1);
        }
    }
    return 0;
}

int em_conform_run(const em_conform_opts *o, em_sampler_fn *fn, void *ctx,
                   em_conform_result **out, em_error *err)
{
    int st = EM_OUT_OPEN("em_conform_run", out, o && fn, "options or sampler", err);
    if (st != EM_OK)
        return st;
    if (!o->cases)
        return em_err(err, EM_ERR_DOMAIN, "cases: no directory of case files given");
    em_conform_opts op = *o;
    if (!op.max_draws)
        op.max_draws = 1000000;
    if (op.timeout == 0)
        op.timeout = 600;
    if (op.alpha == 0)
        op.alpha = 1e-6;
    if (!(op.timeout > 0) || !(op.alpha > 0 && op.alpha < 1))
        return em_err(err, EM_ERR_DOMAIN, "timeout > 0 and alpha in (0, 1) are required");
    if (op.kinds >> EM_KIND_COUNT)
        return em_err(err, EM_ERR_DOMAIN, "kinds: unknown kind bits 0x%x", op.kinds);
    if (op.max_draws > ((uint64_t)1 << 32))
        return em_err(err, EM_ERR_DOMAIN, "max_draws %llu: at most 2^32",
                      (unsigned long long)op.max_draws);
    runner R = {&op, fn, ctx, 0, {0}, 0, {0}};
    uint64_t top = op.quick && op.max_draws > FIRST_DRAWS ? FIRST_DRAWS : op.max_draws;
    for (uint64_t n = FIRST_DRAWS; R.nladder < 15; n *= 10) {
        R.ladder[R.nladder++] = n < top ? n : top;
        if (n >= top)
            break;
    }
    char **files;
    size_t nf;
    st = list_cases(op.cases, &files, &nf, err);
    if (st != EM_OK)
        return st;
    em_case **cs = calloc(nf, sizeof *cs);
    char **bad = calloc(nf, sizeof *bad);
    em_conform_result *res = em_obj_new(sizeof *res, conform_result_destroy);
    if (res) {
        em_obj_writer(res, em_conform_result_write, NULL, NULL);
        res->cases = calloc(nf, sizeof *res->cases);
    }
    if (!cs || !bad || !res || !res->cases)
        st = em_err(err, EM_ERR_NOMEM, "out of memory");
    /* read every case first: the level of each depends on how many run */
    size_t nrun = 0;
    for (size_t i = 0; st == EM_OK && i < nf; i++) {
        em_error e;
        if (not_selected(files[i], &op))
            continue;
        if (em_case_new(&(em_case_spec){.path = files[i]}, &cs[i], &e) != EM_OK) {
            if (e.status == EM_ERR_NOMEM)
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
            else if (!(bad[i] = strdup(e.msg)))
                st = em_err(err, EM_ERR_NOMEM, "out of memory");
            continue;
        }
        if ((op.kinds && !(op.kinds >> cs[i]->kind & 1)) || (op.quick && !cs[i]->quick)) {
            em_free(cs[i]);
            cs[i] = NULL;
            continue;
        }
        nrun++;
    }
    if (st == EM_OK) {
        res->alpha = op.alpha;
        res->alpha_case = op.alpha / (double)(nrun ? nrun : 1);
        res->max_runs = R.nladder;
        res->quick = op.quick;
        res->max_draws = top;
        res->seed = op.seed;
        R.alpha_test = res->alpha_case / (TESTS_PER_RUN * R.nladder);
    }
    double t0 = seconds_now();
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < nf; i++)
        total += cs[i] || bad[i];
    for (size_t i = 0; st == EM_OK && i < nf; i++) {
        if (!cs[i] && !bad[i])
            continue;
        em_conform_case *r = &res->cases[res->ncases++];
        double tc = seconds_now(), cc = cpu_now();
        r->file = strdup(files[i]);
        r->weakest = -1;
        r->power = r->p_value = NAN;
        if (bad[i]) {
            r->kind = -1;
            r->id = strdup(files[i]);
            r->title = strdup("");
            r->verdict = EM_CONFORM_BAD_CASE;
            r->message = bad[i];
            bad[i] = NULL;
            r->stderr_tail = strdup("");
        } else {
            em_case *c = cs[i];
            r->id = strdup(c->id);
            r->title = strdup(c->title);
            r->kind = c->kind;
            r->expect_error = c->expect_error;
            st = run_case(&R, c, r, err);
            if (!r->stderr_tail)
                r->stderr_tail = strdup("");
        }
        r->harness_seconds = seconds_now() - tc - r->sampler_seconds;
        r->harness_cpu_seconds = cpu_now() - cc;
        if (!r->id || !r->title || !r->file || !r->message || !r->stderr_tail)
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
        res->count[r->verdict]++;
        res->sampler_seconds += r->sampler_seconds;
        if (op.progress && st == EM_OK)
            op.progress(op.progress_ctx, ++shown, total, r);
    }
    for (size_t i = 0; i < nf; i++) {
        free(files[i]);
        em_free(cs ? cs[i] : NULL);
        free(bad ? bad[i] : NULL);
    }
    free(files), free(cs), free(bad);
    if (st != EM_OK) {
        em_free(res);
        return st;
    }
    res->seconds = seconds_now() - t0;
    for (int v = 0; v < EM_CONFORM_NVERDICTS; v++)
        if (is_failure(v))
            res->failed += res->count[v];
    res->exit_status = res->failed ? 1 : res->count[EM_CONFORM_BAD_CASE] ? 2
                       : res->count[EM_CONFORM_UNDECIDED] ? 4 : 0;
    suspects(res);
    res->diagnosis = suspects_text(res);
    res->summary = summary_text(res, nrun);
    if (!res->diagnosis || !res->summary) {
        em_free(res);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    *out = res;
    em_err_ok(err);
    return EM_OK;
}

/* ------------------------------------------------------------- a program */

/* io/em_spawn.h tells how a run ended in em_conform.h's terms */
_Static_assert(EM_SPAWN_EXITED == EM_RUN_EXITED && EM_SPAWN_SIGNALED == EM_RUN_SIGNALED &&
               EM_SPAWN_TIMEOUT == EM_RUN_TIMEOUT && EM_SPAWN_NOT_STARTED == EM_RUN_NOT_STARTED &&
               EM_SPAWN_FLOOD == EM_RUN_FLOOD, "em_spawn_out.how is an EM_RUN_*");

typedef struct cmd_ctx {
    const char *const *argv;
    size_t argc;
    double timeout;
} cmd_ctx;

static int run_program(void *ctx, const em_case *c, uint64_t n, uint64_t seed,
                       uint64_t maxb, em_run_output *o)
{
    cmd_ctx *x = ctx;
    const char **argv = calloc(x->argc + 4, sizeof *argv);
    char sn[32], ss[32];
    if (!argv)
        return EM_ERR_NOMEM;
    snprintf(sn, sizeof sn, "%llu", (unsigned long long)n);
    snprintf(ss, sizeof ss, "%llu", (unsigned long long)seed);
    for (size_t i = 0; i < x->argc; i++)
        argv[i] = x->argv[i];
    argv[x->argc] = c->file;
    argv[x->argc + 1] = sn;
    argv[x->argc + 2] = ss;
    argv[x->argc + 3] = NULL;
    em_spawn_opts so = {x->timeout, maxb, n, ERR_KEEP, 0};
    em_spawn_out r;
    int st = em_spawn_run(argv, &so, &r);
    free(argv);
    *o = (em_run_output){r.how, r.code, r.out, r.out_len, r.err, r.err_len, r.seconds};
    return st;
}

int em_conform_command(const em_conform_opts *o, const char *const *argv,
                       em_conform_result **out, em_error *err)
{
    if (!argv || !argv[0] || !argv[0][0]) {
        if (out)
            *out = NULL;
        return em_err(err, EM_ERR_NULL, "sampler: no program given");
    }
    cmd_ctx x = {argv, 0, o && o->timeout > 0 ? o->timeout : 600};
    while (argv[x.argc])
        x.argc++;
    return em_conform_run(o, run_program, &x, out, err);
}

/* ------------------------------------------------------------- command lines */

int em_command_split(const char *line, char ***argv, em_error *err)
{
    if (!argv)
        return em_err(err, EM_ERR_NULL, "em_command_split: argv is NULL");
    *argv = NULL;
    if (!line)
        return em_err(err, EM_ERR_NULL, "em_command_split: line is NULL");
    size_t len = strlen(line), nw = 0;
    char **v = em_obj_strv(len / 2 + 2);
    char *w = malloc(len + 1);
    if (!v || !w) {
        em_free(v), free(w);
        return em_err(err, EM_ERR_NOMEM, "out of memory");
    }
    size_t i = 0;
    int st = EM_OK;
    while (st == EM_OK) {
        while (line[i] == ' ' || line[i] == '\t' || line[i] == '\n')
            i++;
        if (!line[i])
            break;
        size_t k = 0;
        while (line[i] && line[i] != ' ' && line[i] != '\t' && line[i] != '\n') {
            char ch = line[i];
            if (ch == '\'' || ch == '"') {
                i++;
                while (line[i] && line[i] != ch) {
                    if (ch == '"' && line[i] == '\\' && (line[i + 1] == '"' || line[i + 1] == '\\'))
                        i++;
                    w[k++] = line[i++];
                }
                if (!line[i]) {
                    st = em_err(err, EM_ERR_PARSE, "sampler: an unclosed %s quote",
                                ch == '\'' ? "single" : "double");
                    break;
                }
                i++;
            } else if (ch == '\\' && line[i + 1]) {
                w[k++] = line[i + 1];
                i += 2;
            } else {
                w[k++] = ch;
                i++;
            }
        }
        if (st != EM_OK)
            break;
        w[k] = 0;
        if (!(v[nw] = strdup(w))) {
            st = em_err(err, EM_ERR_NOMEM, "out of memory");
            break;
        }
        nw++;
    }
    free(w);
    if (st == EM_OK && nw == 0)
        st = em_err(err, EM_ERR_PARSE, "sampler: no command given");
    if (st != EM_OK) {
        em_free(v);
        return st;
    }
    *argv = v;
    em_err_ok(err);
    return EM_OK;
}
