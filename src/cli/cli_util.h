/* cli_util.h: the one option parser of every command, the options of the oracle commands,
 * and what the commands share.  Messages follow one convention, "CMD: ...", exit 2 for a
 * usage error (commands.h); the library's messages name API fields, em_cli_fail maps them
 * to options. */
#ifndef EM_CLI_UTIL_H
#define EM_CLI_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "expmech.h"

/* An option takes its value as the next argument or after '=', "--" ends the options, -h
 * and --help print the help.  A refused value: "CMD: NAME: bad value 'V': WHY". */
enum { EM_CLI_FLAG, EM_CLI_WORD, EM_CLI_U64, EM_CLI_DOUBLE, EM_CLI_STRING, EM_CLI_CALL };
typedef struct em_cli_opt {
    const char *name;         /* NULL ends a table */
    int kind;                 /* EM_CLI_* */
    size_t off;               /* its field: int (FLAG 1, WORD the word's index), uint64_t,
                                 double or const char *; one field, one option */
    const char *const *words; /* WORD, NULL-terminated; why: the WHY of another word */
    double lo, hi;            /* U64, DOUBLE: the range; why: the WHY of a number outside */
    const char *why;
    /* CALL: the option's own reading; -1 to go on, else an exit status after a message */
    int (*set)(void *dst, const char *cmd, const char *name, const char *v);
} em_cli_opt;

#define EM_CLI_STR(name, T, f) {name, EM_CLI_STRING, offsetof(T, f), NULL, 0, 0, NULL, NULL}
#define EM_CLI_FLAG_AT(name, T, f) {name, EM_CLI_FLAG, offsetof(T, f), NULL, 0, 0, NULL, NULL}
#define EM_CLI_NUM(name, kind, T, f, lo, hi, why) {name, kind, offsetof(T, f), NULL, lo, hi, why, NULL}
#define EM_CLI_WORDS(name, T, f, why, ...) \
    {name, EM_CLI_WORD, offsetof(T, f), (const char *const[]){__VA_ARGS__, NULL}, 0, 0, why, NULL}
#define EM_CLI_CALL_AT(name, T, f, set) {name, EM_CLI_CALL, offsetof(T, f), NULL, 0, 0, NULL, set}
#define EM_CLI_END {NULL, 0, 0, NULL, 0, 0, NULL, NULL}
#define EM_CLI_OPEN0 0x1p-1074            /* the least double > 0: a range open at 0 */
#define EM_CLI_BELOW1 0x1.fffffffffffffp-1 /* the greatest double < 1: open at 1 */

typedef struct em_cli_spec {
    const char *cmd, *help;   /* "expmech probs", EM_HELP_probs (build/gen/cli_help.h) */
    const em_cli_opt *opts;
    int repeat, empty;        /* given twice: the last wins (else refused); "" is no value */
    /* a positional argument: -1 to go on, else an exit status; NULL: refused (unknown) */
    int (*arg)(void *dst, const char *cmd, const char *a);
    int (*unknown)(const struct em_cli_spec *sp, unsigned long long mask, const char *a);
} em_cli_spec;

/* argv[1..argc) by the options of sp whose bit (1 << index) is in mask, into dst; *given
 * gets the bit of each option given.  -1 to go on, else the exit status. */
int em_cli_options(const em_cli_spec *sp, unsigned long long mask, int argc, char **argv,
                   void *dst, unsigned long long *given);

/* "CMD: unknown WHAT 'A' (did you mean N?  see --help)" with the name of names[0..n)
 * nearest to A, else "(one of N1, ...; see --help)" (list) or "(see --help)"; exit 2. */
int em_cli_unknown(const char *cmd, const char *what, const char *a, size_t len,
                   const char *const *names, size_t n, int list);
size_t em_cli_names(const em_cli_spec *sp, unsigned long long mask, const char **names,
                    size_t cap);
/* The word nearest to w[0..wn) (edit distance <= 2, or w a prefix of it), or NULL. */
const char *em_cli_nearest(const char *w, size_t wn, const char *const *words, size_t n);

/* The oracle commands' options: one table (cli_util.c), each command allowing a set. */
enum { EO_EPSILON, EO_SENSITIVITY, EO_VARIANT, EO_DIGITS, EO_FORMAT, EO_SEED, EO_N, EO_ALPHA,
       EO_SAMPLES, EO_PROBS, EO_RTOL, EO_MIN_EXPECTED, EO_MC, EO_CDF, EO_ATOL, EO_AT, EO_GRID,
       EO_BETWEEN, EO_LOSS_AT, EO_FORCE, EO_SAMPLES_ARE, EO_EPSILON_LOG, EO_SAMPLER, EO_TIMING,
       EO_SPLIT, EO_DATA, EO_COLUMN, EO_GROUP_BY, EO_CANDIDATES, EO_FROM_DATA, EO_FUNCTION,
       EO_NEIGHBOURS, EO_FILE };
#define EM_OPT(k) (1ULL << (k))
#define EM_OPT_MECH (EM_OPT(EO_EPSILON) | EM_OPT(EO_SENSITIVITY) | EM_OPT(EO_VARIANT))
#define EM_CLI_SWEEP_REFUSED \
    "a sweep of epsilon applies to probs, sample, cdf, density, quantile, utility, groups"

typedef struct em_cli {
    const char *cmd;
    unsigned long long seen;           /* EM_OPT(EO_*) given */
    const char *eps_text, *delta_text; /* as given: the library reads them exactly */
    char **eps_all;                    /* every epsilon of a sweep (em_epsilon_sweep) */
    size_t eps_count;
    int variant, format, samples_are;  /* EM_*; format: the index of csv, json */
    uint64_t digits, seed, n, mc;
    double alpha, rtol, atol, min_expected;
    const char *cdf, *samples, *probs, *at, *grid, *between, *file;
    int force, sampler, timing;        /* sampler, timing: their word's index */
    const char *split, *data, *column, *group_by, *candidates, *function, *neighbours;
    int from_data;
    size_t sweep_i, sweep_n;           /* run sweep_i of sweep_n (0: no sweep) */
} em_cli;

void em_cli_free(em_cli *c);

/* Reading standard input from a terminal says so: a forgotten FILE otherwise looks hung. */
void em_cli_stdin_hint(const char *cmd, const char *path, const char *what);
__attribute__((format(printf, 2, 3))) int em_cli_usage(const char *cmd, const char *fmt, ...);
/* stdout flushed: EM_EXIT_OK, or 3 after "CMD: write error[ on standard output]" */
int em_cli_flush(const char *cmd, int on_stdout);

/* c for cmd with the options of `allowed` read, those of `required` given, not two inputs
 * from standard input: -1 to go on, else the exit status. */
int em_cli_begin(em_cli *c, const char *cmd, int argc, char **argv, unsigned long long allowed,
                 unsigned long long required, const char *help);

typedef int em_cli_run_fn(const em_cli *c, em_scn *s, em_mech *m, const void *ctx);
/* After em_cli_begin's rc: the scenario, then for each epsilon of the sweep its mechanism
 * and run() until one fails; the provenance line once; frees c.  The exit status. */
int em_cli_run(em_cli *c, int rc, em_cli_run_fn *run, const void *ctx);

/* A command over a scenario's mechanism: its options (--epsilon always required), what it
 * checks before the scenario (NULL, or -1 to go on), what it runs for each epsilon, and
 * whether it runs over one epsilon only (a sweep refused). */
typedef struct em_cli_cmd {
    unsigned long long allowed, required;
    int (*check)(em_cli *c);
    em_cli_run_fn *run;
    const void *ctx;
    int one_epsilon;
} em_cli_cmd;
/* argv[1..argc) as `cmd` by d (em_cli_begin, d->check, em_cli_run): the exit status. */
int em_cli_oracle(const char *cmd, const char *help, const em_cli_cmd *d, int argc, char **argv);

/* "CMD: [WHAT: ]MSG", the library's API names in msg (o->NAME, parameters) written as the
 * command line's options; em_cli_fail returns e->status's exit status (2: the caller's). */
void em_cli_note(const char *cmd, const char *what, const char *msg);
int em_cli_fail(const char *cmd, const char *what, const em_error *e);
/* After a writer to stdout: -1 when it wrote (a write error is main's to name), else
 * em_cli_fail's status. */
int em_cli_written(const char *cmd, int st, const em_error *e);
em_write_opts em_cli_write_opts(const em_cli *c);

#endif
