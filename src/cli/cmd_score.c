/* cmd_score.c: `expmech score FUNCTION --data FILE [options]`: the options read into an
 * em_scoring_opts, the scenario computed by em_scoring_new (src/api/em_score_*.c) and written
 * by em_scoring_write. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "expmech.h"

static const char help[] =
    "usage: expmech score FUNCTION --data FILE [options]\n"
    "\n"
    "Reads raw data (one value per line: category names or numbers; blank lines and lines\n"
    "starting with '#' before the first data line are skipped; '-' is standard input;\n"
    "--column NAME reads one column of a CSV file with a header line instead) and writes\n"
    "a scenario for the other commands, after the header lines '# sensitivity: D' (the\n"
    "sensitivity proven for the chosen neighbour relation) and '# monotone: yes' where\n"
    "the monotone variant is proven to apply:\n"
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
    "\n";

/* Two strings: C99 compilers need support only 4095 characters in one. */
static const char help_options[] =
    "Options (numbers are exact: decimals, a/b fractions):\n"
    "  --data FILE          the raw data (not needed for rr with --x, laplace with --f)\n"
    "  --column NAME        read the column NAME of a CSV file with a header line\n"
    "                       (fields may be quoted: \"a,b\", \"say \"\"hi\"\"\")\n"
    "  --aggregated         --data holds lines 'value,count' (no header), the output of\n"
    "                       sqlite3 -csv db \"SELECT v, COUNT(*) FROM t GROUP BY v\": the same\n"
    "                       scenario as the rows themselves (all functions but rr; large\n"
    "                       data: docs/large-data.md)\n"
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
    "  --group-by COLUMN --output-dir DIR  count, frequency, maxnorm with --column: one\n"
    "                       scenario per value of COLUMN, from that group's rows alone (its\n"
    "                       own proven sensitivity; one candidate set for all), written to\n"
    "                       DIR/NAME.txt (bytes other than A-Z a-z 0-9 _ - and a '.' not\n"
    "                       first written %XX); existing files are never overwritten\n"
    "                       (nothing is written); the file names go to standard output\n"
    "\n"
    "Exit status: 0 success, 2 bad input (a message names the problem, with file and line\n"
    "where there is one; nothing is written to standard output), 3 internal failure.\n";

static int fail(const char *fmt, const char *a, const char *b)
{
    fputs("expmech score: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return EM_EXIT_USAGE;
}

/* The options: the score's, and --group-by and --output-dir (which are not). */
typedef struct args {
    em_scoring_opts o;
    const char *group_by, *output_dir;
} args;

#define S(name, f) EM_CLI_STR(name, args, f)
static const em_cli_opt opts[] = {
    S("--data", o.data), S("--candidates", o.candidates), S("--alpha", o.alpha),
    S("--p-max", o.p_max), S("--beta", o.beta), S("--gamma", o.gamma), S("--x", o.x),
    S("--f", o.f), S("--delta-f", o.delta_f), S("--neighbours", o.neighbours),
    S("--range", o.range), S("--convention", o.convention), S("--column", o.column),
    S("--group-by", group_by), S("--output-dir", output_dir),
    EM_CLI_FLAG_AT("--aggregated", args, o.aggregated),
    EM_CLI_FLAG_AT("--candidates-from-data", args, o.candidates_from_data),
    S("--neighbors", o.neighbours),
    EM_CLI_END,
};
#define SEE "see expmech score --help"

/* An unknown word: an option (in FUNCTION's place too: the function comes first) or a
   scoring function, with the nearest valid one named.  --epsilon and --sensitivity are
   named as options of the commands that read the scenario, which score does not take. */
static int score_unknown(const em_cli_spec *sp, unsigned long long mask, const char *a)
{
    static const char *const fns[] = {"count",   "frequency", "maxnorm", "median",
                                      "quantile", "revenue",  "rr",      "laplace"};
    static const char *const theirs[] = {"--epsilon", "--sensitivity"};
    if (a[0] != '-')
        return em_cli_unknown(sp->cmd, "scoring function", a, strlen(a), fns,
                              sizeof fns / sizeof *fns, 1, SEE);
    const char *eq = strchr(a, '='), *names[32];
    size_t nl = eq ? (size_t)(eq - a) : strlen(a), n = em_cli_names(sp, mask, names, 32);
    const char *near = em_cli_nearest(a, nl, names, n);
    if (near && strlen(near) == nl && !strncmp(a, near, nl))
        return fail("the scoring function comes first, before %s (expmech score FUNCTION "
                    "--data FILE [options]; see expmech score --help)%s", near, "");
    const char *other = near ? NULL : em_cli_nearest(a, nl, theirs, 2);
    if (other) {
        int exact = strlen(other) == nl && !strncmp(a, other, nl);
        fprintf(stderr,
                "expmech score: unknown option '%s' (%s%s%sscore takes no %s: it writes the "
                "scenario that probs, sample, cdf, ... read with %s; see expmech score "
                "--help)\n", a, exact ? "" : "did you mean ", exact ? "" : other,
                exact ? "" : "?  ", other, other);
        return EM_EXIT_USAGE;
    }
    return em_cli_unknown(sp->cmd, "option", a, strlen(a), names, n, 0, SEE);
}

static const em_cli_spec spec;

static int score_arg(void *dst, const char *cmd, const char *a)
{
    (void)dst, (void)cmd;
    return score_unknown(&spec, ~0ULL, a);
}

static const em_cli_spec spec = {.cmd = "expmech score", .opts = opts, .help = help,
                                 .help2 = help_options, .twice = "%s: option %s given twice\n",
                                 .needs = "%s: option %s needs a value\n", .arg = score_arg,
                                 .unknown = score_unknown};

/* --group-by: one scenario file per group in --output-dir, their names on standard
   output. */
static int score_groups(const em_scoring_opts *o, const args *go)
{
    if (!go->group_by || !go->output_dir)
        return fail("%s needs %s (one scenario file per group)",
                    go->group_by ? "--group-by" : "--output-dir",
                    go->group_by ? "--output-dir DIR" : "--group-by COLUMN");
    em_groups *g = NULL;
    em_error err;
    char said[4 * EM_ERRLEN];
    int rc = EM_EXIT_OK;
    if (em_groups_new(o, go->group_by, &g, &err) != EM_OK ||
        em_groups_write(g, go->output_dir, stdout, &err) != EM_OK) {
        fprintf(stderr, "expmech score: %s\n", em_cli_words(err.msg, said, sizeof said));
        rc = err.status == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    if (rc == EM_EXIT_OK && em_groups_warning(g))
        fprintf(stderr, "expmech score: warning: %s\n",
                em_cli_words(em_groups_warning(g), said, sizeof said));
    em_groups_free(g);
    return rc;
}

int cmd_score(int argc, char **argv)
{
    FILE *f = argc < 2 ? stderr : stdout;
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(help, f);
        fputs(help_options, f);
        return argc < 2 ? EM_EXIT_USAGE : EM_EXIT_OK;
    }
    if (!em_scoring_known(argv[1]))
        return score_unknown(&spec, ~0ULL, argv[1]);
    args p = {EM_SCORING_OPTS_INIT, NULL, NULL};
    unsigned long long given = 0;
    p.o.function = argv[1];
    int rc = em_cli_options(&spec, ~0ULL, argc - 1, argv + 1, &p, &given);
    if (rc >= 0)
        return rc;
    em_scoring_opts o = p.o;
    if (o.data && o.candidates && !strcmp(o.data, "-") && !strcmp(o.candidates, "-"))
        return fail("--data and --candidates cannot both be standard input ('-'): one of "
                    "them must be a file%s%s", "", "");
    if (p.group_by || p.output_dir)
        return score_groups(&o, &p);
    em_scoring *r = NULL;
    em_error err;
    char said[4 * EM_ERRLEN];
    if (em_scoring_new(&o, &r, &err) != EM_OK) {
        fprintf(stderr, "expmech score: %s\n", em_cli_words(err.msg, said, sizeof said));
        return err.status == EM_ERR_NOMEM ? EM_EXIT_INTERNAL : EM_EXIT_USAGE;
    }
    if (em_scoring_warning(r))
        fprintf(stderr, "expmech score: warning: %s\n",
                em_cli_words(em_scoring_warning(r), said, sizeof said));
    rc = em_scoring_write(stdout, r, &err) == EM_OK ? EM_EXIT_OK : EM_EXIT_INTERNAL;
    if (rc != EM_EXIT_OK)
        fprintf(stderr, "expmech score: %s\n", err.status == EM_ERR_NOMEM ? err.msg : "write error");
    em_scoring_free(r);
    return rc;
}
