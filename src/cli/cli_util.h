/* cli_util.h: the option parser of every command, and what the commands share. */
#ifndef EM_CLI_UTIL_H
#define EM_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "expmech.h"

/* ------------------------------------------------------------- the option parser */
/* Every command declares a static table of its options; em_cli_options reads argv by it.
 * An option takes its value as the next argument or after '=' (--epsilon=0.5); "--" ends
 * the options; --help or -h prints the help and stops (exit 0).  Numbers are parsed
 * strictly: a refused value stops the command (exit 2, a message naming option and value). */
enum { EM_CLI_FLAG, EM_CLI_WORD, EM_CLI_U64, EM_CLI_DOUBLE, EM_CLI_STRING, EM_CLI_CALL };

typedef struct em_cli_opt {
    const char *name;             /* "--epsilon", "-n"; NULL ends a table */
    int kind;                     /* EM_CLI_* */
    size_t off;                   /* where the value goes in the command's struct: int (FLAG:
                                     1; WORD: the word's index), uint64_t, double or const
                                     char *; options with the same off are one option */
    const char *const *words;     /* WORD: the words, NULL-terminated */
    /* after the value is stored: NULL, or why it is refused */
    const char *(*check)(const void *value);
    /* a refused value: a format of (cmd, name, value, why), NULL: "CMD: NAME: bad value
       'VALUE': WHY" */
    const char *bad;
    /* CALL: the option's own reading of v; -1 to go on, else an exit status after a message */
    int (*set)(void *dst, const char *cmd, const char *name, const char *v);
} em_cli_opt;

/* The rows of a table: a string or a flag into the field f of a command's struct T, the end. */
#define EM_CLI_STR(name, T, f) {name, EM_CLI_STRING, offsetof(T, f), NULL, NULL, NULL, NULL}
#define EM_CLI_FLAG_AT(name, T, f) {name, EM_CLI_FLAG, offsetof(T, f), NULL, NULL, NULL, NULL}
#define EM_CLI_END {NULL, 0, 0, NULL, NULL, NULL, NULL}

typedef struct em_cli_spec {
    const char *cmd;              /* "expmech probs" */
    const em_cli_opt *opts;
    const char *help;             /* EM_HELP_NAME (build/gen/cli_help.h, from man/expmech.1) */
    const char *see;              /* the end of an unknown option's message: "(did you mean
                                     N?  SEE)", "(SEE)"; NULL: "(did you mean N?)" or nothing */
    int whole, list;              /* the unknown option shown with its '=VALUE'; with no name
                                     near it, the names listed: "(one of N1, N2; SEE)" */
    int repeat, empty;            /* an option given twice: the last wins (else refused);
                                     an empty value is no value */
    const char *twice, *needs;    /* formats of (cmd, name); NULL: "CMD: NAME given twice",
                                     "CMD: NAME needs a value" */
    /* a positional argument: -1 to go on, else an exit status; NULL: refused */
    int (*arg)(void *dst, const char *cmd, const char *a);
    /* an unknown option (NULL: the message above) */
    int (*unknown)(const struct em_cli_spec *sp, unsigned long long mask, const char *a);
} em_cli_spec;

/* argv[1..argc) by sp's options whose bit (1 << index in sp->opts) is in mask, into dst;
 * *given gets the bit of each option given.  -1 to go on, EM_EXIT_OK after --help, or an
 * exit status after a message on standard error. */
int em_cli_options(const em_cli_spec *sp, unsigned long long mask, int argc, char **argv,
                   void *dst, unsigned long long *given);

/* "CMD: unknown WHAT 'A' (did you mean N?  SEE)" for the word of names[0..n) nearest to
 * a[0..len), or "(one of N1, ...; SEE)" (list) or "(SEE)"; EM_EXIT_USAGE. */
int em_cli_unknown(const char *cmd, const char *what, const char *a, size_t len,
                   const char *const *names, size_t n, int list, const char *see);

/* The names of sp's options in mask, and "--help", into names[0..cap); their number. */
size_t em_cli_names(const em_cli_spec *sp, unsigned long long mask, const char **names,
                    size_t cap);

/* ----------------------------------------------- the options of the oracle commands */
/* One table (cli_util.c) for probs, sample, check, compare, cdf, density, quantile,
 * utility and groups; each command allows a set of them (EM_OPT(EO_*)). */
enum { EO_EPSILON, EO_SENSITIVITY, EO_VARIANT, EO_DIGITS, EO_FORMAT, EO_SEED, EO_N, EO_ALPHA,
       EO_SAMPLES, EO_PROBS, EO_RTOL, EO_MIN_EXPECTED, EO_MC, EO_CDF, EO_ATOL, EO_AT, EO_GRID,
       EO_BETWEEN, EO_LOSS_AT, EO_FORCE, EO_SAMPLES_ARE, EO_EPSILON_LOG, EO_SAMPLER, EO_TIMING,
       EO_SPLIT, EO_DATA, EO_COLUMN, EO_GROUP_BY, EO_CANDIDATES, EO_FROM_DATA, EO_FUNCTION,
       EO_NEIGHBOURS, EO_FILE };
#define EM_OPT(k) (1ULL << (k))
/* --force comes with --variant, --samples-are with --samples, --epsilon-log with --epsilon,
 * --loss-at is --at; FILE is the positional argument. */
#define EM_OPT_MECH (EM_OPT(EO_EPSILON) | EM_OPT(EO_SENSITIVITY) | EM_OPT(EO_VARIANT))
#define EM_CLI_MC_MAX 1000000000ULL
#define EM_OPT_SAMPLER (EM_OPT(EO_SAMPLER) | EM_OPT(EO_TIMING)) /* sample */
#define EM_OPT_GROUPS (EM_OPT(EO_SPLIT) | EM_OPT(EO_DATA) | EM_OPT(EO_COLUMN) |                 \
                       EM_OPT(EO_GROUP_BY) | EM_OPT(EO_CANDIDATES) | EM_OPT(EO_FROM_DATA) |     \
                       EM_OPT(EO_FUNCTION) | EM_OPT(EO_NEIGHBOURS))

/* What a command that runs over one epsilon only says to a sweep (exit 2). */
#define EM_CLI_SWEEP_REFUSED \
    "a sweep of epsilon applies to probs, sample, cdf, density, quantile, utility, groups"

#define EM_FMT_CSV 0
#define EM_FMT_JSON 1

typedef struct em_cli {
    const char *cmd;        /* for messages: "expmech probs" */
    unsigned long long seen; /* EM_OPT_* given on the command line */
    const char *eps_text, *delta_text; /* as given: the library reads them exactly */
    char **eps_all;         /* every epsilon of --epsilon / --epsilon-log (em_epsilon_sweep); */
    size_t eps_count;       /* eps_text is the first */
    int variant;            /* EM_STANDARD, EM_MONOTONE or EM_PF when given */
    uint64_t digits;        /* default 17 */
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
    int samples_are;        /* EM_SAMPLES_ARE_* (em_judge.h) */
    int force, sampler, timing; /* --force; sample: the index of --sampler's, --timing's word */
    const char *split, *data, *column, *group_by, *candidates, *function, *neighbours;
    int from_data;          /* groups: those options and --candidates-from-data */
    const char *both;       /* --epsilon with --epsilon-log: NULL, or the command's words */
    size_t sweep_i, sweep_n; /* a sweep of epsilon: run sweep_i of sweep_n (0: no sweep) */
} em_cli;

void em_cli_init(em_cli *c, const char *cmd);
void em_cli_free(em_cli *c);

/* When path is NULL or "-" and standard input is a terminal, one line on stderr saying that
 * `what` is read from it (Ctrl-D to end). */
void em_cli_stdin_hint(const char *cmd, const char *path, const char *what);


/* "CMD: MESSAGE" (fmt and its arguments) on standard error; EM_EXIT_USAGE. */
__attribute__((format(printf, 2, 3))) int em_cli_usage(const char *cmd, const char *fmt, ...);

/* Exit status for an em_status from the library: usage-type errors 2, others 3. */
int em_cli_status_exit(int st);

/* The end of a command's output: standard output flushed, EM_EXIT_OK, or EM_EXIT_INTERNAL
 * after "CMD: write error" (with on_stdout: "... on standard output"). */
int em_cli_flush(const char *cmd, int on_stdout);

/* A label for a person (em_scn_human_label: controls as \xHH, backslash doubled), in a
 * static buffer valid until the next call. */
const char *em_cli_human(const char *label);

/* The word of words[0..n) nearest to w (edit distance at most 2, or w a prefix of it), or
 * NULL: for "did you mean ...?" after an unknown command or option. */
const char *em_cli_nearest(const char *w, size_t wn, const char *const *words, size_t n);

/* Before the scenario: argv[1..argc) read by em_cli_options with the options of `allowed`
 * (a set of EM_OPT_*; --help prints `help`), those of `required` given, and not two
 * inputs from standard input.  Returns -1 to go on, else an exit status. */
int em_cli_begin(em_cli *c, int argc, char **argv, unsigned long long allowed,
                 unsigned long long required, const char *help);

/* The scenario (c->file, or standard input) and its mechanism through the public API
 * (em_scn_load, em_mech_new with the options given), the provenance line on stderr as
 * em_cli_scenario.  Returns -1 with *s and *m set (free both), or an exit status after a
 * message; a sweep of epsilon (c->sweep_n) is refused (EM_CLI_SWEEP_REFUSED). */
int em_cli_mech(em_cli *c, em_scn **s, em_mech **m);

/* What a command does once its scenario and mechanism stand; ctx is its own data. */
typedef int em_cli_run_fn(const em_cli *c, em_scn *s, em_mech *m, const void *ctx);

/* The whole of a command that needs --epsilon and nothing else before its scenario:
 * em_cli_begin as `cmd`, the scenario, then for each epsilon of a sweep (or the one
 * epsilon) its mechanism and run(c, s, m, ctx) with c->sweep_i set, until a run returns
 * another status than EM_EXIT_OK; the provenance line on stderr once; everything freed.
 * Returns the exit status (the last run's when one ran). */
int em_cli_main(const char *cmd, int argc, char **argv, unsigned long long allowed,
                const char *help, em_cli_run_fn *run, const void *ctx);

/* After em_cli_begin: the scenario, then for each epsilon of a sweep (or the one epsilon)
 * its mechanism and run(c, s, m, ctx), as em_cli_main; frees c.  The exit status. */
int em_cli_run(em_cli *c, em_cli_run_fn *run, const void *ctx);

/* The rest of a command over one epsilon (check, compare) after em_cli_begin returned rc:
 * a sweep of epsilon refused (EM_CLI_SWEEP_REFUSED), then em_cli_run(c, run, NULL); frees c.
 * The exit status. */
int em_cli_judge(em_cli *c, int rc, em_cli_run_fn *run);

/* msg with the library's names of fields and parameters replaced by the options of the
 * command line (o->candidates: --candidates); into buf[0..len), which it returns. */
const char *em_cli_words(const char *msg, char *buf, size_t len);

/* A failure of the public API as "CMD: [WHAT: ]MESSAGE", the library's names of parameters
 * ("epsilon", "variant", "sensitivity", "timing", "force") written as the command line's
 * options; returns the exit status of e->status (em_cli_status_exit). */
int em_cli_fail(const char *cmd, const char *what, const em_error *e);

/* After a result writer (em_*_write) to standard output: -1 when it wrote (a write error is
 * left to the program's end, which names it), else em_cli_fail's exit status. */
int em_cli_written(const char *cmd, int st, const em_error *e);

/* The options of a result writer for this run: --format, the sweep of epsilon, and whether
 * standard output is a terminal. */
em_write_opts em_cli_write_opts(const em_cli *c);

#endif
