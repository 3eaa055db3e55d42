/* cli_util.h: option parsing shared by the oracle commands (probs, sample, check, compare).
 *
 * Options take their value as the next argument or after '=' (--epsilon=0.5).  Numbers are
 * parsed strictly: the whole argument must be a number of the expected kind, or the
 * command stops with exit status 2 and a message naming the option and the value.
 */
#ifndef EM_CLI_UTIL_H
#define EM_CLI_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <gmp.h>

#include "expmech.h"
#include "io/em_scn_text.h"
#include "em_scn.h"

#define EM_OPT_EPSILON (1u << 0)
#define EM_OPT_SENSITIVITY (1u << 1)
#define EM_OPT_VARIANT (1u << 2)
#define EM_OPT_DIGITS (1u << 3)
#define EM_OPT_FORMAT (1u << 4)
#define EM_OPT_SEED (1u << 5)
#define EM_OPT_N (1u << 6)
#define EM_OPT_ALPHA (1u << 7)
#define EM_OPT_SAMPLES (1u << 8)
#define EM_OPT_PROBS (1u << 9)
#define EM_OPT_FILE (1u << 10)
#define EM_OPT_RTOL (1u << 11)
#define EM_OPT_MIN_EXPECTED (1u << 12)
#define EM_OPT_AT (1u << 13)   /* --at X[,X...]: points (cdf, density) or probabilities (quantile) */
#define EM_OPT_GRID (1u << 14) /* --grid LO:HI:N */
#define EM_OPT_BETWEEN (1u << 15) /* --between A:B[,A:B...]: P(A < X <= B) (cdf) */
#define EM_OPT_MC (1u << 28)      /* --mc N: Monte Carlo draws beside the exact value (utility) */
#define EM_CLI_MC_MAX 1000000000ULL
#define EM_OPT_CDF (1u << 20)     /* --cdf FILE: an x,cdf table to judge (compare) */
#define EM_OPT_ATOL (1u << 21)    /* --atol A: absolute tolerance floor (compare) */
#define EM_OPT_FORCE (1u << 22)   /* --force (no value): allowed wherever --variant is */
#define EM_OPT_SAMPLES_ARE (1u << 23) /* --samples-are labels|indices (with --samples) */
#define EM_OPT_EPSILON_LOG (1u << 24) /* --epsilon-log LO:HI:N: allowed wherever --epsilon is */

/* What a command that runs over one epsilon only says to a sweep (exit 2). */
#define EM_CLI_SWEEP_REFUSED \
    "a sweep of epsilon applies to probs, sample, cdf, density, quantile, utility, groups"

/* The paragraph every numeric command's --help carries (before its exit status). */
#define EM_CLI_HELP_PARAMS                                                                  \
    "Sensitivity and variant: --sensitivity D, else the file's '# sensitivity:' header,\n"  \
    "else 1; --variant V, else standard ('# monotone: yes' permits --variant monotone, it\n" \
    "never switches to it).  Refused (exit 2) unless --force: D below the header, and\n"    \
    "monotone without '# monotone: yes' (either would not be epsilon-DP as declared).\n"    \
    "Standard error names the variant and D used and where each came from.\n"              \
    "  --force            run a refused choice anyway (standard error says FORCED)\n"       \
    "A write error on standard output is exit 3.\n"

/* The paragraph of the commands that run over a sweep of epsilon (em_cli_main). */
#define EM_CLI_HELP_SWEEP                                                                   \
    "A sweep of epsilon: --epsilon E1,E2,... (the values as given, in that order) or\n"      \
    "--epsilon LO:HI:N (N >= 2 exact points LO + i (HI - LO)/(N - 1)), or --epsilon-log\n"   \
    "LO:HI:N (LO (HI/LO)^(i/(N - 1)), correctly rounded to 17 digits, the ends exact);\n"    \
    "at most 100000 values, each > 0.  The output is that of each epsilon in turn with\n"   \
    "an 'epsilon' first column (one header line; JSON: a list of the objects).\n"

#define EM_FMT_CSV 0
#define EM_FMT_JSON 1

/* --variant pf: permute-and-flip (src/oracle/em_pf.h).  A CLI-level value only, distinct
 * from the library's EM_STANDARD / EM_MONOTONE: a command that sees it calls em_pf_*
 * with EM_STANDARD (acceptance exp(eps (u - u*) / (2 delta))); it is never passed to
 * the core or to em_oracle_*. */
#define EM_CLI_VARIANT_PF 100

typedef struct em_cli {
    const char *cmd;        /* for messages: "expmech probs" */
    unsigned seen;          /* EM_OPT_* given on the command line */
    mpq_t eps, delta;       /* exact */
    const char *eps_text, *delta_text; /* as given (the library parses them again) */
    char **eps_all;         /* every epsilon of --epsilon / --epsilon-log (em_epsilon_sweep); */
    size_t eps_count;       /* eps and eps_text are the first */
    int variant;            /* EM_STANDARD / EM_MONOTONE / EM_CLI_VARIANT_PF when given */
    int digits;             /* default 17 */
    int format;             /* EM_FMT_* (default CSV) */
    uint64_t seed;
    uint64_t n;             /* -n, default 1 */
    uint64_t mc;            /* --mc N (utility) */
    double alpha;           /* default 1e-6 */
    double rtol;            /* default 1e-9 */
    double atol;            /* default 2^-1074 */
    const char *cdf;        /* --cdf */
    double min_expected;    /* default 20 */
    const char *samples, *probs;
    const char *at, *grid;  /* --at, --grid (unparsed) */
    const char *between;    /* --between (unparsed) */
    const char *file;       /* positional FILE, NULL = standard input */
    int samples_are;        /* EM_SAMPLES_* of io/em_samples.h (default: labels) */
    size_t sweep_i, sweep_n; /* epsilon sweep: run sweep_i of sweep_n (sweep_n 0: one epsilon, no sweep) */
} em_cli;

void em_cli_init(em_cli *c, const char *cmd);
void em_cli_free(em_cli *c);

/* Parse argv[1..argc) (argv[0] is the command name).  `allowed` is a set of EM_OPT_*;
 * `help` is printed for --help / -h.  Returns -1 to go on, EM_EXIT_OK after --help, or
 * EM_EXIT_USAGE after printing a message to stderr. */
int em_cli_parse(em_cli *c, int argc, char **argv, unsigned allowed, const char *help);

/* After em_cli_parse: require options (a set of EM_OPT_*); EM_EXIT_USAGE with a message if
 * one is missing, else -1. */
int em_cli_require(const em_cli *c, unsigned required);






/* When path is NULL or "-" and standard input is a terminal, one line on stderr saying that
 * `what` is read from it (Ctrl-D to end). */
void em_cli_stdin_hint(const char *cmd, const char *path, const char *what);





/* Strict parsers: EM_OK or EM_ERR_PARSE with *msg. */
int em_cli_parse_u64(const char *s, uint64_t *out, const char **msg);
int em_cli_parse_double(const char *s, double *out, const char **msg);

/* Exit status for an em_status from the library: usage-type errors 2, others 3. */
int em_cli_status_exit(int st);

/* The end of a command's output: standard output flushed, EM_EXIT_OK, or EM_EXIT_INTERNAL
 * after "CMD: write error" (with on_stdout: "... on standard output"). */
int em_cli_flush(const char *cmd, int on_stdout);

/* A label for a person (io/em_label.h: controls as \xHH, backslash doubled), in a static
 * buffer valid until the next call. */
const char *em_cli_human(const char *label);

/* A label as a CSV field on standard output: its exact bytes (em_csv_label: the parser reads
 * them back), or, when standard output is a terminal and the label has control characters,
 * the escaped form of em_cli_human, quoted. */
void em_cli_csv_label(const char *label);

/* Output over a sweep of epsilon (nothing added without one, c->sweep_n 0).  A CSV row
 * (row: its index within this epsilon's run): before the first row of the sweep the
 * header line "epsilon,COLUMNS", then the row's epsilon (the text of the sweep) and ','. */
void em_cli_sweep_row(const em_cli *c, const char *columns, size_t row);
/* A JSON object of one run: em_cli_json_open prints "{\n" (after the list's "[\n" at the
 * first run of a sweep), em_cli_json_close "}\n" (in a sweep "},\n", the last "}\n]\n"). */
void em_cli_json_open(const em_cli *c);
void em_cli_json_close(const em_cli *c);

/* JSON string (with quotes) of UTF-8 text. */
void em_json_string(FILE *f, const char *s);

/* "standard" / "monotone" / "pf" */
const char *em_variant_name(int variant);
/* The value of --variant: EM_STANDARD, EM_MONOTONE or EM_PF; -1 for any other word. */
int em_cli_variant(const char *v);

/* The word of words[0..n) nearest to w (edit distance at most 2, or w a prefix of it), or
 * NULL: for "did you mean ...?" after an unknown command or option. */
const char *em_cli_nearest(const char *w, size_t wn, const char *const *words, size_t n);


/* The part of em_cli_start before the scenario: parse, require, and refuse two inputs
 * from standard input.  Returns -1 to go on, else an exit status. */
int em_cli_begin(em_cli *c, int argc, char **argv, unsigned allowed, unsigned required,
                 const char *help);

/* The scenario (c->file, or standard input) and its mechanism through the public API
 * (em_scn_load, em_mech_new with the options given), the provenance line on stderr as
 * em_cli_scenario.  Returns -1 with *s and *m set (free both), or an exit status after a
 * message; a sweep of epsilon (c->sweep_n) is refused (EM_CLI_SWEEP_REFUSED). */
int em_cli_mech(em_cli *c, em_scn **s, em_mech **m);

/* em_cli_begin, then em_cli_mech. */
int em_cli_mech_start(em_cli *c, int argc, char **argv, unsigned allowed, unsigned required,
                      const char *help, em_scn **s, em_mech **m);


/* What a command does once its scenario and mechanism stand; ctx is its own data. */
typedef int em_cli_run_fn(const em_cli *c, em_scn *s, em_mech *m, const void *ctx);

/* The whole of a command that needs --epsilon and nothing else before its scenario:
 * em_cli_begin as `cmd`, the scenario, then for each epsilon of a sweep (or the one
 * epsilon) its mechanism and run(c, s, m, ctx) with c->sweep_i set, until a run returns
 * another status than EM_EXIT_OK; the provenance line on stderr once; everything freed.
 * Returns the exit status (the last run's when one ran). */
int em_cli_main(const char *cmd, int argc, char **argv, unsigned allowed, const char *help,
                em_cli_run_fn *run, const void *ctx);

/* A failure of the public API as "CMD: [WHAT: ]MESSAGE", the library's names of parameters
 * ("epsilon", "variant", "sensitivity", "timing", "force") written as the command line's
 * options; returns the exit status of e->status (em_cli_status_exit). */
int em_cli_fail(const char *cmd, const char *what, const em_error *e);

#endif
