/* cmd_score.c: `expmech score FUNCTION --data FILE [options]`: a scenario (lines
 * `label,utility`) computed from raw data by the verified scoring functions of
 * src/core/em_score_*.h, headed by the proven sensitivity (`# sensitivity: D`) and, where
 * it holds, `# monotone: yes`.  The numbers and the proofs behind them: spec/README.md,
 * "Scoring functions". */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmp.h>

#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "oracle/em_rational.h"

static const char help[] =
    "usage: expmech score FUNCTION --data FILE [options]\n"
    "\n"
    "Reads raw data (one value per line: category names or numbers; blank lines and lines\n"
    "starting with '#' are skipped; '-' is standard input; --column NAME reads one column\n"
    "of a CSV file with a header line instead) and writes a scenario for the other\n"
    "commands, after the header lines '# sensitivity: D' (the sensitivity proven for the\n"
    "chosen neighbour relation) and '# monotone: yes' where the monotone variant is\n"
    "proven to apply:\n"
    "  - with --candidates: lines 'label,utility' with exact utilities;\n"
    "  - with --range LO:HI (revenue, median, quantile, laplace): a continuous scenario\n"
    "    ('# output: continuous', then pieces 'lo,hi,a,b' with u(r) = a + b r inside).\n"
    "  expmech score median --data a.txt --candidates 0:400 | expmech probs --epsilon 1\n"
    "  expmech score median --data a.txt --range 0:400 | expmech cdf --epsilon 1 --at 104\n"
    "\n"
    "FUNCTION (definitions: spec/README.md, 'Scoring functions'):\n"
    "  count       rows equal to r                         Delta 1 (monotone: add-remove)\n"
    "  frequency   count / n                               Delta 1/n (substitution, n public;\n"
    "                                                      the default), 1 (add-remove)\n"
    "  maxnorm     count / largest count                   Delta 1 (monotone: add-remove)\n"
    "  median      -min |A (+) B|, |B| = |A|, med(B) = c   Delta 2\n"
    "  quantile    -|(1-alpha) #{x<c} - alpha #{x>c}|      Delta max(alpha, 1-alpha)\n"
    "                                                      (add-remove), 1 (substitution)\n"
    "  revenue     p * #{bids >= p}, prices in [0, p_max]  Delta p_max (monotone: add-remove)\n"
    "  rr          randomized response: u(x,0) = 0, u(0,1) = beta, u(1,1) = gamma\n"
    "                                                      Delta |beta - gamma| (monotone;\n"
    "                                                      substitution only)\n"
    "  laplace     -|f(x) - r|                             Delta delta_f\n"
    "\n"
    "Options (numbers are exact: decimals, a/b fractions):\n"
    "  --data FILE          the raw data (not needed for rr with --x, laplace with --f)\n"
    "  --column NAME        read the column NAME of a CSV file with a header line\n"
    "                       (fields may be quoted: \"a,b\", \"say \"\"hi\"\"\")\n"
    "  --candidates C       the outputs: a:b[:step] (step 1 by default) or a file with one\n"
    "                       candidate per line; required by count, frequency, maxnorm,\n"
    "                       median, quantile, revenue, laplace unless --range is given\n"
    "  --candidates-from-data  count, frequency, maxnorm: the distinct data values as the\n"
    "                       candidates; NOT private (which values occur leaks): a warning\n"
    "                       is printed on standard error\n"
    "  --range LO:HI        revenue, median, quantile, laplace: every output in [LO, HI]\n"
    "                       (revenue: 0 <= LO, and p_max = HI; laplace: LO may be -inf\n"
    "                       and HI inf); rows outside the range are counted as they are\n"
    "  --convention C       median, quantile with --range: 'rank-distance' (default, the\n"
    "                       definitions above) or 'diffprivlib': u = -|i - alpha n| on the\n"
    "                       gap above the i smallest rows (alpha = 1/2 for median), with\n"
    "                       diffprivlib's Delta 1 (spec/README.md says how they relate)\n"
    "  --neighbours R       add-remove (default) or substitution (default for frequency\n"
    "                       and rr; rr has no add-remove version)\n"
    "  --alpha A            quantile level, 0 < A < 1 (quantile; required)\n"
    "  --p-max P            largest price, > 0 (revenue with --candidates; default: the\n"
    "                       largest candidate)\n"
    "  --beta B --gamma G   rr scores (default -1/4 and 1/4, as seed 003)\n"
    "  --x BIT              rr: the private bit, 0 or 1 (instead of --data)\n"
    "  --f F                laplace: the query value (default: the number of data rows)\n"
    "  --delta-f D          laplace: the sensitivity of f, > 0 (default 1)\n"
    "\n"
    "Exit status: 0 success, 2 bad input (a message names the problem, with file and line\n"
    "where there is one; nothing is written to standard output), 3 internal failure.\n";

enum { F_COUNT, F_FREQUENCY, F_MAXNORM, F_MEDIAN, F_QUANTILE, F_REVENUE, F_RR, F_LAPLACE };
enum { NB_ADD_REMOVE, NB_SUBSTITUTION };

static const struct {
    const char *name;
    int fn;
} functions[] = {
    {"count", F_COUNT},       {"frequency", F_FREQUENCY}, {"maxnorm", F_MAXNORM},
    {"max-normalised", F_MAXNORM}, {"median", F_MEDIAN},  {"quantile", F_QUANTILE},
    {"revenue", F_REVENUE},   {"rr", F_RR},               {"randomized-response", F_RR},
    {"laplace", F_LAPLACE},   {NULL, 0}};

typedef struct {
    const char *data, *cands, *alpha, *pmax, *beta, *gamma, *x, *f, *df, *neigh;
    const char *range, *conv, *column;
    int from_data; /* --candidates-from-data */
} score_opts;

/* A list of trimmed lines (pointers into a buffer made NUL-terminated in place). */
typedef struct {
    char *buf;
    size_t n, cap;
    char **v;
    unsigned long *line;
    const char *name;
} lines;

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("expmech score: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EM_EXIT_USAGE;
}

static int nomem(void)
{
    fputs("expmech score: out of memory\n", stderr);
    return EM_EXIT_INTERNAL;
}

static void lines_free(lines *l)
{
    free(l->buf);
    free(l->v);
    free(l->line);
    memset(l, 0, sizeof *l);
}

/* Read a file (or '-') into non-blank, non-comment, trimmed lines. */
static int lines_read(lines *l, const char *path, const char *what)
{
    memset(l, 0, sizeof *l);
    int use_stdin = !strcmp(path, "-");
    l->name = use_stdin ? "<stdin>" : path;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return fail("%s: cannot open %s: %s", what, path, strerror(errno));
    size_t len;
    int st = em_read_all(f, (size_t)4 << 30, &l->buf, &len);
    if (!use_stdin)
        fclose(f);
    if (st == EM_ERR_NOMEM)
        return nomem();
    if (st != EM_OK)
        return fail("%s: %s: read error or file too large", what, l->name);
    if (memchr(l->buf, 0, len))
        return fail("%s: NUL byte in the file", l->name);
    size_t pos = 0;
    unsigned long ln = 0;
    if (len >= 3 && !memcmp(l->buf, "\xEF\xBB\xBF", 3))
        pos = 3;
    while (pos < len) {
        ln++;
        char *p = l->buf + pos;
        char *nl = memchr(p, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - p) : len - pos;
        pos += n + (nl ? 1 : 0);
        if (n && p[n - 1] == '\r')
            n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        while (n && (*p == ' ' || *p == '\t')) {
            p++;
            n--;
        }
        p[n] = 0; /* overwrites the '\n' (or the '\r', or the NUL after the buffer) */
        if (n == 0 || p[0] == '#')
            continue;
        if (l->n == l->cap) {
            size_t nc = l->cap ? 2 * l->cap : 256;
            char **v = realloc(l->v, nc * sizeof *v);
            if (!v)
                return nomem();
            l->v = v;
            unsigned long *lnv = realloc(l->line, nc * sizeof *lnv);
            if (!lnv)
                return nomem();
            l->line = lnv;
            l->cap = nc;
        }
        l->v[l->n] = p;
        l->line[l->n] = ln;
        l->n++;
    }
    return -1;
}

/* One CSV field starting at p: unquoted (trimmed) or "quoted" with "" for a quote.  The
   value is copied to dst (dst <= p: the value is never longer than its text), NUL-ended;
   returns the position after the field, or NULL on bad quoting; *more: a ',' follows. */
static char *csv_field(char *p, char *dst, int *more)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '"') {
        p++;
        for (;;) {
            if (*p == 0)
                return NULL; /* unterminated */
            if (*p == '"') {
                if (p[1] == '"') {
                    *dst++ = '"';
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            *dst++ = *p++;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != 0 && *p != ',')
            return NULL; /* text after the closing quote */
        *more = *p == ',';
        *dst = 0;
        return p;
    }
    char *start = dst;
    while (*p && *p != ',')
        *dst++ = *p++;
    while (dst > start && (dst[-1] == ' ' || dst[-1] == '\t'))
        dst--;
    *more = *p == ','; /* before the terminator, which may land on that comma */
    *dst = 0;
    return p;
}

/* Split a line into at most `max` fields in place (each field's value written over its
   own text).  Returns the number of fields, or -1 on bad quoting. */
static long csv_split(char *line, char **field, size_t max)
{
    size_t nf = 0;
    char *p = line;
    for (;;) {
        char *start = p;
        int more = 0;
        char *end = csv_field(p, start, &more);
        if (!end)
            return -1;
        if (nf < max)
            field[nf] = start;
        nf++;
        if (!more)
            break;
        p = end + 1;
    }
    return (long)nf;
}

/* Keep only the column `name` of a CSV file whose first line is the header. */
static int lines_column(lines *l, const char *name)
{
    if (l->n == 0)
        return fail("--data %s: no header line (--column %s)", l->name, name);
    size_t cap = 1;
    for (const char *c = l->v[0]; *c; c++)
        cap += *c == ',';
    char **f = malloc(cap * sizeof *f);
    if (!f)
        return nomem();
    long nh = csv_split(l->v[0], f, cap);
    if (nh < 0) {
        free(f);
        return fail("%s:%lu: bad quoting in the header line", l->name, l->line[0]);
    }
    long col = -1;
    for (long k = 0; k < nh; k++)
        if (!strcmp(f[k], name)) {
            if (col >= 0) {
                free(f);
                return fail("%s:%lu: column '%s' appears twice in the header", l->name, l->line[0], name);
            }
            col = k;
        }
    if (col < 0) {
        free(f);
        return fail("%s:%lu: no column '%s' in the header line", l->name, l->line[0], name);
    }
    for (size_t i = 1; i < l->n; i++) {
        char **g = f;
        size_t need = 1;
        for (const char *c = l->v[i]; *c; c++)
            need += *c == ',';
        if (need > cap) {
            g = realloc(f, need * sizeof *f);
            if (!g) {
                free(f);
                return nomem();
            }
            f = g;
            cap = need;
        }
        long nf = csv_split(l->v[i], f, cap);
        if (nf < 0) {
            free(f);
            return fail("%s:%lu: bad quoting (an unterminated \"field\" or text after its closing quote)",
                        l->name, l->line[i]);
        }
        if (nf != nh) {
            free(f);
            return fail("%s:%lu: %ld field%s, the header has %ld", l->name, l->line[i], nf,
                        nf == 1 ? "" : "s", nh);
        }
        if (f[col][0] == 0) {
            free(f);
            return fail("%s:%lu: empty value in column '%s'", l->name, l->line[i], name);
        }
        l->v[i - 1] = f[col];
        l->line[i - 1] = l->line[i];
    }
    free(f);
    l->n--;
    return -1;
}

/* The --data file: every line, or one CSV column. */
static int data_read(lines *d, const score_opts *o)
{
    int rc = lines_read(d, o->data, "--data");
    if (rc >= 0 || !o->column)
        return rc;
    return lines_column(d, o->column);
}

static int parse_q(const char *s, mpq_t q, const char *what)
{
    const char *msg = NULL;
    int kind;
    if (em_q_parse_str(s, 0, q, &kind, &msg) != EM_OK)
        return fail("%s: '%s' is not an exact number (%s)", what, s, msg ? msg : "malformed");
    return -1;
}

/* q as a short exact decimal or a/b; printed then freed. */
static void put_q(FILE *out, const mpq_t q)
{
    char *s = em_q_to_string(q, 40);
    fputs(s ? s : "?", out);
    free(s);
}

/* ------------------------------------------------------------ candidates */

typedef struct {
    size_t n;
    char **label;   /* owned */
    mpq_t *q;       /* numeric value (numeric candidate sets only) */
    int numeric;
} cands;

static void cands_free(cands *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->label[i]);
        if (c->q)
            mpq_clear(c->q[i]);
    }
    free(c->label);
    free(c->q);
    memset(c, 0, sizeof *c);
}

/* "a:b" or "a:b:step" with exact numbers: 1 and the three values, else 0. */
static int is_range(const char *s, mpq_t a, mpq_t b, mpq_t step)
{
    const char *c1 = strchr(s, ':');
    if (!c1)
        return 0;
    const char *c2 = strchr(c1 + 1, ':');
    if (c2 && strchr(c2 + 1, ':'))
        return 0;
    int kind;
    if (em_q_parse(s, (size_t)(c1 - s), 0, a, &kind, NULL) != EM_OK)
        return 0;
    const char *e = c2 ? c2 : c1 + strlen(c1);
    if (em_q_parse(c1 + 1, (size_t)(e - c1 - 1), 0, b, &kind, NULL) != EM_OK)
        return 0;
    if (c2) {
        if (em_q_parse_str(c2 + 1, 0, step, &kind, NULL) != EM_OK)
            return 0;
    } else {
        mpq_set_ui(step, 1, 1);
    }
    return 1;
}

static int cands_alloc(cands *c, size_t n, int numeric)
{
    c->label = calloc(n ? n : 1, sizeof *c->label);
    c->numeric = numeric;
    if (!c->label)
        return nomem();
    if (numeric) {
        c->q = malloc((n ? n : 1) * sizeof *c->q);
        if (!c->q)
            return nomem();
        for (size_t i = 0; i < n; i++)
            mpq_init(c->q[i]);
    }
    c->n = n;
    return -1;
}

static int cands_load(cands *c, const char *spec, int numeric)
{
    memset(c, 0, sizeof *c);
    mpq_t a, b, step, t;
    mpq_inits(a, b, step, t, NULL);
    int rc = -1;
    if (is_range(spec, a, b, step)) {
        if (mpq_sgn(step) <= 0) {
            rc = fail("--candidates %s: the step must be > 0", spec);
            goto done;
        }
        if (mpq_cmp(a, b) > 0) {
            rc = fail("--candidates %s: the range is empty (%s > %s)", spec, "a", "b");
            goto done;
        }
        /* count = floor((b - a) / step) + 1 */
        mpq_sub(t, b, a);
        mpq_div(t, t, step);
        mpz_t cnt;
        mpz_init(cnt);
        mpz_fdiv_q(cnt, mpq_numref(t), mpq_denref(t));
        mpz_add_ui(cnt, cnt, 1);
        if (mpz_cmp_ui(cnt, (unsigned long)EM_N_MAX) > 0) {
            mpz_clear(cnt);
            rc = fail("--candidates %s: more than %zu candidates", spec, (size_t)EM_N_MAX);
            goto done;
        }
        size_t n = (size_t)mpz_get_ui(cnt);
        mpz_clear(cnt);
        if ((rc = cands_alloc(c, n, 1)) >= 0)
            goto done;
        mpq_set(t, a);
        for (size_t i = 0; i < n; i++) {
            mpq_set(c->q[i], t);
            c->label[i] = em_q_to_string(t, 60);
            if (!c->label[i]) {
                rc = nomem();
                goto done;
            }
            mpq_add(t, t, step);
        }
        goto done;
    }
    lines l;
    if ((rc = lines_read(&l, spec, "--candidates")) >= 0) {
        lines_free(&l);
        goto done;
    }
    if (l.n == 0) {
        rc = fail("--candidates %s: no candidates in the file", l.name);
        lines_free(&l);
        goto done;
    }
    if (l.n > EM_N_MAX) {
        rc = fail("--candidates %s: more than %zu candidates", l.name, (size_t)EM_N_MAX);
        lines_free(&l);
        goto done;
    }
    if ((rc = cands_alloc(c, l.n, numeric)) >= 0) {
        lines_free(&l);
        goto done;
    }
    for (size_t i = 0; i < l.n; i++) {
        if (numeric) {
            const char *msg = NULL;
            int kind;
            if (em_q_parse_str(l.v[i], 0, c->q[i], &kind, &msg) != EM_OK) {
                rc = fail("%s:%lu: candidate '%s' is not an exact number (%s)", l.name, l.line[i],
                          l.v[i], msg ? msg : "malformed");
                break;
            }
        }
        c->label[i] = strdup(l.v[i]);
        if (!c->label[i]) {
            rc = nomem();
            break;
        }
    }
    lines_free(&l);
done:
    mpq_clears(a, b, step, t, NULL);
    return rc;
}

/* Index of a label in a small open-addressing table. */
typedef struct {
    size_t cap;
    size_t *slot; /* index + 1, 0 = empty */
    char **key;
} strmap;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static long strmap_find(const strmap *m, const char *s)
{
    for (size_t h = (size_t)hash_str(s) & (m->cap - 1);; h = (h + 1) & (m->cap - 1)) {
        if (!m->slot[h])
            return -1;
        if (!strcmp(m->key[m->slot[h] - 1], s))
            return (long)(m->slot[h] - 1);
    }
}

static int strmap_init(strmap *m, char **keys, size_t n)
{
    m->cap = 16;
    while (m->cap < 2 * n + 2)
        m->cap *= 2;
    m->slot = calloc(m->cap, sizeof *m->slot);
    m->key = keys;
    if (!m->slot)
        return nomem();
    for (size_t i = 0; i < n; i++) {
        if (strmap_find(m, keys[i]) >= 0)
            return fail("--candidates: duplicate candidate '%s'", keys[i]);
        size_t h = (size_t)hash_str(keys[i]) & (m->cap - 1);
        while (m->slot[h])
            h = (h + 1) & (m->cap - 1);
        m->slot[h] = i + 1;
    }
    return -1;
}

/* The canonical text of a number ("3.0" -> "3"), or NULL when s is not a number. */
static char *canon_number(const char *s)
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

static void header(const char *fn, const char *def, size_t rows, size_t m, int neigh,
                   const char *lemma)
{
    if (rows == 0) /* laplace with --f: no data file */
        printf("# expmech score %s: %s; %zu candidates\n", fn, def, m);
    else
        printf("# expmech score %s: %s; %zu rows, %zu candidates\n", fn, def, rows, m);
    printf("# neighbours: %s; sensitivity proven in %s\n",
           neigh == NB_ADD_REMOVE ? "add/remove one row" : "substitute one row", lemma);
}

static int finish(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("expmech score: write error\n", stderr);
        return EM_EXIT_INTERNAL;
    }
    return EM_EXIT_OK;
}

/* ------------------------------------------------------------ categorical scores */

static int run_categorical(int fn, const char *fname, const score_opts *o, int neigh)
{
    lines d;
    int rc = data_read(&d, o);
    cands c = {0};
    strmap map = {0};
    int *codes = NULL;
    uint64_t *num = NULL;
    if (rc >= 0)
        goto done;
    if (d.n == 0) {
        rc = fail("--data %s: no data rows", d.name);
        goto done;
    }
    if (o->cands) {
        if ((rc = cands_load(&c, o->cands, 0)) >= 0)
            goto done;
    } else {
        /* the distinct data values, in order of first appearance */
        if ((rc = cands_alloc(&c, 0, 0)) >= 0)
            goto done;
        strmap seen = {0};
        seen.cap = 16;
        while (seen.cap < 2 * d.n + 2)
            seen.cap *= 2;
        seen.slot = calloc(seen.cap, sizeof *seen.slot);
        char **keys = malloc(d.n * sizeof *keys);
        if (!seen.slot || !keys) {
            free(seen.slot);
            free(keys);
            rc = nomem();
            goto done;
        }
        seen.key = keys;
        size_t k = 0;
        for (size_t i = 0; i < d.n; i++) {
            if (strmap_find(&seen, d.v[i]) >= 0)
                continue;
            keys[k] = d.v[i];
            size_t h = (size_t)hash_str(d.v[i]) & (seen.cap - 1);
            while (seen.slot[h])
                h = (h + 1) & (seen.cap - 1);
            seen.slot[h] = ++k;
        }
        free(seen.slot);
        char **lab = realloc(c.label, k * sizeof *lab);
        if (!lab) {
            free(keys);
            rc = nomem();
            goto done;
        }
        c.label = lab;
        for (size_t i = 0; i < k; i++) {
            c.label[i] = strdup(keys[i]);
            if (!c.label[i]) {
                c.n = i;
                free(keys);
                rc = nomem();
                goto done;
            }
        }
        c.n = k;
        free(keys);
        fprintf(stderr, "expmech score: warning: --candidates-from-data: the %zu candidates are the "
                        "distinct data values, which reveals which values occur: the output is not "
                        "differentially private (pass --candidates with a set fixed in advance)\n", k);
    }
    if (c.n > (size_t)INT32_MAX) {
        rc = fail("too many candidates for category codes");
        goto done;
    }
    if ((rc = strmap_init(&map, c.label, c.n)) >= 0)
        goto done;
    codes = malloc(d.n * sizeof *codes);
    num = malloc(c.n * sizeof *num);
    if (!codes || !num) {
        rc = nomem();
        goto done;
    }
    for (size_t i = 0; i < d.n; i++) {
        long k = strmap_find(&map, d.v[i]);
        if (k < 0) {
            char *cn = canon_number(d.v[i]);
            if (cn)
                k = strmap_find(&map, cn);
            free(cn);
        }
        if (k < 0) {
            rc = fail("%s:%lu: value '%s' is not one of the candidates", d.name, d.line[i], d.v[i]);
            goto done;
        }
        codes[i] = (int)k;
    }
    uint64_t den = 1;
    int st;
    const char *def, *lemma;
    mpq_t delta, u;
    mpq_inits(delta, u, NULL);
    int monotone = 0;
    if (fn == F_COUNT) {
        st = em_histogram(d.n, codes, c.n, num);
        def = "u(x, r) = #{rows equal to r} (spec/Count.acsl)";
        lemma = neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreCount_lemmas.h: Count_Insert"
                                       : "proofs/lemmas/ScoreCount_lemmas.h: Count_Subst";
        mpq_set_ui(delta, 1, 1);
        monotone = neigh == NB_ADD_REMOVE;
    } else if (fn == F_FREQUENCY) {
        st = em_score_frequency(d.n, codes, c.n, num, &den);
        def = "u(x, r) = #{rows equal to r} / n (spec/Frequency.acsl)";
        if (neigh == NB_SUBSTITUTION) {
            lemma = "proofs/lemmas/ScoreCount_lemmas.h: Frequency_Subst (n public)";
            mpq_set_ui(delta, 1, (unsigned long)d.n);
            mpq_canonicalize(delta);
        } else {
            lemma = "proofs/lemmas/ScoreCount_lemmas.h: Frequency_Insert (n private; "
                    "1/(n+1) for n >= 1, 1 with the empty dataset)";
            mpq_set_ui(delta, 1, 1);
        }
    } else {
        st = em_score_maxnorm(d.n, codes, c.n, num, &den);
        def = "u(x, r) = #{rows equal to r} / max count (spec/Frequency.acsl)";
        lemma = neigh == NB_ADD_REMOVE
                    ? "proofs/lemmas/ScoreCount_lemmas.h: MaxNorm_Sensitivity, MaxNorm_Insert"
                    : "proofs/lemmas/ScoreCount_lemmas.h: MaxNorm_Sensitivity";
        mpq_set_ui(delta, 1, 1);
        monotone = neigh == NB_ADD_REMOVE;
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
    } else {
        header(fname, def, d.n, c.n, neigh, lemma);
        printf("# sensitivity: ");
        put_q(stdout, delta);
        putchar('\n');
        if (monotone)
            puts("# monotone: yes");
        for (size_t r = 0; r < c.n; r++) {
            em_csv_label(stdout, c.label[r]);
            putchar(',');
            mpz_set_ui(mpq_numref(u), (unsigned long)num[r]);
            mpz_set_ui(mpq_denref(u), (unsigned long)den);
            mpq_canonicalize(u);
            put_q(stdout, u);
            putchar('\n');
        }
        rc = finish();
    }
    mpq_clears(delta, u, NULL);
done:
    free(map.slot);
    free(codes);
    free(num);
    cands_free(&c);
    lines_free(&d);
    return rc;
}

/* ------------------------------------------------------------ numeric scores */

static int cmp_q(const void *x, const void *y)
{
    return mpq_cmp(*(const mpq_t *)x, *(const mpq_t *)y);
}

/* Ranks: the sorted distinct values of all and, for each value, its index there.  Only
   the order matters to the rank scores, so they are computed on these ranks exactly. */
static int rank_of(mpq_t *sorted, size_t ns, const mpq_t v, int64_t *out)
{
    size_t lo = 0, hi = ns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int s = mpq_cmp(sorted[mid], v);
        if (s == 0) {
            *out = (int64_t)mid;
            return 0;
        }
        if (s < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int read_numbers(const lines *d, mpq_t **out)
{
    mpq_t *q = malloc((d->n ? d->n : 1) * sizeof *q);
    if (!q)
        return nomem();
    for (size_t i = 0; i < d->n; i++)
        mpq_init(q[i]);
    *out = q;
    for (size_t i = 0; i < d->n; i++) {
        const char *msg = NULL;
        int kind;
        if (em_q_parse_str(d->v[i], 0, q[i], &kind, &msg) != EM_OK)
            return fail("%s:%lu: '%s' is not an exact number (%s)", d->name, d->line[i], d->v[i],
                        msg ? msg : "malformed");
    }
    return -1;
}

static void free_numbers(mpq_t *q, size_t n)
{
    if (!q)
        return;
    for (size_t i = 0; i < n; i++)
        mpq_clear(q[i]);
    free(q);
}

/* v * scale as int64 (scale a common denominator, so the product is an integer). */
static int to_int64(const mpq_t v, const mpz_t scale, int64_t *out)
{
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, mpq_numref(v), scale);
    mpz_divexact(t, t, mpq_denref(v));
    int ok = mpz_fits_slong_p(t);
    if (ok)
        *out = (int64_t)mpz_get_si(t);
    mpz_clear(t);
    return ok ? 0 : -1;
}

static void print_scores(const cands *c, const int64_t *u, const mpz_t scale)
{
    mpq_t q;
    mpq_init(q);
    for (size_t j = 0; j < c->n; j++) {
        em_csv_label(stdout, c->label[j]);
        putchar(',');
        mpz_set_si(mpq_numref(q), (long)u[j]);
        mpz_set(mpq_denref(q), scale);
        mpq_canonicalize(q);
        put_q(stdout, q);
        putchar('\n');
    }
    mpq_clear(q);
}

/* --alpha of the quantile score: required, exact, 0 < alpha < 1, a denominator that fits
   the core's integers.  Returns -1 on success, else an exit status. */
static int quantile_alpha(const score_opts *o, mpq_t alpha)
{
    int rc;
    if (!o->alpha)
        return fail("quantile: --alpha is required (0 < alpha < 1)");
    if ((rc = parse_q(o->alpha, alpha, "--alpha")) >= 0)
        return rc;
    if (mpq_sgn(alpha) <= 0 || mpq_cmp_ui(alpha, 1, 1) >= 0)
        return fail("--alpha %s: alpha must lie strictly between 0 and 1", o->alpha);
    if (!mpz_fits_slong_p(mpq_denref(alpha)))
        return fail("--alpha %s: denominator too large", o->alpha);
    return -1;
}

static int run_rank(int fn, const char *fname, const score_opts *o, int neigh)
{
    lines d;
    cands c = {0};
    mpq_t *x = NULL, *all = NULL, alpha;
    int64_t *xi = NULL, *ci = NULL, *u = NULL;
    size_t nall = 0;
    mpq_init(alpha);
    mpz_t one;
    mpz_init_set_ui(one, 1);
    int rc = -1;
    if (fn == F_QUANTILE) {
        if ((rc = quantile_alpha(o, alpha)) >= 0)
            goto out;
    }
    if ((rc = data_read(&d, o)) >= 0)
        goto out_d;
    if (d.n == 0) {
        rc = fail("--data %s: no data rows", d.name);
        goto out_d;
    }
    if (!o->cands) {
        rc = fail("%s: --candidates is required (a:b[:step] or a file)", fname);
        goto out_d;
    }
    if ((rc = read_numbers(&d, &x)) >= 0)
        goto done;
    if ((rc = cands_load(&c, o->cands, 1)) >= 0)
        goto done;
    nall = d.n + c.n;
    all = malloc(nall * sizeof *all);
    xi = malloc(d.n * sizeof *xi);
    ci = malloc(c.n * sizeof *ci);
    u = malloc(c.n * sizeof *u);
    if (!all || !xi || !ci || !u) {
        rc = nomem();
        goto done;
    }
    memcpy(all, x, d.n * sizeof *all);           /* shallow copies: sorted views only */
    memcpy(all + d.n, c.q, c.n * sizeof *all);
    qsort(all, nall, sizeof *all, cmp_q);
    size_t ns = 0;
    for (size_t i = 0; i < nall; i++)
        if (ns == 0 || mpq_cmp(all[ns - 1], all[i]) != 0)
            memcpy(&all[ns++], &all[i], sizeof *all);
    for (size_t i = 0; i < d.n; i++)
        rank_of(all, ns, x[i], &xi[i]);
    for (size_t j = 0; j < c.n; j++)
        rank_of(all, ns, c.q[j], &ci[j]);
    int st;
    mpq_t delta;
    mpq_init(delta);
    const char *def, *lemma;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    if (fn == F_MEDIAN) {
        st = em_score_median(d.n, xi, c.n, ci, u);
        def = "u(A, c) = -min |A (+) B| over B of the same size with lower median c "
              "(spec/Rank.acsl)";
        lemma = neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRank_lemmas.h: Median_Insert"
                                       : "proofs/lemmas/ScoreRank_lemmas.h: Median_Subst";
        mpq_set_ui(delta, 2, 1);
    } else {
        int64_t qb = (int64_t)mpz_get_si(mpq_denref(alpha));
        if (!mpz_fits_slong_p(mpq_numref(alpha))) {
            st = EM_ERR_DOMAIN;
        } else {
            int64_t qa = (int64_t)mpz_get_si(mpq_numref(alpha));
            st = em_score_quantile(d.n, xi, c.n, ci, qa, qb, u);
        }
        mpz_set(scale, mpq_denref(alpha));
        def = "u(x, c) = -|(1 - alpha) #{x < c} - alpha #{x > c}| (spec/Rank.acsl)";
        if (neigh == NB_ADD_REMOVE) {
            lemma = "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert";
            mpq_set_ui(delta, 1, 1);
            mpq_sub(delta, delta, alpha);
            if (mpq_cmp(alpha, delta) > 0)
                mpq_set(delta, alpha);
        } else {
            lemma = "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
            mpq_set_ui(delta, 1, 1);
        }
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
    } else {
        char defbuf[256];
        if (fn == F_QUANTILE) {
            char *as = em_q_to_string(alpha, 40);
            snprintf(defbuf, sizeof defbuf, "%s, alpha = %s", def, as ? as : "?");
            free(as);
            def = defbuf;
        }
        header(fname, def, d.n, c.n, neigh, lemma);
        printf("# sensitivity: ");
        put_q(stdout, delta);
        putchar('\n');
        print_scores(&c, u, scale);
        rc = finish();
    }
    mpz_clear(scale);
    mpq_clear(delta);
done:
    free(all);
    free(xi);
    free(ci);
    free(u);
    free_numbers(x, d.n);
    cands_free(&c);
out_d:
    lines_free(&d);
out:
    mpq_clear(alpha);
    mpz_clear(one);
    return rc;
}

/* lcm of the denominators of v[0..n) into scale */
static void lcm_den(mpz_t scale, mpq_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mpz_lcm(scale, scale, mpq_denref(v[i]));
}

static int run_revenue(const char *fname, const score_opts *o, int neigh)
{
    lines d;
    cands c = {0};
    mpq_t *x = NULL, pmax;
    int64_t *xi = NULL, *pi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    mpq_init(pmax);
    int rc = data_read(&d, o);
    if (rc >= 0)
        goto out;
    if (d.n == 0) {
        rc = fail("--data %s: no bids", d.name);
        goto out;
    }
    if (!o->cands) {
        rc = fail("revenue: --candidates is required (prices a:b[:step], e.g. 0:3.499:0.001)");
        goto out;
    }
    if ((rc = read_numbers(&d, &x)) >= 0)
        goto done;
    if ((rc = cands_load(&c, o->cands, 1)) >= 0)
        goto done;
    if (o->pmax) {
        if ((rc = parse_q(o->pmax, pmax, "--p-max")) >= 0)
            goto done;
    } else {
        mpq_set(pmax, c.q[0]);
        for (size_t j = 1; j < c.n; j++)
            if (mpq_cmp(c.q[j], pmax) > 0)
                mpq_set(pmax, c.q[j]);
    }
    if (mpq_sgn(pmax) <= 0) {
        rc = fail("revenue: p_max must be > 0 (got %s)", o->pmax ? o->pmax : "the largest candidate, <= 0");
        goto done;
    }
    for (size_t j = 0; j < c.n; j++)
        if (mpq_sgn(c.q[j]) < 0 || mpq_cmp(c.q[j], pmax) > 0) {
            rc = fail("revenue: price '%s' outside [0, p_max]", c.label[j]);
            goto done;
        }
    lcm_den(scale, x, d.n);
    lcm_den(scale, c.q, c.n);
    mpz_lcm(scale, scale, mpq_denref(pmax));
    xi = malloc(d.n * sizeof *xi);
    pi = malloc(c.n * sizeof *pi);
    u = malloc(c.n * sizeof *u);
    if (!xi || !pi || !u) {
        rc = nomem();
        goto done;
    }
    int64_t pm;
    int big = to_int64(pmax, scale, &pm) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = to_int64(c.q[j], scale, &pi[j]) != 0;
    for (size_t i = 0; i < d.n && !big; i++)
        if (to_int64(x[i], scale, &xi[i]) != 0) {
            /* a bid beyond int64 in price units: only its side of every price matters */
            xi[i] = mpq_sgn(x[i]) > 0 ? INT64_MAX : INT64_MIN;
        }
    if (big) {
        rc = fail("revenue: prices too large or too fine for exact 64-bit arithmetic");
        goto done;
    }
    int st = em_score_revenue(d.n, xi, c.n, pi, pm, u);
    if (st == EM_ERR_OVERFLOW) {
        rc = fail("revenue: n * p_max does not fit in 64 bits in units of the price grid");
        goto done;
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
        goto done;
    }
    char def[160];
    char *ps = em_q_to_string(pmax, 40);
    snprintf(def, sizeof def, "u(x, p) = p * #{bids >= p}, prices in [0, %s] (spec/Revenue.acsl)",
             ps ? ps : "?");
    free(ps);
    header(fname, def, d.n, c.n, neigh,
           neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Insert"
                                  : "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Subst");
    printf("# sensitivity: ");
    put_q(stdout, pmax);
    putchar('\n');
    if (neigh == NB_ADD_REMOVE)
        puts("# monotone: yes");
    print_scores(&c, u, scale);
    rc = finish();
done:
    free(xi);
    free(pi);
    free(u);
    free_numbers(x, d.n);
    cands_free(&c);
out:
    lines_free(&d);
    mpq_clear(pmax);
    mpz_clear(scale);
    return rc;
}

/* The header's definition line of the Laplace score, with the query value f. */
static void laplace_definition(char *def, size_t len, const mpq_t f, const score_opts *o)
{
    char *fs = em_q_to_string(f, 40);
    snprintf(def, len, "u(x, r) = -|f(x) - r| with f(x) = %s%s (spec/ScoreLaplace.acsl)",
             fs ? fs : "?", o->f ? "" : " (the number of rows)");
    free(fs);
}

/* The Laplace score's query value f (--f, or the number of rows of --data) and its
   sensitivity Δf (--delta-f, default 1), shared by the grid and the range forms.
   Returns -1 on success, else an exit status. */
static int laplace_query(const score_opts *o, lines *d, mpq_t f, mpq_t df, size_t *rows)
{
    int rc;
    if (o->f) {
        if ((rc = parse_q(o->f, f, "--f")) >= 0)
            return rc;
    } else if (o->data) {
        if ((rc = data_read(d, o)) >= 0)
            return rc;
        *rows = d->n;
        mpq_set_ui(f, (unsigned long)d->n, 1); /* f(x) = the number of rows */
    } else {
        return fail("laplace: give --f F (the query value) or --data FILE (f = number of rows)");
    }
    mpq_set_ui(df, 1, 1);
    if (o->df && (rc = parse_q(o->df, df, "--delta-f")) >= 0)
        return rc;
    if (mpq_sgn(df) <= 0)
        return fail("--delta-f %s: the sensitivity of f must be > 0", o->df);
    return -1;
}

static int run_laplace(const char *fname, const score_opts *o, int neigh)
{
    lines d = {0};
    cands c = {0};
    mpq_t f, df;
    mpq_inits(f, df, NULL);
    int64_t *gi = NULL, *u = NULL;
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = -1;
    size_t rows = 0;
    if ((rc = laplace_query(o, &d, f, df, &rows)) >= 0)
        goto done;
    if (!o->cands) {
        rc = fail("laplace: --candidates is required (the output grid, a:b[:step])");
        goto done;
    }
    if ((rc = cands_load(&c, o->cands, 1)) >= 0)
        goto done;
    lcm_den(scale, c.q, c.n);
    mpz_lcm(scale, scale, mpq_denref(f));
    gi = malloc(c.n * sizeof *gi);
    u = malloc(c.n * sizeof *u);
    if (!gi || !u) {
        rc = nomem();
        goto done;
    }
    int64_t fi = 0;
    int big = to_int64(f, scale, &fi) != 0;
    for (size_t j = 0; j < c.n && !big; j++)
        big = to_int64(c.q[j], scale, &gi[j]) != 0;
    int st = big ? EM_ERR_OVERFLOW : em_score_laplace(fi, c.n, gi, u);
    if (st == EM_ERR_OVERFLOW) {
        rc = fail("laplace: values too large for exact 64-bit arithmetic");
        goto done;
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
        goto done;
    }
    char def[200];
    laplace_definition(def, sizeof def, f, o);
    header(fname, def, rows, c.n, neigh, "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity");
    puts("# the factor of 2 of seed 002: spec/Theorems.md section 6");
    printf("# sensitivity: ");
    put_q(stdout, df);
    putchar('\n');
    print_scores(&c, u, scale);
    rc = finish();
done:
    free(gi);
    free(u);
    cands_free(&c);
    lines_free(&d);
    mpq_clears(f, df, NULL);
    mpz_clear(scale);
    return rc;
}

static int run_rr(const char *fname, const score_opts *o)
{
    mpq_t beta, gamma, delta;
    mpq_inits(beta, gamma, delta, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    lines d = {0};
    int rc = -1;
    mpq_set_si(beta, -1, 4);
    mpq_set_si(gamma, 1, 4);
    if (o->beta && (rc = parse_q(o->beta, beta, "--beta")) >= 0)
        goto done;
    if (o->gamma && (rc = parse_q(o->gamma, gamma, "--gamma")) >= 0)
        goto done;
    const char *bit;
    if (o->x) {
        bit = o->x;
    } else if (o->data) {
        if ((rc = data_read(&d, o)) >= 0)
            goto done;
        if (d.n != 1) {
            rc = fail("rr: the dataset is one private bit: --data must hold exactly one row "
                      "(found %zu)", d.n);
            goto done;
        }
        bit = d.v[0];
    } else {
        rc = fail("rr: give the private bit with --x 0|1 or --data FILE");
        goto done;
    }
    int x;
    if (!strcmp(bit, "0"))
        x = 0;
    else if (!strcmp(bit, "1"))
        x = 1;
    else {
        rc = fail("rr: the private bit must be 0 or 1 (got '%s')", bit);
        goto done;
    }
    mpq_sub(delta, beta, gamma);
    mpq_abs(delta, delta);
    if (mpq_sgn(delta) == 0) {
        rc = fail("rr: beta = gamma: the score does not depend on the data (sensitivity 0)");
        goto done;
    }
    mpz_lcm(scale, mpq_denref(beta), mpq_denref(gamma));
    int64_t b, g, u[2];
    if (to_int64(beta, scale, &b) != 0 || to_int64(gamma, scale, &g) != 0) {
        rc = fail("rr: beta and gamma too large for exact 64-bit arithmetic");
        goto done;
    }
    int st = em_score_rr(x, b, g, u);
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
        goto done;
    }
    printf("# expmech score %s: randomized response, u(x, 0) = 0, u(0, 1) = ", fname);
    put_q(stdout, beta);
    printf(", u(1, 1) = ");
    put_q(stdout, gamma);
    printf(" (spec/ScoreRR.acsl); the private bit is %d\n", x);
    puts("# neighbours: substitute the bit; sensitivity proven in "
         "proofs/lemmas/ScoreMisc_lemmas.h: RR_Sensitivity, RR_Monotone");
    printf("# sensitivity: ");
    put_q(stdout, delta);
    putchar('\n');
    puts("# monotone: yes");
    cands c = {0};
    char l0[] = "0", l1[] = "1";
    char *labels[2] = {l0, l1};
    c.n = 2;
    c.label = labels;
    print_scores(&c, u, scale);
    rc = finish();
done:
    lines_free(&d);
    mpq_clears(beta, gamma, delta, NULL);
    mpz_clear(scale);
    return rc;
}

/* ------------------------------------------------------------ scores over a range */

/* "LO:HI": exact numbers; with allow_inf, LO may be -inf and HI inf (or +inf, infinity). */
static int parse_range(const char *spec, mpq_t lo, mpq_t hi, int *lo_inf, int *hi_inf, int allow_inf)
{
    *lo_inf = *hi_inf = 0;
    const char *c = strchr(spec, ':');
    if (!c || strchr(c + 1, ':'))
        return fail("--range %s: expected LO:HI", spec);
    const char *hs = c + 1;
    size_t ln = (size_t)(c - spec);
    const char *msg = NULL;
    int kind;
    if (em_q_parse(spec, ln, 1, lo, &kind, &msg) != EM_OK)
        return fail("--range %s: LO is not an exact number%s (%s)", spec,
                    allow_inf ? " or -inf" : "", msg ? msg : "malformed");
    if (kind == EM_Q_NEG_INF) {
        if (!allow_inf)
            return fail("--range %s: LO must be finite (only laplace accepts -inf)", spec);
        *lo_inf = 1;
    }
    if (!strcasecmp(hs, "inf") || !strcasecmp(hs, "+inf") || !strcasecmp(hs, "infinity") ||
        !strcasecmp(hs, "+infinity")) {
        if (!allow_inf)
            return fail("--range %s: HI must be finite (only laplace accepts inf)", spec);
        *hi_inf = 1;
    } else if (em_q_parse_str(hs, 0, hi, &kind, &msg) != EM_OK) {
        return fail("--range %s: HI is not an exact number%s (%s)", spec, allow_inf ? " or inf" : "",
                    msg ? msg : "malformed");
    }
    if (!*lo_inf && !*hi_inf && mpq_cmp(lo, hi) >= 0)
        return fail("--range %s: the range is empty (LO must be < HI)", spec);
    return -1;
}

static void put_end(FILE *out, const mpq_t v, int inf, const char *inf_text)
{
    if (inf)
        fputs(inf_text, out);
    else
        put_q(out, v);
}

static void put_scaled(FILE *out, int64_t v, const mpz_t scale)
{
    mpq_t q;
    mpq_init(q);
    mpz_set_si(mpq_numref(q), (long)v);
    mpz_set(mpq_denref(q), scale);
    mpq_canonicalize(q);
    put_q(out, q);
    mpq_clear(q);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static void range_header(const char *fn, const char *def, const char *range, size_t rows, size_t k,
                         int neigh, const char *lemma, const mpq_t delta, int monotone)
{
    printf("# expmech score %s --range %s: %s; pieces: spec/ScoreRange.acsl, proven in "
           "src/core/em_score_range.h\n", fn, range, def);
    if (rows)
        printf("# %zu rows, %zu pieces 'lo,hi,a,b': u(r) = a + b r inside each piece\n", rows, k);
    else
        printf("# %zu pieces 'lo,hi,a,b': u(r) = a + b r inside each piece\n", k);
    printf("# neighbours: %s; sensitivity proven in %s\n",
           neigh == NB_ADD_REMOVE ? "add/remove one row" : "substitute one row", lemma);
    puts("# output: continuous");
    printf("# sensitivity: ");
    put_q(stdout, delta);
    putchar('\n');
    if (monotone)
        puts("# monotone: yes");
}

static int range_laplace(const char *fname, const score_opts *o, int neigh)
{
    lines d = {0};
    mpq_t f, df, lo, hi;
    mpq_inits(f, df, lo, hi, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int rc = -1, lo_inf, hi_inf;
    size_t rows = 0;
    if ((rc = laplace_query(o, &d, f, df, &rows)) >= 0)
        goto done;
    if ((rc = parse_range(o->range, lo, hi, &lo_inf, &hi_inf, 1)) >= 0)
        goto done;
    mpz_lcm(scale, scale, mpq_denref(f));
    if (!lo_inf)
        mpz_lcm(scale, scale, mpq_denref(lo));
    if (!hi_inf)
        mpz_lcm(scale, scale, mpq_denref(hi));
    int64_t fi = 0, li = 0, hv = 0;
    int big = to_int64(f, scale, &fi) != 0 || (!lo_inf && to_int64(lo, scale, &li) != 0) ||
              (!hi_inf && to_int64(hi, scale, &hv) != 0);
    em_piece pc[2];
    size_t k = 0;
    int st = big ? EM_ERR_OVERFLOW : em_range_laplace(fi, lo_inf, li, hi_inf, hv, pc, &k);
    if (st == EM_ERR_OVERFLOW) {
        rc = fail("laplace: values too large for exact 64-bit arithmetic");
        goto done;
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
        goto done;
    }
    char def[200];
    laplace_definition(def, sizeof def, f, o);
    range_header(fname, def, o->range, rows, k, neigh,
                 "proofs/lemmas/ScoreMisc_lemmas.h: Laplace_Sensitivity", df, 0);
    puts("# the factor of 2 of seed 002: spec/Theorems.md section 6");
    for (size_t j = 0; j < k; j++) {
        /* only the outer ends can be infinite: pieces meet at the finite f */
        if (j == 0)
            put_end(stdout, lo, lo_inf, "-inf");
        else
            put_scaled(stdout, pc[j].lo, scale);
        putchar(',');
        if (j == k - 1)
            put_end(stdout, hi, hi_inf, "inf");
        else
            put_scaled(stdout, pc[j].hi, scale);
        putchar(',');
        put_scaled(stdout, pc[j].a, scale); /* a is in units; b (+-1) is a pure slope */
        printf(",%lld\n", (long long)pc[j].b);
    }
    rc = finish();
done:
    lines_free(&d);
    mpq_clears(f, df, lo, hi, NULL);
    mpz_clear(scale);
    return rc;
}

/* revenue, median and quantile over [LO, HI]: the data converted to the core's integers,
   sorted here (the core checks the order), the pieces from the core, printed. */
static int range_data(int fn, const char *fname, const score_opts *o, int neigh)
{
    lines d = {0};
    mpq_t *x = NULL, *vals = NULL, lo, hi, alpha, delta;
    mpq_inits(lo, hi, alpha, delta, NULL);
    mpz_t scale;
    mpz_init_set_ui(scale, 1);
    int64_t *xi = NULL;
    em_piece *pc = NULL;
    int rc = -1, lo_inf, hi_inf;
    int dpl = 0; /* --convention diffprivlib */
    if (o->conv) {
        if (fn == F_REVENUE) {
            rc = fail("option --convention does not apply to 'revenue'");
            goto out;
        }
        if (!strcmp(o->conv, "diffprivlib"))
            dpl = 1;
        else if (strcmp(o->conv, "rank-distance")) {
            rc = fail("--convention %s: expected rank-distance or diffprivlib", o->conv);
            goto out;
        }
    }
    if (fn == F_QUANTILE) {
        if ((rc = quantile_alpha(o, alpha)) >= 0)
            goto out;
    } else if (fn == F_MEDIAN && dpl) {
        mpq_set_ui(alpha, 1, 2); /* diffprivlib's median is its 50th percentile */
    }
    if ((rc = parse_range(o->range, lo, hi, &lo_inf, &hi_inf, 0)) >= 0)
        goto out;
    if (fn == F_REVENUE && mpq_sgn(lo) < 0) {
        rc = fail("--range %s: prices are >= 0 (revenue needs 0 <= LO)", o->range);
        goto out;
    }
    if ((rc = data_read(&d, o)) >= 0)
        goto out;
    if (d.n == 0) {
        rc = fail("--data %s: no data rows", d.name);
        goto out;
    }
    if ((rc = read_numbers(&d, &x)) >= 0)
        goto done;
    xi = malloc(d.n * sizeof *xi);
    pc = malloc((d.n + 1) * sizeof *pc);
    vals = malloc((d.n + 2) * sizeof *vals);
    if (!xi || !pc || !vals) {
        rc = nomem();
        goto done;
    }
    int64_t li = 0, hv = 0;
    size_t nv = 0;
    if (fn == F_REVENUE) {
        /* Price units: the revenue is linear in the price, so the core works on the prices
           themselves, scaled by a common denominator, doubled so that every open piece
           holds an integer (the contract speaks of the integers inside a piece).  A bid
           outside [LO, HI] lies below or above every price: only its side is kept. */
        mpz_lcm(scale, mpq_denref(lo), mpq_denref(hi));
        for (size_t i = 0; i < d.n; i++)
            if (mpq_cmp(x[i], lo) >= 0 && mpq_cmp(x[i], hi) <= 0)
                mpz_lcm(scale, scale, mpq_denref(x[i]));
        mpz_mul_ui(scale, scale, 2);
        if (to_int64(lo, scale, &li) != 0 || to_int64(hi, scale, &hv) != 0) {
            rc = fail("revenue: --range %s too large or the bids too fine for exact 64-bit arithmetic",
                      o->range);
            goto done;
        }
        for (size_t i = 0; i < d.n; i++) {
            if (mpq_cmp(x[i], lo) < 0)
                xi[i] = INT64_MIN;
            else if (mpq_cmp(x[i], hi) > 0)
                xi[i] = INT64_MAX;
            else
                to_int64(x[i], scale, &xi[i]); /* fits: between LO and HI */
        }
    } else {
        /* The rank scores depend only on the order: the distinct values of the data and the
           two ends, sorted, value number t at 2t (even), so that every gap holds an odd
           integer for the contract's open pieces.  Pieces end at ends or rows: even. */
        memcpy(vals, x, d.n * sizeof *vals); /* shallow copies: sorted views only */
        memcpy(&vals[d.n], lo, sizeof *vals);
        memcpy(&vals[d.n + 1], hi, sizeof *vals);
        qsort(vals, d.n + 2, sizeof *vals, cmp_q);
        for (size_t i = 0; i < d.n + 2; i++)
            if (nv == 0 || mpq_cmp(vals[nv - 1], vals[i]) != 0)
                memcpy(&vals[nv++], &vals[i], sizeof *vals);
        int64_t t = 0;
        for (size_t i = 0; i < d.n; i++) {
            rank_of(vals, nv, x[i], &t);
            xi[i] = 2 * t;
        }
        rank_of(vals, nv, lo, &t);
        li = 2 * t;
        rank_of(vals, nv, hi, &t);
        hv = 2 * t;
    }
    qsort(xi, d.n, sizeof *xi, cmp_i64);
    size_t k = 0;
    int st;
    int64_t qb = 1;
    const char *def, *lemma;
    char defbuf[320];
    int monotone = 0;
    if (fn == F_REVENUE) {
        st = em_range_revenue(d.n, xi, li, hv, pc, &k);
        def = "u(x, p) = p * #{bids >= p} (spec/Revenue.acsl), p_max = HI";
        lemma = neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Insert"
                                       : "proofs/lemmas/ScoreRevenue_lemmas.h: Revenue_Subst";
        mpq_set(delta, hi);
        monotone = neigh == NB_ADD_REMOVE;
    } else if (fn == F_MEDIAN && !dpl) {
        st = em_range_median(d.n, xi, li, hv, pc, &k);
        def = "u(A, c) = -min |A (+) B| over B of the same size with lower median c "
              "(spec/Rank.acsl)";
        lemma = neigh == NB_ADD_REMOVE ? "proofs/lemmas/ScoreRank_lemmas.h: Median_Insert"
                                       : "proofs/lemmas/ScoreRank_lemmas.h: Median_Subst";
        mpq_set_ui(delta, 2, 1);
    } else {
        qb = (int64_t)mpz_get_si(mpq_denref(alpha));
        if (!mpz_fits_slong_p(mpq_numref(alpha)))
            st = EM_ERR_DOMAIN;
        else
            st = em_range_quantile(d.n, xi, li, hv, (int64_t)mpz_get_si(mpq_numref(alpha)), qb, pc, &k);
        char *as = em_q_to_string(alpha, 40);
        if (dpl) {
            /* The same pieces (QuantileOf_Diffprivlib); diffprivlib declares Delta 1, a valid
               bound under both relations (>= max(alpha, 1 - alpha) and >= 1). */
            snprintf(defbuf, sizeof defbuf,
                     "diffprivlib's convention u = -|i - alpha n| on the gap above the i smallest "
                     "rows, alpha = %s, with its Delta 1 (= our quantile score between rows, "
                     "spec/README.md)", as ? as : "?");
            lemma = neigh == NB_ADD_REMOVE
                        ? "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert (1 >= max(alpha, 1 - alpha))"
                        : "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
            mpq_set_ui(delta, 1, 1);
        } else {
            snprintf(defbuf, sizeof defbuf,
                     "u(x, c) = -|(1 - alpha) #{x < c} - alpha #{x > c}| (spec/Rank.acsl), alpha = %s",
                     as ? as : "?");
            if (neigh == NB_ADD_REMOVE) {
                lemma = "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Insert";
                mpq_set_ui(delta, 1, 1);
                mpq_sub(delta, delta, alpha);
                if (mpq_cmp(alpha, delta) > 0)
                    mpq_set(delta, alpha);
            } else {
                lemma = "proofs/lemmas/ScoreRank_lemmas.h: Quantile_Subst";
                mpq_set_ui(delta, 1, 1);
            }
        }
        free(as);
        def = defbuf;
    }
    if (st == EM_ERR_OVERFLOW) {
        rc = fail("%s: too many rows for exact 64-bit scores", fname);
        goto done;
    }
    if (st != EM_OK) {
        rc = fail("%s: %s", fname, em_strerror(st));
        goto done;
    }
    range_header(fname, def, o->range, d.n, k, neigh, lemma, delta, monotone);
    mpz_t uscale;
    mpz_init_set_si(uscale, (long)qb);
    for (size_t j = 0; j < k; j++) {
        if (fn == F_REVENUE) {
            put_scaled(stdout, pc[j].lo, scale);
            putchar(',');
            put_scaled(stdout, pc[j].hi, scale);
            /* u(p) = p * count in real prices too: a = 0, b = the count (no unit) */
            printf(",0,%lld\n", (long long)pc[j].b);
        } else {
            put_q(stdout, vals[pc[j].lo / 2]);
            putchar(',');
            put_q(stdout, vals[pc[j].hi / 2]);
            putchar(',');
            put_scaled(stdout, pc[j].a, uscale); /* the quantile core works in units of 1/qb */
            puts(",0");
        }
    }
    mpz_clear(uscale);
    rc = finish();
done:
    free(xi);
    free(pc);
    free(vals);
    free_numbers(x, d.n);
out:
    lines_free(&d);
    mpq_clears(lo, hi, alpha, delta, NULL);
    mpz_clear(scale);
    return rc;
}

/* ------------------------------------------------------------ entry */

int cmd_score(int argc, char **argv)
{
    if (argc < 2) {
        fputs(help, stderr);
        return EM_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(help, stdout);
        return EM_EXIT_OK;
    }
    const char *fname = argv[1];
    int fn = -1;
    for (int i = 0; functions[i].name; i++)
        if (!strcmp(fname, functions[i].name))
            fn = functions[i].fn;
    if (fn < 0)
        return fail("unknown scoring function '%s' (count, frequency, maxnorm, median, quantile, "
                    "revenue, rr, laplace; see --help)", fname);
    score_opts o = {0};
    static const struct {
        const char *name;
        size_t off;
    } opts[] = {{"--data", offsetof(score_opts, data)},       {"--candidates", offsetof(score_opts, cands)},
                {"--alpha", offsetof(score_opts, alpha)},     {"--p-max", offsetof(score_opts, pmax)},
                {"--beta", offsetof(score_opts, beta)},       {"--gamma", offsetof(score_opts, gamma)},
                {"--x", offsetof(score_opts, x)},             {"--f", offsetof(score_opts, f)},
                {"--delta-f", offsetof(score_opts, df)},      {"--neighbours", offsetof(score_opts, neigh)},
                {"--neighbors", offsetof(score_opts, neigh)}, {"--range", offsetof(score_opts, range)},
                {"--convention", offsetof(score_opts, conv)}, {"--column", offsetof(score_opts, column)},
                {NULL, 0}};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(help, stdout);
            return EM_EXIT_OK;
        }
        if (!strcmp(a, "--candidates-from-data")) {
            if (o.from_data)
                return fail("option --candidates-from-data given twice");
            o.from_data = 1;
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t nl = eq ? (size_t)(eq - a) : strlen(a);
        int found = 0;
        for (int k = 0; opts[k].name; k++) {
            if (strlen(opts[k].name) != nl || strncmp(a, opts[k].name, nl))
                continue;
            const char *v;
            if (eq)
                v = eq + 1;
            else if (i + 1 < argc)
                v = argv[++i];
            else
                return fail("option %s needs a value", opts[k].name);
            const char **slot = (const char **)((char *)&o + opts[k].off);
            if (*slot)
                return fail("option %s given twice", opts[k].name);
            *slot = v;
            found = 1;
            break;
        }
        if (!found)
            return fail("unknown option '%s' (see expmech score --help)", a);
    }
    /* which options each function reads */
    struct { const char *v, *name; unsigned fns; } used[] = {
        {o.alpha, "--alpha", 1u << F_QUANTILE},
        {o.pmax, "--p-max", 1u << F_REVENUE},
        {o.beta, "--beta", 1u << F_RR},
        {o.gamma, "--gamma", 1u << F_RR},
        {o.x, "--x", 1u << F_RR},
        {o.f, "--f", 1u << F_LAPLACE},
        {o.df, "--delta-f", 1u << F_LAPLACE},
        {o.cands, "--candidates", ~(1u << F_RR)},
        {o.range, "--range", (1u << F_REVENUE) | (1u << F_MEDIAN) | (1u << F_QUANTILE) | (1u << F_LAPLACE)},
        {o.conv, "--convention", (1u << F_MEDIAN) | (1u << F_QUANTILE)},
        {o.from_data ? "" : NULL, "--candidates-from-data", (1u << F_COUNT) | (1u << F_FREQUENCY) | (1u << F_MAXNORM)},
        {o.column, "--column", ~0u},
    };
    for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
        if (used[k].v && !(used[k].fns & (1u << fn)))
            return fail("option %s does not apply to '%s'", used[k].name, fname);
    if (fn == F_RR && o.x && o.data)
        return fail("rr: give either --x or --data, not both");
    int neigh = (fn == F_FREQUENCY || fn == F_RR) ? NB_SUBSTITUTION : NB_ADD_REMOVE;
    if (o.neigh) {
        if (!strcmp(o.neigh, "add-remove") || !strcmp(o.neigh, "add/remove"))
            neigh = NB_ADD_REMOVE;
        else if (!strcmp(o.neigh, "substitution") || !strcmp(o.neigh, "substitute"))
            neigh = NB_SUBSTITUTION;
        else
            return fail("--neighbours %s: expected add-remove or substitution", o.neigh);
        if (fn == F_RR && neigh == NB_ADD_REMOVE)
            return fail("rr: the dataset is one bit; only --neighbours substitution applies");
    }
    if (fn != F_RR && fn != F_LAPLACE && !o.data)
        return fail("%s: --data FILE is required", fname);
    if (o.column && !o.data)
        return fail("option --column needs --data FILE (a CSV file with a header line)");
    if (o.range && o.cands)
        return fail("give either --candidates (finite outputs) or --range (an interval), not both");
    if (o.range && o.pmax)
        return fail("revenue --range LO:HI: p_max is HI (no --p-max)");
    if (o.conv && !o.range)
        return fail("--convention applies to --range (the diffprivlib convention is a continuous one)");
    if ((fn == F_COUNT || fn == F_FREQUENCY || fn == F_MAXNORM) && !o.cands && !o.from_data)
        return fail("%s: --candidates is required (a:b[:step] or a file, fixed before seeing the data); "
                    "--candidates-from-data takes the distinct data values, which is not private",
                    fname);
    if (o.cands && o.from_data)
        return fail("give either --candidates or --candidates-from-data, not both");
    if (o.range)
        return fn == F_LAPLACE ? range_laplace(fname, &o, neigh) : range_data(fn, fname, &o, neigh);
    switch (fn) {
    case F_COUNT:
    case F_FREQUENCY:
    case F_MAXNORM:
        return run_categorical(fn, fname, &o, neigh);
    case F_MEDIAN:
    case F_QUANTILE:
        return run_rank(fn, fname, &o, neigh);
    case F_REVENUE:
        return run_revenue(fname, &o, neigh);
    case F_LAPLACE:
        return run_laplace(fname, &o, neigh);
    default:
        return run_rr(fname, &o);
    }
}
