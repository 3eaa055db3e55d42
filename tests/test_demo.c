/* test_demo.c: the `expmech demo` command, run as a program (build/expmech, or
 * $EM_EXPMECH): the table (7 categories, probabilities against MPFR, summing to 1),
 * seeded determinism, the draws, and usage errors (exit 2, message on stderr). */
#include "em_check_main.h"
#include <fcntl.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#include "em_test_util.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const LABELS[EM_MARITAL_N] = {
    "Never-married", "Married-civ-spouse", "Divorced", "Married-spouse-absent",
    "Separated", "Married-AF-spouse", "Widowed"};

static const char *prog(void)
{
    const char *p = getenv("EM_EXPMECH");
    return p ? p : "build/expmech";
}

static char out[1 << 17], err[1 << 14];

static void slurp(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    ssize_t r;
    lseek(fd, 0, SEEK_SET);
    while (n < cap - 1 && (r = read(fd, buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = '\0';
}

/* Run `expmech demo ARGS...` (NULL-terminated); stdout and stderr into out/err;
   returns the exit status (-1 if it did not exit normally). */
static int run_demo(const char *arg, ...)
{
    const char *argv[16];
    int argc = 0;
    argv[argc++] = prog();
    argv[argc++] = "demo";
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a != NULL && argc < 15; a = va_arg(ap, const char *))
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;

    char fo[] = "/tmp/em_test_demo_out_XXXXXX", fe[] = "/tmp/em_test_demo_err_XXXXXX";
    int o = mkstemp(fo), e = mkstemp(fe);
    ck_assert(o >= 0 && e >= 0);
    unlink(fo);
    unlink(fe);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(o, 1);
        dup2(e, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
    slurp(o, out, sizeof out);
    slurp(e, err, sizeof err);
    close(o);
    close(e);
    ck_assert_msg(!(WIFEXITED(st) && WEXITSTATUS(st) == 127), "cannot run %s", argv[0]);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct row {
    char label[64];
    double count, utility, p, logp;
} row;

/* Parse the 7 table rows that follow the "category" header line. */
static void parse_table(row *rows)
{
    const char *h = strstr(out, "\ncategory");
    ck_assert_msg(h != NULL, "no table header in:\n%s", out);
    const char *line = strchr(h + 1, '\n');
    ck_assert(line != NULL);
    line++;
    for (int i = 0; i < EM_MARITAL_N; i++) {
        int used = 0;
        int k = sscanf(line, "%63s %lf %lf %lf %lf%n", rows[i].label, &rows[i].count, &rows[i].utility,
                       &rows[i].p, &rows[i].logp, &used);
        ck_assert_msg(k == 5, "table row %d unparsable: %.80s", i, line);
        line = strchr(line, '\n');
        ck_assert(line != NULL);
        line++;
    }
    /* the line after the 7th row is blank: exactly 7 categories */
    ck_assert_msg(*line == '\n', "more than 7 rows: %.80s", line);
}

START_TEST(table)
{
    ck_assert_int_eq(run_demo("--draws", "0", NULL), 0);
    ck_assert_str_eq(err, "");
    row r[EM_MARITAL_N];
    parse_table(r);
    const double counts[] = EM_MARITAL_COUNTS;
    double u[EM_MARITAL_N], sum = 0.0;
    for (int i = 0; i < EM_MARITAL_N; i++)
        u[i] = counts[i] / 1000.0;
    em_ref ref;
    ck_assert_int_eq(em_ref_compute(&ref, EM_MARITAL_N, u, 1.0, 1.0, EM_STANDARD), 0);
    for (int i = 0; i < EM_MARITAL_N; i++) {
        ck_assert_str_eq(r[i].label, LABELS[i]);
        ck_assert(r[i].count == counts[i]);
        ck_assert_double_eq_tol(r[i].utility, counts[i] / 1000.0, 5e-4);
        ck_assert_msg(r[i].p > 0.0 && r[i].p < 1.0 && r[i].logp < 0.0, "row %d", i);
        double ep = em_t_relerr(r[i].p, ref.p[i]), el = em_t_relerr(r[i].logp, ref.logp[i]);
        ck_assert_msg(ep <= 1e-12, "%s: p %.17g, relative error %.3g", LABELS[i], r[i].p, ep);
        ck_assert_msg(el <= 1e-12, "%s: logp %.17g, relative error %.3g", LABELS[i], r[i].logp, el);
        sum += r[i].p;
    }
    em_ref_free(&ref);
    ck_assert_msg(fabs(sum - 1.0) <= 1e-12, "probabilities sum to %.17g", sum);
    /* the mode is Married-civ-spouse */
    for (int i = 0; i < EM_MARITAL_N; i++)
        ck_assert(r[i].p <= r[1].p);
    ck_assert(strstr(out, "0 draws") != NULL);
}
END_TEST

/* The draw lines: "  LABEL" after the "N draws (...):" line. Returns how many. */
static int count_draw_lines(void)
{
    const char *d = strstr(out, " draws (");
    ck_assert(d != NULL);
    const char *line = strchr(d, '\n');
    ck_assert(line != NULL);
    line++;
    int k = 0;
    while (line[0] == ' ' && line[1] == ' ' && strncmp(line, "  ...", 5) != 0) {
        char lab[64];
        ck_assert(sscanf(line, "%63s", lab) == 1);
        int ok = 0;
        for (int i = 0; i < EM_MARITAL_N; i++)
            ok |= !strcmp(lab, LABELS[i]);
        ck_assert_msg(ok, "unknown draw label '%s'", lab);
        k++;
        line = strchr(line, '\n');
        if (line == NULL)
            break;
        line++;
    }
    return k;
}

START_TEST(default_run)
{
    ck_assert_int_eq(run_demo(NULL), 0);
    ck_assert_str_eq(err, "");
    row r[EM_MARITAL_N];
    parse_table(r);
    ck_assert(strstr(out, "10 draws (operating-system CSPRNG)") != NULL);
    ck_assert_int_eq(count_draw_lines(), 10);
}
END_TEST

START_TEST(seeded_deterministic)
{
    static char first[sizeof out];
    ck_assert_int_eq(run_demo("--seed", "1", NULL), 0);
    strcpy(first, out);
    ck_assert(strstr(out, "ChaCha20, explicit seed") != NULL);
    ck_assert_int_eq(count_draw_lines(), 10);
    ck_assert_int_eq(run_demo("--seed", "1", NULL), 0);
    ck_assert_str_eq(out, first);
    /* the option order does not matter */
    ck_assert_int_eq(run_demo("--draws", "10", "--seed", "1", NULL), 0);
    ck_assert_str_eq(out, first);
    /* 1000 draws: counts per category, summing to 1000, the same for the same seed
       and different for another seed */
    static char many[sizeof out];
    ck_assert_int_eq(run_demo("--seed", "7", "--draws", "1000", NULL), 0);
    strcpy(many, out);
    ck_assert_int_eq(count_draw_lines(), 20);
    const char *c = strstr(out, "counts over all 1000 draws:");
    ck_assert(c != NULL);
    c = strchr(c, '\n') + 1;
    long total = 0;
    for (int i = 0; i < EM_MARITAL_N; i++) {
        char lab[64];
        long n;
        ck_assert(sscanf(c, "%63s %ld", lab, &n) == 2);
        ck_assert_str_eq(lab, LABELS[i]);
        ck_assert(n >= 0 && n <= 1000);
        total += n;
        c = strchr(c, '\n') + 1;
    }
    ck_assert_int_eq(total, 1000);
    ck_assert_int_eq(run_demo("--seed", "7", "--draws", "1000", NULL), 0);
    ck_assert_str_eq(out, many);
    ck_assert_int_eq(run_demo("--seed", "8", "--draws", "1000", NULL), 0);
    ck_assert_str_ne(out, many);
}
END_TEST

START_TEST(bad_options)
{
    const char *bad[][3] = {
        {"--bogus", NULL, NULL},       {"--draws", NULL, NULL},        {"--seed", NULL, NULL},
        {"--draws", "-1", NULL},       {"--draws", "1000001", NULL},   {"--draws", "abc", NULL},
        {"--draws", "", NULL},         {"--draws", "5x", NULL},        {"--seed", "-1", NULL},
        {"--seed", "x", NULL},         {"--seed", "", NULL},           {"extra", NULL, NULL},
    };
    for (size_t k = 0; k < N_OF(bad); k++) {
        int st = run_demo(bad[k][0], bad[k][1], bad[k][2], NULL);
        ck_assert_msg(st == 2, "demo %s %s: exit %d", bad[k][0], bad[k][1] ? bad[k][1] : "", st);
        ck_assert_msg(strstr(err, "expmech demo") != NULL, "demo %s: stderr '%s'", bad[k][0], err);
        ck_assert_msg(out[0] == '\0', "demo %s: wrote to stdout", bad[k][0]);
    }
    /* the limits themselves are accepted */
    ck_assert_int_eq(run_demo("--draws", "0", "--seed", "0", NULL), 0);
    ck_assert_int_eq(run_demo("--seed", "18446744073709551615", "--draws", "1", NULL), 0);
    ck_assert_int_eq(count_draw_lines(), 1);
    ck_assert_int_eq(run_demo("--help", NULL), 0);
    ck_assert(strstr(out, "usage: expmech demo") != NULL);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("demo");
    TCase *tc = tcase_create("demo");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, table);
    tcase_add_test(tc, default_run);
    tcase_add_test(tc, seeded_deterministic);
    tcase_add_test(tc, bad_options);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
