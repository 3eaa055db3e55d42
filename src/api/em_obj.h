/* em_obj.h: what the library hands a caller (an object, a string, an array of strings)
 * carries a header ahead of the pointer that says how it is freed, so that the one em_free
 * (em_scn.h) frees any of them.  Never installed. */
#ifndef EM_OBJ_H
#define EM_OBJ_H

#include <stddef.h>
#include <stdio.h>

#include "em_conform.h"
#include "em_groups.h"
#include "em_judge.h"
#include "em_law.h"
#include "em_scoring.h"

/* A zeroed block of size bytes that em_free frees with destroy (its members, then
 * em_obj_release; NULL: a string or a block without pointers of its own, released as it
 * is), or NULL when out of memory. */
void *em_obj_new(size_t size, void (*destroy)(void *));

/* A zeroed array of n string pointers that em_free frees with the strings (malloc'd, NULL
 * harmless), or NULL when out of memory. */
char **em_obj_strv(size_t n);

/* How em_write (em_scn.h) writes the block p: write(f, p, ctx, o, err), ctx the two
 * pointers given here (what the object was computed over: its mechanisms, its groups). */
typedef int em_obj_write_fn(FILE *f, const void *obj, const void *const *ctx,
                            const em_write_opts *o, em_error *err);
void em_obj_writer(void *p, em_obj_write_fn *write, const void *ctx0, const void *ctx1);

/* The opening checks of a public function that hands out an object through out: EM_OK, or
 * EM_ERR_NULL "fn: out is NULL" when out is NULL, "fn: INPUTS NULL" when inputs_ok is false.
 * *out is cleared before the inputs are looked at, so that every failure leaves it NULL. */
#define EM_OUT_OPEN(fn, out, inputs_ok, inputs, err)                                         \
    (!(out) ? em_err(err, EM_ERR_NULL, "%s: out is NULL", fn)                                \
            : (*(out) = NULL,                                                                \
               (inputs_ok) ? EM_OK : em_err(err, EM_ERR_NULL, "%s: %s NULL", fn, inputs)))

/* The block of em_obj_new or em_obj_strv freed, not what its members point to (NULL is
 * harmless). */
void em_obj_release(void *p);

/* *s (a malloc'd string, or NULL) replaced by a copy em_free frees: 1, or 0 when out of
 * memory (*s is then freed and NULL). */
int em_obj_string(char **s);

/* em_obj_string on each of the k strings *v[0..k) after a call that returned st: st, or
 * EM_ERR_NOMEM (every string freed, each *v[i] NULL, err set) when a copy fails.  The
 * exit of every public function that returns strings. */
int em_obj_strings(int st, em_error *err, size_t k, char **const *v);
#define EM_OBJ_STRINGS(st, err, ...) \
    em_obj_strings(st, err, sizeof((char **const[]){__VA_ARGS__}) / sizeof(char **), \
                   (char **const[]){__VA_ARGS__})

/* em_law_at's CDF and quantile, and the public em_scn_utility and em_num_grid_point, without
 * EM_OBJ_STRINGS: malloc'd strings, for the library's own code that keeps them among its own
 * (free(3)). */
int em_cdf_plain(em_mech *m, const char *x, char **out, em_error *err);
int em_quantile_plain(em_mech *m, const char *p, char **out, em_error *err);
int em_scn_utility_plain(const em_scn *s, size_t i, char **text, em_error *err);
int em_num_grid_point_plain(em_mech *m, const char *lo, const char *hi, uint64_t n,
                            uint64_t i, char **exact, char **shown, em_error *err);

/* The writers em_write runs, with the context passed explicitly (tests call them on results
 * made by hand); their messages name em_write.  em_groups_report_write's g: the groups r
 * was computed over; split as given to em_groups_analyse. */
int em_audit_result_write(FILE *f, const em_audit_result *r, const em_mech *x,
                          const em_mech *y, const em_write_opts *o, em_error *err);
int em_check_result_write(FILE *f, const em_check_result *r, const em_mech *m,
                          const em_write_opts *o, em_error *err);
int em_compare_result_write(FILE *f, const em_compare_result *r, const em_mech *m,
                            const em_write_opts *o, em_error *err);
int em_groups_report_write(FILE *f, const em_groups *g, const em_groups_report *r,
                           const char *split, const em_write_opts *o, em_error *err);
int em_groups_report_write_info(FILE *f, const em_groups_info *g, const em_groups_report *r,
                                const char *split, const em_write_opts *o, em_error *err);
int em_scoring_write(FILE *f, const em_scoring *r, em_error *err);
/* What em_probs_get needs, computed once (em_law.h: the law's errors), so that a failure
 * of the whole computation is told apart from one candidate's. */
int em_probs_prepare(em_mech *m, em_error *err);

/* em_write of a mechanism: its law, as expmech probs writes it (em_mech.h) */
int em_mech_write(FILE *f, const void *obj, const void *const *ctx, const em_write_opts *o,
                  em_error *err);
int em_case_write(const em_case *c, FILE *f, em_error *err);

/* The utility report of expmech utility from its parts (em_write of an em_utility result
 * makes one; the tests make them by hand): em_utility's moments with, where computed, the
 * bound on the expected loss (NULL: none, as for a continuous scenario), the loss tails at
 * nt thresholds with their bounds, and a Monte Carlo estimate (mc_n 0: none).  The strings
 * are the caller's. */
typedef struct em_utility_report {
    const em_utility_result *result;
    const char *expected_loss_bound;
    size_t nt;
    const char *const *t;          /* the thresholds as given */
    const char *const *p_loss_gt;  /* P(loss > t) at each */
    const char *const *p_bound;    /* the theorem's bound on it at each; NULL (or an entry
                                      NULL): none */
    uint64_t mc_n;
    double mc_mean, mc_se;         /* the Monte Carlo estimate */
} em_utility_report;

/* u written for m as expmech utility writes it: EM_WRITE_CSV (the header line at the first
 * run, then one row) or EM_WRITE_JSON (one object; a sweep: a list of them).  Errors:
 * EM_ERR_NULL, EM_ERR_DOMAIN (EM_WRITE_TEXT or an unknown format, a sweep_i beyond
 * sweep_n, writing to f failed). */
int em_utility_report_write(FILE *f, const em_utility_report *u, const em_mech *m,
                            const em_write_opts *o, em_error *err);

/* em_write of a conformance suite's result (em_conform_run, em_conform_command):
 * EM_WRITE_TEXT a table, EM_WRITE_JSON everything in it (schema
 * expmech-conformance-report-1). */
int em_conform_result_write(FILE *f, const void *obj, const void *const *ctx,
                            const em_write_opts *o, em_error *err);

/* Point i of the grid lo + i (hi - lo) / (n - 1), i < n (n = 1: lo, which must equal hi):
 * *exact is its exact text (for em_law_at), *shown what to print (both for
 * em_free): the exact decimal when it has at most 20 digits, else its correct rounding to
 * m's digits. m is a continuous mechanism; shown may be NULL, and then m too (no rounding).
 * Errors: EM_ERR_NULL, EM_ERR_PARSE, EM_ERR_DOMAIN (n = 0, i >= n, lo > hi, n = 1 with lo
 * != hi, a finite m), the law's errors, EM_ERR_NOMEM. */
int em_num_grid_point(em_mech *m, const char *lo, const char *hi, uint64_t n,
                      uint64_t i, char **exact, char **shown, em_error *err);

/* A scenario's destroy function (em_free runs it; em_scn.c, em_binary.c and em_scoring.c
 * make scenarios): the members freed, then em_obj_release.  The other objects' are their
 * units' own; the library frees every object through em_free. */
void em_scn_destroy(void *obj);

#endif
