/* em_conform.h: the conformance suite.  Another implementation's sampler is run on every
 * case of a battery (the files of conformance/cases/, schema expmech-conformance-1, documented in
 * conformance/README.md), its draws are judged against each case's exact law, and the draws
 * of a rejected case are tested against the laws of known mistakes, so that a reject names
 * the bug ("the draws fit exp(eps u / Delta): the factor 1/2 is missing").
 *
 * Conventions: those of em_scn.h.  Everything comes back as data (cases, verdicts,
 * diagnoses); em_write only formats that data.
 */
#ifndef EM_CONFORM_H
#define EM_CONFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "em_scn.h"
#include "em_judge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ kinds */

#define EM_KIND_FINITE 0     /* labels and exact utilities (standard or monotone) */
#define EM_KIND_WEIGHTED 1   /* the same with a base measure: P(r) ~ m_r exp(c u_r) */
#define EM_KIND_PF 2         /* permute-and-flip over finite candidates */
#define EM_KIND_CONTINUOUS 3 /* pieces lo, hi with u = a + b r */
#define EM_KIND_QUANTILE 4   /* raw data, alpha, bounds: the EM over the gaps between the
                                sorted data (clipped to the bounds), utility -|i - alpha n|,
                                Delta 1, the gap's length as base measure, then uniform inside
                                (diffprivlib's convention) */
#define EM_KIND_LAPLACE 5    /* f and Delta_f: u = -|f - r| on the real line */
#define EM_KIND_COUNT 6

/* Their names (em_conform_name): "finite", "weighted", "pf", "continuous", "quantile",
 * "laplace". */

/* --------------------------------------------------------------- mistakes */
/* Known mistakes of implementations, each a law that can be computed for a case. */

#define EM_MISTAKE_EPS_NOT_HALVED 0    /* exp(eps u / Delta) on a score not declared monotone */
#define EM_MISTAKE_EPS_DOUBLED 1       /* the mechanism at 2 eps */
#define EM_MISTAKE_DELTA_IGNORED 2     /* Delta taken as 1 */
#define EM_MISTAKE_MEASURE_IGNORED 3   /* the base measure (interval lengths) dropped */
#define EM_MISTAKE_PF_FOR_EM 4         /* permute-and-flip where the EM was asked */
#define EM_MISTAKE_EM_FOR_PF 5         /* the EM where permute-and-flip was asked */
#define EM_MISTAKE_NEGATED 6           /* utilities negated: exp(-c u), argmin */
#define EM_MISTAKE_UNIFORM 7           /* utilities ignored (exclusions too) */
#define EM_MISTAKE_ARGMAX 8            /* no noise: the best output every time */
#define EM_MISTAKE_LAPLACE_SCALE 9     /* Laplace with scale Delta_f/eps, not 2 Delta_f/eps */
#define EM_MISTAKE_UNIFORM_IN_PIECES 10 /* each piece's mass right, uniform inside it */
#define EM_MISTAKE_COUNT 11

/* Their names (em_conform_name): identifiers, "eps_not_halved", ... */


/* -------------------------------------------------------------- diagnosis */

/* A draw fits a mistake's law when the G-test of the draws under that law has p >= this. */
#define EM_DIAGNOSIS_FIT 1.0e-3

typedef struct em_diagnosis_row {
    int mistake;           /* EM_MISTAKE_* */
    double p_value;        /* G-test of the draws under the mistake's law (cells pooled to
                              >= 5 expected under it); 0 when a draw is impossible under it */
    double statistic;      /* G */
    size_t df;
    double loglik;         /* log-likelihood of the observed cells under the law (-inf when
                              a draw is impossible under it) */
    int fits;              /* p_value >= EM_DIAGNOSIS_FIT */
    int same_law_as;       /* an earlier row's mistake with the identical law here, or -1 */
} em_diagnosis_row;

typedef struct em_diagnosis {
    size_t nrows;
    em_diagnosis_row *rows;  /* every mistake whose law differs from the exact one here, in
                                EM_MISTAKE_* order */
    int best;                /* the fitting mistake of largest likelihood, or -1 */
    double best_p;           /* its p_value (NAN when none) */
    unsigned long same;      /* bit m set: mistake m has the best's law here (best's own
                                bit included) */
    int closest;             /* when none fits: the mistake of largest likelihood, or -1 */
    char *sentence;          /* "the draws fit exp(ε·u/Δ): the factor 1/2 is missing (p = 0.41
                                under that law)", or that none of the known mistakes fits */
} em_diagnosis;

/* ------------------------------------------------------------------ cases */

/* One case of the battery.  Returned by em_case_new (owned by the library: em_free); a
 * caller making one from its inputs fills only those (marked "in"). */
typedef struct em_case {
    const char *file;                  /* the file read, or NULL */
    const char *id, *title;            /* in */
    int kind;                          /* in: EM_KIND_* */
    int expect_error;                  /* in: 1 when a correct sampler must refuse the case */
    const char *error;                 /* why it must (the library's refusal) */
    const char *epsilon, *sensitivity; /* in: exact texts (may be invalid when expect_error) */
    int variant;                       /* in: EM_STANDARD, EM_MONOTONE, EM_PF (kind pf) */
    /* finite, weighted, pf (in) */
    size_t n;
    const char *const *labels;         /* n labels (NULL in: "0", ..., "n-1") */
    const char *const *utilities;      /* n exact texts, "-inf": excluded */
    const char *const *measure;        /* weighted: n exact texts >= 0; else NULL */
    /* continuous (in), and the derived pieces of quantile and laplace */
    size_t npieces;
    const char *const *lo, *const *hi, *const *a, *const *b;
    /* quantile (in) */
    size_t ndata;
    const char *const *data;
    const char *alpha, *bound_lo, *bound_hi;
    /* laplace (in); its Delta_f is sensitivity */
    const char *f;
    /* the mistakes this case exposes: each detected with power >= 0.99 within
       catches_draws[k] draws at the level of the battery it was made for */
    size_t ncatches;
    const int *catches;
    const uint64_t *catches_draws;
    /* the exact law, correctly rounded to `digits` significant digits */
    int digits;
    const char *const *probability;    /* finite kinds: n */
    const char *const *mass;           /* continuous kinds: npieces, P(piece) */
    size_t ncdf;
    const char *const *cdf_x, *const *cdf;   /* the CDF at ncdf points */
    size_t nedges;
    const char *const *edges;          /* the 19 inner edges Q(k/20) of the equal-mass bins */
    int quick;                         /* in: one of the quick cases (em_conform_opts.quick) */
} em_case;

/* A case, made or read: set one of def (with alpha, max_draws), path or text (with len,
 * name); the fields of the other forms stay NULL (and 0).
 *  - def: a case from its inputs (the fields marked "in"): the pieces of a quantile or
 *    laplace case, the law at 40 digits, and the mistakes it catches with the draws each
 *    needs (power 0.99 at level alpha per case, within max_draws); an expect_error case
 *    must be refused by the library, whose message becomes c->error.  Errors: EM_ERR_PARSE
 *    (a number), EM_ERR_DOMAIN (an input that does not make the kind, an expect_error case
 *    the library accepts, a law case it refuses: the message says which), the law's errors.
 *  - path: a case file (schema expmech-conformance-1), c->file its path; text: the same
 *    from text[0..len) (text may be NULL when len is 0), name used in messages (NULL:
 *    "<case>").  Messages "NAME: ..." name the file and the member.  Errors: EM_ERR_PARSE
 *    (not JSON, not the schema, a member missing or of the wrong type, a label that is not
 *    a non-empty line of UTF-8, a file that cannot be read).
 * Besides: EM_ERR_NULL, EM_ERR_DOMAIN (no form, two forms), EM_ERR_NOMEM. */
typedef struct em_case_spec {
    const em_case *def;     /* a case from its inputs ... */
    double alpha;
    uint64_t max_draws;
    const char *path;       /* ... or a case file ... */
    const char *text;       /* ... or its text */
    size_t len;
    const char *name;
} em_case_spec;

EM_API int em_case_new(const em_case_spec *spec, em_case **out, em_error *err);
/* em_write (em_scn.h) of a case: the case as JSON (what em_case_new reads back), the same
 * bytes for the same case (the options are not read). */
/* The scenario and mechanism of the case's law (expect_error cases: the library's refusal
 * as the error).  Free both (mechanism first). */
EM_API int em_case_mech(const em_case *c, em_scn **s, em_mech **m, em_error *err);

/* --------------------------------------------------------- running a suite */

/* What one run of a sampler gave (filled by an em_sampler_fn). */
#define EM_RUN_EXITED 0      /* code: the exit status */
#define EM_RUN_SIGNALED 1    /* code: the signal */
#define EM_RUN_TIMEOUT 2     /* killed at the deadline */
#define EM_RUN_NOT_STARTED 3 /* code: errno of the start (a missing program) */
#define EM_RUN_FLOOD 4       /* killed: more output than the caps (lines or bytes) */
#define EM_RUN_EXCEPTION 5   /* an in-process sampler raised (the message in err) */

#define EM_EXIT_SKIP 77      /* a sampler's exit status: "I do not do this kind" */

/* out and err are malloc(3)'d, NUL-terminated after their len bytes, and freed by the
 * library with free(3): an in-process sampler (a binding) hands its output over by
 * malloc'ing them with the C library the library is linked with. */
typedef struct em_run_output {
    int how;               /* EM_RUN_* */
    int code;
    char *out;             /* standard output (up to the caps) */
    size_t out_len;
    char *err;             /* the end of standard error */
    size_t err_len;
    double seconds;        /* wall time of the run */
} em_run_output;

/* A sampler: n draws for case c (its file c->file) with seed, into *o (zeroed by the
 * caller; out and err freed by the library).  max_bytes: the most output the harness will
 * read.  Returns EM_OK, or an error that stops the whole run. */
typedef int em_sampler_fn(void *ctx, const em_case *c, uint64_t n, uint64_t seed,
                          uint64_t max_bytes, em_run_output *o);

/* Verdicts of a case. */
#define EM_CONFORM_PASS 0          /* p >= alpha, with power >= 0.99 against every mistake
                                      the case catches (expect_error: refused) */
#define EM_CONFORM_REJECT 1        /* p < alpha */
#define EM_CONFORM_IMPOSSIBLE 2    /* a draw of probability 0 */
#define EM_CONFORM_CRASH 3         /* a non-zero exit (not 77), a signal, not started */
#define EM_CONFORM_TIMEOUT 4
#define EM_CONFORM_MALFORMED 5     /* too few or too many lines, an unknown label, not a
                                      number, binary output, a flood */
#define EM_CONFORM_ACCEPTED_INVALID 6 /* draws printed for an expect_error case */
#define EM_CONFORM_SKIPPED 7       /* exit 77 */
#define EM_CONFORM_UNDECIDED 8     /* not rejected, but too little power at max_draws */
#define EM_CONFORM_BAD_CASE 9      /* the case file is malformed (not the sampler's fault) */
#define EM_CONFORM_NVERDICTS 10

/* Their names (em_conform_name): "pass", "reject", "impossible draw", "crash", "timeout",
 * "malformed output", "accepted invalid input", "skipped", "undecided", "bad case file". */

/* The names of the suite's codes, in table EM_NAME_KIND (EM_KIND_*), EM_NAME_MISTAKE
 * (EM_MISTAKE_*) or EM_NAME_VERDICT (EM_CONFORM_*): the name of value (a static string),
 * NULL when the table or the value is unknown.  A table's codes are 0, 1, ... up to the
 * first NULL, so a name's code is the v whose name it is. */
#define EM_NAME_KIND 0
#define EM_NAME_MISTAKE 1
#define EM_NAME_VERDICT 2
EM_API const char *em_conform_name(int table, int value);

struct em_conform_case;

typedef struct em_conform_opts {
    const char *cases;     /* a directory of *.json case files (read in name order), or one
                              case file (required) */
    unsigned kinds;        /* bit (1u << EM_KIND_*) per kind to run; 0: every kind */
    int quick;             /* the quick cases only (em_case.quick), one run of 10^4 draws
                              each */
    uint64_t max_draws;    /* 0: 10^6.  Runs of 10^4, 10^5, ... draws up to it */
    double timeout;        /* seconds per sampler run; 0: 600 */
    uint64_t seed;         /* the runs' seeds derive from it and the case id (default 1) */
    double alpha;          /* the suite's level (a correct sampler fails with probability at
                              most this); 0: 10^-6 */
    /* called after each case (may be NULL) */
    void (*progress)(void *ctx, size_t i, size_t n, const struct em_conform_case *r);
    void *progress_ctx;
} em_conform_opts;

#define EM_CONFORM_OPTS_INIT {NULL, 0, 0, 0, 0, 1, 0, NULL, NULL}

typedef struct em_conform_case {
    const char *id, *title, *file;
    int kind;              /* -1 when the file could not be read */
    int expect_error;
    int verdict;           /* EM_CONFORM_* */
    uint64_t n;            /* draws judged at the last run (0: none) */
    uint64_t seed;         /* the last run's seed */
    int runs;              /* sampler runs */
    double p_value;        /* the smallest p of the last run's tests (NAN: none) */
    double alpha;          /* the level of each test of each run */
    double power;          /* the smallest power against the mistakes the case catches at
                              n (NAN: none judged; 1 when it catches none) */
    int weakest;           /* that mistake, or -1 */
    unsigned long ruled_out; /* bit m: the draws passed a test with power >= 0.99 against m */
    char *message;         /* one line on what happened ("" for a plain pass) */
    char *stderr_tail;     /* the sampler's last lines of standard error ("" none) */
    em_check_result *check;/* the last run's check (NULL when no draws were judged) */
    const em_diagnosis *diagnosis; /* on a reject or impossible draw: check->diagnosis */
    double sampler_seconds, harness_seconds;  /* wall time */
    double harness_cpu_seconds; /* CPU time of this process on the case: the harness's own
                                   when the sampler is a program (em_conform_command) */
} em_conform_case;

typedef struct em_conform_result {
    size_t ncases;
    em_conform_case *cases;
    size_t count[EM_CONFORM_NVERDICTS];
    size_t failed;         /* reject, impossible, crash, timeout, malformed, accepted invalid */
    double alpha;          /* the suite's level */
    double alpha_case;     /* alpha / cases run */
    int max_runs;          /* runs per case at most (10^4 ... max_draws) */
    int quick;
    uint64_t max_draws, seed;
    int exit_status;       /* 0 every case run passed, 1 some failed, 4 none failed but some
                              undecided, 2 a bad case file and nothing failed */
    unsigned long suspects;/* bit m: mistake m fits every failed case that has draws and no
                              passing case ruled it out */
    char *diagnosis;       /* the suspects in words, or "" */
    char *summary;         /* one line */
    double seconds, sampler_seconds;
} em_conform_result;

/* Runs the suite with a sampler function.  Errors (the whole run): EM_ERR_NULL,
 * EM_ERR_DOMAIN (options; no case file at o->cases), EM_ERR_NOMEM, and a sampler
 * function's error.  A malformed case file, or anything a sampler does, is a verdict. */
EM_API int em_conform_run(const em_conform_opts *o, em_sampler_fn *fn, void *ctx,
                          em_conform_result **out, em_error *err);

/* Runs the suite with a program: for each case `ARGV... CASE.json N SEED`, started with
 * posix_spawnp (no shell; argv[0] found on PATH), standard input /dev/null, its standard
 * output read through a pipe with a deadline (o->timeout) and caps (N + 1 lines, and
 * bytes), its standard error's end kept; the program and its process group are killed at
 * the deadline or a cap. */
EM_API int em_conform_command(const em_conform_opts *o, const char *const *argv,
                              em_conform_result **out, em_error *err);

/* Splits a command line into words as a shell would without expanding anything: blanks
 * separate words, '...' and "..." quote (\" \\ inside "..."), a backslash outside quotes
 * escapes the next byte.  *argv: a NULL-terminated array (em_free frees it and its strings).
 * Errors: EM_ERR_NULL, EM_ERR_PARSE (an unclosed quote, no word), EM_ERR_NOMEM. */
EM_API int em_command_split(const char *line, char ***argv, em_error *err);

/* DIR/ID.svg for each case of r rejected or with an impossible draw: its expected and
 * observed counts per cell as bars (em_plot_write: gnuplot); dir is made when missing.  Every
 * figure is tried.  Errors: EM_ERR_NULL, EM_ERR_DOMAIN ("no figure for ID": the first that
 * could not be written or drawn). */
EM_API int em_conform_figures(const em_conform_result *r, const char *dir, em_error *err);

/* em_write (em_scn.h) writes r: EM_WRITE_TEXT as a table (case, kind, verdict, N, p,
 * diagnosis: one row a case, messages and the sampler's stderr below a failed row), then
 * the summary line; EM_WRITE_JSON everything in r (schema expmech-conformance-report-1). */

#ifdef __cplusplus
}
#endif
#endif
