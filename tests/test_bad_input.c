/* test_bad_input.c: every command against every kind of bad (or odd but valid) input,
 * table-driven.  A rejected input must give exit 2, a message naming the file
 * and, where the problem is on a line, the line ("FILE:LINE: ..."), and NOTHING on
 * standard output (a header printed before the failure would be read as a result).  An
 * accepted input is accepted for a reason written in the table, and the command runs to
 * its normal end.
 *
 * The commands reading a scenario take it as FILE; `check`, `compare` and `audit` also
 * read a second file (draws, probabilities), tested with the same rows.  `demo`,
 * `example` and `score` (its owner tests its data files) take the option rows only. */
#include "em_check_main.h"
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_CLI_OUT_SIZE (1 << 20)
#include "em_cli_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_bad_input_XXXXXX");
}

/* expected outcome of a row */
enum { REJ_LINE, /* exit 2, "FILE:LINE:" in the message, empty stdout */
       REJ_FILE, /* exit 2, "FILE:" in the message (no line: the whole file), empty stdout */
       ACCEPT    /* parsed: the command runs to its verdict (see accept_ok) */ };

typedef struct row {
    const char *id;
    const char *fin;       /* finite scenario (labels a, b) */
    size_t fin_len;        /* 0: strlen */
    const char *cont;      /* continuous scenario */
    size_t cont_len;
    int expect;
    unsigned long line;    /* for REJ_LINE: the line named (finite; continuous is line + 1) */
    const char *why;
} row;

#define S(x) x, sizeof(x) - 1

static char long_fin[100100], long_cont[100100];

static row rows[] = {
    {"empty", S(""), S(""), REJ_FILE, 0, "no candidates / no pieces"},
    {"only comments", S("# one\n# two\n"), S("# output: continuous\n# nothing\n"), REJ_FILE, 0,
     "no candidates / no pieces"},
    {"NaN", S("a,nan\nb,0\n"), S("# output: continuous\n0,1,nan\n"), REJ_LINE, 1,
     "NaN is not a number"},
    {"inf", S("a,inf\nb,0\n"), S("# output: continuous\n0,1,inf\n"), REJ_LINE, 1,
     "+inf utility: only -inf (excluded) exists; a piece's coefficient must be finite"},
    {"-0", S("a,-0\nb,0\n"), S("# output: continuous\n-0,1,-0\n"), ACCEPT, 0,
     "-0 is the rational 0: exact inputs have no signed zero"},
    {"10^400", S("a,1e400\nb,0\n"), S("# output: continuous\n0,1,1e400\n"), ACCEPT, 0,
     "an exact rational: every oracle takes it (a double could not, the float sampler refuses it)"},
    {"10^-400", S("a,1e-400\nb,0\n"), S("# output: continuous\n0,1,1e-400\n"), ACCEPT, 0,
     "an exact rational, not zero"},
    {"non-UTF-8", S("a\xff,1\nb,0\n"), S("# output: continuous\n0,1,0\xff\n"), REJ_LINE, 1,
     "labels are UTF-8 text"},
    {"BOM", S("\xEF\xBB\xBF" "a,1\nb,0\n"), S("\xEF\xBB\xBF# output: continuous\n0,1,0\n"), ACCEPT,
     0, "a UTF-8 byte-order mark at the start is what some editors write"},
    {"CRLF", S("a,1\r\nb,0\r\n"), S("# output: continuous\r\n0,1,0\r\n"), ACCEPT, 0,
     "Windows line ends"},
    {"NUL", S("a\0,1\nb,0\n"), S("# output: continuous\n0,1,0\0\n"), REJ_LINE, 1,
     "a NUL byte would cut a label short"},
    {"10^5-character line", NULL, 0, NULL, 0, REJ_LINE, 2, "longer than the 4096-byte limit"},
    {"duplicate label", S("a,1\na,0\n"), S("# output: continuous\n0,1,0\n0,1,0\n"), REJ_LINE, 2,
     "a label twice / overlapping pieces"},
    {"missing value", S("a,\nb,0\n"), S("# output: continuous\n0,1,\n"), REJ_LINE, 1,
     "a utility (a piece's a) is required"},
};

typedef struct command {
    const char *name;
    const char *fmt;  /* %s: the scenario file */
    int cont;         /* takes the continuous scenario */
} command;

static const command cmds[] = {
    {"probs", "$E probs --epsilon 1 %s", 0},
    {"sample", "$E sample --epsilon 1 --seed 1 -n 3 %s", 0},
    {"check", "$E check --epsilon 1 --samples d.txt %s", 0},
    {"compare", "$E compare --epsilon 1 --probs p.txt %s", 0},
    {"audit", "$E audit --epsilon 1 %s %s", 0},
    {"utility", "$E utility --epsilon 1 %s", 0},
    {"cdf", "$E cdf --epsilon 1 --at 0.5 %s", 1},
    {"density", "$E density --epsilon 1 --at 0.5 %s", 1},
    {"quantile", "$E quantile --epsilon 1 --at 0.5 %s", 1},
};

/* "$E CMD ARGS --candidates c.txt" refused: exit 2, nothing on standard output, and a
   message from "expmech NAME: " holding msg */
static void refused_rows(const char *cmd, const char *args, const char *name, const char *msg)
{
    int st = run("$E %s %s --candidates c.txt", cmd, args);
    ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", args, st, out);
    ck_assert_msg(strstr(errtxt, name) && strstr(errtxt, msg), "%s: %s", args, errtxt);
}

static void put_bytes(const char *name, const char *p, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    ck_assert_uint_eq(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void long_rows(void)
{
    /* line 2 of 100 000 characters */
    strcpy(long_fin, "a,1\n");
    memset(long_fin + 4, 'b', 100000);
    strcpy(long_fin + 100004, ",0\n");
    strcpy(long_cont, "# output: continuous\n0,1,0\n1,2,0");
    size_t k = strlen(long_cont);
    memset(long_cont + k, ' ', 100000);
    strcpy(long_cont + k + 100000, "\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!rows[i].fin) {
            rows[i].fin = long_fin;
            rows[i].fin_len = strlen(long_fin);
            rows[i].cont = long_cont;
            rows[i].cont_len = strlen(long_cont);
        }
}

/* an accepted scenario: the normal end of each command */
static void accept_ok(const command *c, const row *r, int st)
{
    /* utility of 10^400 vs 0: the weight ratio exp(-5e399) is past the weighted oracle's
     * exponent range (exp(-3e18)): exit 3 with that reason, a documented limit, not bad
     * input */
    if (!strcmp(c->name, "utility") && !strcmp(r->id, "10^400")) {
        ck_assert_msg(st == 3 && strstr(errtxt, "outside"), "utility 10^400: exit %d: %s", st, errtxt);
        return;
    }
    /* check: two draws are too few to test (4), or, with 10^400, the draw of b whose
     * probability is 0 in double is a support violation (1); compare: a verdict on the
     * given 0.5, 0.5 (0 or 1) */
    int ok = !strcmp(c->name, "check") ? (st == 4 || (st == 1 && !strcmp(r->id, "10^400")))
             : !strcmp(c->name, "compare") ? (st == 0 || st == 1)
                                           : st == 0;
    ck_assert_msg(ok, "%s on '%s' (%s): exit %d: %s", c->name, r->id, r->why, st, errtxt);
    ck_assert_msg(out[0] != 0, "%s on '%s': accepted but wrote nothing", c->name, r->id);
}

static void rejected(const char *what, const char *file, int expect, unsigned long line, int st)
{
    ck_assert_msg(st == 2, "%s: exit %d (expected 2): %s", what, st, errtxt);
    ck_assert_msg(out[0] == 0, "%s: rejected, but wrote to standard output: '%.200s'", what, out);
    char want[128];
    if (expect == REJ_LINE)
        snprintf(want, sizeof want, "%s:%lu: ", file, line);
    else
        snprintf(want, sizeof want, "%s: ", file);
    ck_assert_msg(strstr(errtxt, want) != NULL, "%s: message lacks '%s': %s", what, want, errtxt);
}

START_TEST(scenario_rows)
{
    long_rows();
    put("d.txt", "a\nb\n");
    put("p.txt", "0.5\n0.5\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        put_bytes("in.csv", r->fin, r->fin_len);
        put_bytes("in.cont", r->cont, r->cont_len);
        for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
            const command *c = &cmds[k];
            const char *f = c->cont ? "in.cont" : "in.csv";
            char what[160];
            snprintf(what, sizeof what, "%s on '%s' (%s)", c->name, r->id, r->why);
            int st = run(c->fmt, f, f);
            if (r->expect == ACCEPT)
                accept_ok(c, r, st);
            else
                rejected(what, f, r->expect, r->line + (c->cont ? 1 : 0), st);
        }
    }
}
END_TEST

/* The second files: draws (check, audit) and probabilities (compare), same rows. */
typedef struct row2 {
    const char *id;
    const char *draws;
    size_t draws_len;
    int draws_expect;
    unsigned long draws_line;
    const char *probs;
    size_t probs_len;
    int probs_expect;
    unsigned long probs_line;
    const char *why;
} row2;

static const row2 rows2[] = {
    {"empty", S(""), REJ_FILE, 0, S(""), REJ_FILE, 0, "no draws / no probabilities"},
    {"only comments", S("# x\n"), REJ_FILE, 0, S("# x\n"), REJ_FILE, 0, "the same"},
    {"NaN", S("nan\nb\n"), REJ_LINE, 1, S("nan\n0.5\n"), ACCEPT, 0,
     "no label 'nan'; a NaN probability is a value to judge (it fails)"},
    {"inf", S("inf\nb\n"), REJ_LINE, 1, S("inf\n0.5\n"), ACCEPT, 0, "the same for inf"},
    {"-0", S("-0\nb\n"), REJ_LINE, 1, S("-0\n1\n"), ACCEPT, 0,
     "no label '-0' (and not an index: digits only); -0 is the probability 0"},
    {"10^400", S("1e400\nb\n"), REJ_LINE, 1, S("1e400\n0\n"), ACCEPT, 0,
     "no such label; an exact probability above 1 (it fails)"},
    {"10^-400", S("1e-400\nb\n"), REJ_LINE, 1, S("1e-400\n1\n"), ACCEPT, 0,
     "no such label; an exact probability"},
    {"non-UTF-8", S("a\xff\nb\n"), REJ_LINE, 1, S("0.5\xff\n0.5\n"), REJ_LINE, 1, "text is UTF-8"},
    {"BOM", S("\xEF\xBB\xBF" "a\nb\n"), ACCEPT, 0, S("\xEF\xBB\xBF" "0.5\n0.5\n"), ACCEPT, 0,
     "a byte-order mark at the start"},
    {"CRLF", S("a\r\nb\r\n"), ACCEPT, 0, S("0.5\r\n0.5\r\n"), ACCEPT, 0, "Windows line ends"},
    {"NUL", S("a\0\nb\n"), REJ_LINE, 1, S("0.5\0\n0.5\n"), REJ_LINE, 1, "a NUL byte"},
    {"duplicate label", S("a\na\n"), ACCEPT, 0, S("a,0.5\na,0.5\n"), REJ_LINE, 2,
     "the same draw twice is two draws; a second probability for a label is an error"},
    {"missing value", S("a\n\nb\n"), ACCEPT, 0, S("a,\nb,0.5\n"), REJ_LINE, 1,
     "a blank line between draws is skipped; 'a,' has no probability"},
};

START_TEST(second_file_rows)
{
    put("x.csv", "a,1\nb,0\n");
    put("g.txt", "a\nb\n");
    static char longd[100010], longp[100010];
    for (size_t i = 0; i < sizeof rows2 / sizeof rows2[0] + 1; i++) {
        row2 r;
        if (i < sizeof rows2 / sizeof rows2[0]) {
            r = rows2[i];
        } else { /* a 10^5-character line 2 */
            strcpy(longd, "a\n");
            memset(longd + 2, 'b', 100000);
            strcpy(longd + 100002, "\n");
            strcpy(longp, "0.5\n0.");
            memset(longp + 6, '5', 100000);
            strcpy(longp + 100006, "\n");
            r = (row2){"10^5-character line", longd, strlen(longd), REJ_LINE, 2, longp,
                       strlen(longp), REJ_LINE, 2, "longer than the 4096-byte limit"};
        }
        put_bytes("s.txt", r.draws, r.draws_len);
        put_bytes("q.txt", r.probs, r.probs_len);
        char what[160];
        snprintf(what, sizeof what, "check --samples '%s' (%s)", r.id, r.why);
        int st = run("$E check --epsilon 1 --samples s.txt x.csv");
        if (r.draws_expect == ACCEPT)
            ck_assert_msg(st == 4 && out[0], "%s: exit %d: %s", what, st, errtxt); /* 2 draws: too few */
        else
            rejected(what, "s.txt", r.draws_expect, r.draws_line, st);
        snprintf(what, sizeof what, "audit --samples-x '%s' (%s)", r.id, r.why);
        st = run("$E audit --epsilon 1 --samples-x s.txt --samples-y g.txt x.csv x.csv");
        if (r.draws_expect == ACCEPT)
            ck_assert_msg(st == 0 && out[0], "%s: exit %d: %s", what, st, errtxt);
        else
            rejected(what, "s.txt", r.draws_expect, r.draws_line, st);
        snprintf(what, sizeof what, "compare --probs '%s' (%s)", r.id, r.why);
        st = run("$E compare --epsilon 1 --probs q.txt x.csv");
        if (r.probs_expect == ACCEPT)
            ck_assert_msg((st == 0 || st == 1) && out[0], "%s: exit %d: %s", what, st, errtxt);
        else
            rejected(what, "q.txt", r.probs_expect, r.probs_line, st);
    }
}
END_TEST

/* continuous draws (one number per line): the same rules for the bytes */
START_TEST(continuous_draws_rows)
{
    put("u.csv", "# output: continuous\n0,1,0\n");
    static const struct { const char *id; const char *d; size_t n; int expect; } r[] = {
        {"non-UTF-8", S("0.5\n0.2\xff\n"), REJ_LINE},
        {"NUL", S("0.5\n0.2\0\n"), REJ_LINE},
        {"control character", S("0.5\n0.2\x1b[2J\n"), REJ_LINE},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        put_bytes("c.txt", r[i].d, r[i].n);
        char what[96];
        snprintf(what, sizeof what, "continuous check on '%s'", r[i].id);
        rejected(what, "c.txt", r[i].expect, 2, run("$E check --epsilon 1 --samples c.txt u.csv"));
        ck_assert_msg(!strchr(errtxt, '\xff') && !strchr(errtxt, 0x1b), "%s: raw bytes in: %s", what, errtxt);
    }
}
END_TEST

START_TEST(option_rows)
{
    put("x.csv", "a,1\nb,0\n");
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("d.txt", "a\nb\n");
    put("p.txt", "0.5\n0.5\n");
    put("n.txt", "1\n2\n");
    /* epsilon: 0, -1 and nan are refused (privacy needs eps > 0, a number); 1e-400 is an
     * exact positive rational (almost uniform output), accepted */
    static const char *const bad_eps[] = {"0", "-1", "nan"};
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        const command *c = &cmds[k];
        const char *f = c->cont ? "u.csv" : "x.csv";
        char fmt[160];
        /* the command line with --epsilon E in place of --epsilon 1 */
        const char *e1 = strstr(c->fmt, "--epsilon 1");
        snprintf(fmt, sizeof fmt, "%.*s--epsilon %%s%s", (int)(e1 - c->fmt), c->fmt,
                 e1 + strlen("--epsilon 1"));
        char cmd[256];
        for (size_t j = 0; j < 3; j++) {
            snprintf(cmd, sizeof cmd, fmt, bad_eps[j], f, f);
            int st = run("%s", cmd);
            ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", cmd, st, out);
            ck_assert_msg(strstr(errtxt, "--epsilon") != NULL, "%s: %s", cmd, errtxt);
        }
        snprintf(cmd, sizeof cmd, fmt, "1e-400", f, f);
        int st = run("%s", cmd);
        ck_assert_msg(st == 0 || (st == 4 && !strcmp(c->name, "check")), "%s: exit %d: %s", cmd, st, errtxt);
        ck_assert_msg(out[0] != 0, "%s: no output", cmd);
        /* an unknown option */
        snprintf(fmt, sizeof fmt, "%s --no-such-option", c->fmt);
        snprintf(cmd, sizeof cmd, fmt, f, f);
        st = run("%s", cmd);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d", cmd, st);
        ck_assert_msg(strstr(errtxt, "unknown option '--no-such-option'") != NULL, "%s: %s", cmd, errtxt);
    }
    /* the commands without a scenario: the option rows (demo and example take no
     * --epsilon: an unknown option; score: its option parser already behaves) */
    static const char *const other[] = {
        "$E demo --no-such-option", "$E demo --epsilon 0", "$E demo --epsilon nan",
        "$E example --no-such-option", "$E example marital --no-such-option",
        "$E example --epsilon 1e-400", "$E score median --no-such-option",
        /* the options added with issues 11 and 12: a bad value is refused before any output */
        "$E sample --epsilon 1 --timing often x.csv", "$E sample --epsilon 1 --timing fixed u.csv",
        "$E check --epsilon 1 --samples-are words --samples d.txt x.csv",
        /* utility: Monte Carlo needs 2 draws at least and a count; --seed goes
           with --mc; csv or json only; pf's exact pmf has none over
           pieces; a negative loss threshold */
        "$E utility --epsilon 1 --mc 0 x.csv", "$E utility --epsilon 1 --mc 1 x.csv",
        "$E utility --epsilon 1 --mc x x.csv", "$E utility --epsilon 1 --mc 1e3 x.csv",
        "$E utility --epsilon 1 --mc 1000000001 x.csv", "$E utility --epsilon 1 --seed 1 x.csv",
        "$E utility --epsilon 1 --format xml x.csv",
        "$E utility --epsilon 1 --variant pf u.csv",
        "$E utility --epsilon 1 --loss-at 1,-1 x.csv",
        "$E score revenue --data n.txt --range 3:1", "$E score median --data n.txt --range 0:inf",
        "$E score median --data n.txt --range 0:4 --convention other",
        "$E score count --data n.txt --column v --candidates 1:2",
        /* --aggregated reads 'value,count' lines: a plain list of values is refused
           at its first line, and --column does not apply to an aggregate */
        "$E score count --aggregated --data n.txt --candidates 1:2",
        "$E score median --aggregated --data n.txt --candidates 1:2 --column v",
        /* sweeps of epsilon: malformed (empty item, two parts, N out of range, a
           value <= 0 or not a number), --epsilon-log on a plain value, both options at once,
           and a sweep given to a command that judges one mechanism */
        "$E probs --epsilon 1,,2 x.csv", "$E probs --epsilon 1:2 x.csv",
        "$E probs --epsilon 1:2:1 x.csv", "$E sample --epsilon 1:2:100001 x.csv",
        "$E probs --epsilon 2:1:3 x.csv", "$E probs --epsilon 0:1:3 x.csv",
        "$E utility --epsilon 1,nan x.csv", "$E probs --epsilon 1,inf x.csv",
        "$E quantile --epsilon 1:2:x --at 0.5 u.csv", "$E probs --epsilon '' x.csv",
        "$E probs --epsilon-log 2 x.csv", "$E cdf --epsilon-log 0:1:3 --at 0.5 u.csv",
        "$E density --epsilon-log 1:2:0 --at 0.5 u.csv", "$E probs --epsilon-log x.csv",
        "$E probs --epsilon 1 --epsilon-log 1:2:3 x.csv",
        "$E sample --epsilon-log 1:2:3 --epsilon 1,2 x.csv",
        "$E check --epsilon 1,2 --samples d.txt x.csv",
        "$E check --epsilon-log 1:2:3 --samples d.txt x.csv",
        "$E compare --epsilon 1:2:3 --probs p.txt x.csv", "$E audit --epsilon 1,2 x.csv x.csv",
        "$E audit --epsilon-log 1:2:3 x.csv x.csv",
    };
    for (size_t j = 0; j < sizeof other / sizeof other[0]; j++) {
        int st = run("%s", other[j]);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", other[j], st, out);
        ck_assert_msg(strstr(errtxt, "expmech ") != NULL, "%s: %s", other[j], errtxt);
    }
}
END_TEST

/* A number option's range (its row in the option table, lo..hi): a value just outside
 * either end is refused, exit 2, nothing on standard output, the message naming the option,
 * the value and the range; the open ends (alpha, confidence, timeout > 0) refuse the end
 * itself. */
START_TEST(range_rows)
{
    put("x.csv", "a,1\nb,0\n");
    put("d.txt", "a\nb\n");
    put("p.txt", "0.5\n0.5\n");
    static const struct { const char *args, *msg; } r[] = {
        {"probs --epsilon 1 --digits 0 x.csv", "--digits: bad value '0': must be between 1 and 1000"},
        {"probs --epsilon 1 --digits 1001 x.csv", "--digits: bad value '1001': must be between 1 and 1000"},
        {"check --epsilon 1 --samples d.txt --alpha 0 x.csv", "--alpha: bad value '0': must be in (0, 1)"},
        {"check --epsilon 1 --samples d.txt --alpha 1 x.csv", "--alpha: bad value '1': must be in (0, 1)"},
        {"check --epsilon 1 --samples d.txt --min-expected 0.99 x.csv",
         "--min-expected: bad value '0.99': must be >= 1"},
        {"compare --epsilon 1 --probs p.txt --rtol -1e-300 x.csv", "--rtol: bad value '-1e-300': must be >= 0"},
        {"compare --epsilon 1 --probs p.txt --atol -1 x.csv", "--atol: bad value '-1': must be >= 0"},
        {"utility --epsilon 1 --mc 1 x.csv", "--mc: bad value '1': must be between 2 and 1000000000"},
        {"utility --epsilon 1 --mc 1000000001 x.csv",
         "--mc: bad value '1000000001': must be between 2 and 1000000000"},
        {"audit --epsilon 1 --confidence 0 x.csv x.csv", "--confidence: bad value '0': must be in (0, 1)"},
        {"audit --epsilon 1 --confidence 1 x.csv x.csv", "--confidence: bad value '1': must be in (0, 1)"},
        {"demo --draws 1000001", "--draws: bad value '1000001': must be an integer in [0, 1000000]"},
        {"conform --sampler x --max-draws 0", "--max-draws: bad value '0': expected an integer from 1 to 2^32"},
        {"conform --sampler x --max-draws 4294967297",
         "--max-draws: bad value '4294967297': expected an integer from 1 to 2^32"},
        {"conform --sampler x --timeout 0", "--timeout: bad value '0': expected a number of seconds > 0"},
        {"conform --sampler x --timeout -0.5", "--timeout: bad value '-0.5': expected a number of seconds > 0"},
    };
    for (size_t j = 0; j < sizeof r / sizeof r[0]; j++) {
        int st = run("$E %s", r[j].args);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", r[j].args, st, out);
        ck_assert_msg(strstr(errtxt, r[j].msg) != NULL, "%s: %s", r[j].args, errtxt);
    }
}
END_TEST

/* The points of cdf, density, quantile and utility (--at, --grid, --between, --loss-at:
 * em_points_parse): every refusal exit 2, its message naming the option, and nothing on
 * standard output, not even the rows of the intervals before a bad one (a sweep
 * included).  u.csv is the uniform law on [0, 1]. */
static char long_number[100010];

START_TEST(points_rows)
{
    put("u.csv", "# output: continuous\n0,1,0\n");
    put("x.csv", "a,1\nb,0\n");
    strcpy(long_number, "0.");
    memset(long_number + 2, '5', 100000);
    long_number[100002] = 0;
    static const struct { const char *args, *msg; } r[] = {
        /* --at: NaN, infinities, empty items, not numbers, huge sizes */
        {"cdf --epsilon 1 --at nan u.csv", "--at: bad number 'nan': NaN is not a number"},
        {"cdf --epsilon 1 --at inf u.csv", "--at: bad number 'inf': +inf is not allowed"},
        {"cdf --epsilon 1 --at -inf u.csv", "--at: bad number '-inf': -inf is not allowed here"},
        {"cdf --epsilon 1 --at '' u.csv", "--at: empty value in ''"},
        {"cdf --epsilon 1 --at 0.5,,0.6 u.csv", "--at: empty value in '0.5,,0.6'"},
        {"cdf --epsilon 1 --at 0.5, u.csv", "--at: empty value in '0.5,'"},
        {"cdf --epsilon 1 --at ,0.5 u.csv", "--at: empty value in ',0.5'"},
        {"cdf --epsilon 1 --at abc u.csv", "--at: bad number 'abc': not a number"},
        {"cdf --epsilon 1 --at ' 0.5' u.csv", "--at: bad number ' 0.5'"},
        {"cdf --epsilon 1 --at 1/0 u.csv", "--at: bad number '1/0': zero denominator"},
        {"cdf --epsilon 1 --at 1e999999999999 u.csv", "decimal exponent too large"},
        {"cdf --epsilon 1 --at $(cat long.txt) u.csv", "--at: bad number '0.555"},
        /* a terminal's escape sequence and a newline: shown escaped, one line */
        {"cdf --epsilon 1 --at \"$(printf '0.5\\033[2J\\nx')\" u.csv",
         "--at: bad number '0.5\\x1b[2J\\x0ax': unexpected character"},
        {"density --epsilon 1 --at nan u.csv", "--at: bad number 'nan'"},
        {"density --epsilon 1 --at 1,,2 u.csv", "--at: empty value in '1,,2'"},
        /* --grid LO:HI:N: the form, N out of range (or past 64 bits), LO > HI, bad ends */
        {"cdf --epsilon 1 --grid 0:1 u.csv", "--grid: expected LO:HI:N, found '0:1'"},
        {"cdf --epsilon 1 --grid 0:1:2:3 u.csv", "--grid: expected LO:HI:N, found '0:1:2:3'"},
        {"cdf --epsilon 1 --grid 0:1:0 u.csv",
         "--grid: N must be an integer in [1, 10000000], found '0'"},
        {"cdf --epsilon 1 --grid 0:1:-1 u.csv", "found '-1'"},
        {"cdf --epsilon 1 --grid 0:1:10000001 u.csv", "found '10000001'"},
        {"cdf --epsilon 1 --grid 0:1:99999999999999999999999 u.csv",
         "found '99999999999999999999999'"},
        {"cdf --epsilon 1 --grid 0:1:x u.csv", "found 'x'"},
        {"cdf --epsilon 1 --grid 0:1:3.0 u.csv", "found '3.0'"},
        {"cdf --epsilon 1 --grid 0:1: u.csv", "found ''"},
        {"cdf --epsilon 1 --grid 0:1:1 u.csv", "--grid: N = 1 needs LO = HI"},
        {"cdf --epsilon 1 --grid 1:0:3 u.csv", "--grid: LO > HI"},
        {"cdf --epsilon 1 --grid nan:1:3 u.csv", "--grid: bad number 'nan'"},
        {"cdf --epsilon 1 --grid 0:inf:3 u.csv", "--grid: bad number 'inf'"},
        {"cdf --epsilon 1 --grid ::3 u.csv", "--grid: bad number '': empty number"},
        {"density --epsilon 1 --grid 1:0:3 u.csv", "--grid: LO > HI"},
        {"cdf --epsilon 1 --at 0.5 --grid 0:1:3 u.csv", "give exactly one of --at"},
        {"density --epsilon 1 u.csv", "give exactly one of --at"},
        /* quantile: p outside [0, 1], named with its point */
        {"quantile --epsilon 1 --at 1.5 u.csv", "--at: p must lie in [0, 1] (point 1: 1.5)"},
        {"quantile --epsilon 1 --at -0.1 u.csv", "(point 1: -0.1)"},
        {"quantile --epsilon 1 --at 0.5,2 u.csv", "(point 2: 2)"},
        {"quantile --epsilon 1 --at 3/2 u.csv", "(point 1: 3/2)"},
        {"quantile --epsilon 1 --at nan u.csv", "--at: bad number 'nan'"},
        {"quantile --epsilon 1 --grid 0:2:3 u.csv", "--grid: p must lie in [0, 1] (point 3: 2)"},
        {"quantile --epsilon 1 --grid -1:1:3 u.csv", "(point 1: -1)"},
        /* --between A:B[,...]: every interval checked before the first row */
        {"cdf --epsilon 1 --between '' u.csv", "--between: expected A:B, found ''"},
        {"cdf --epsilon 1 --between 0.5 u.csv", "--between: expected A:B, found '0.5'"},
        {"cdf --epsilon 1 --between 1:0 u.csv", "--between: A > B in '1:0'"},
        {"cdf --epsilon 1 --between 0:1,1:0 u.csv", "--between: A > B in '1:0'"},
        {"cdf --epsilon 1,2 --between 0:1,1:0 u.csv", "--between: A > B in '1:0'"},
        {"cdf --epsilon 1 --between 0:1, u.csv", "--between: expected A:B, found ''"},
        {"cdf --epsilon 1 --between 0:1,,0:1 u.csv", "--between: expected A:B, found ''"},
        {"cdf --epsilon 1 --between 0:1,x:1 u.csv", "--between: bad number 'x'"},
        {"cdf --epsilon 1 --between nan:1 u.csv", "--between: bad number 'nan'"},
        {"cdf --epsilon 1 --between 0:inf u.csv", "--between: bad number 'inf'"},
        {"cdf --epsilon 1 --between -inf:1 u.csv", "--between: bad number '-inf'"},
        {"cdf --epsilon 1 --between :1 u.csv", "--between: bad number '': empty number"},
        {"cdf --epsilon 1 --between 0:1:2 u.csv", "--between: bad number '1:2'"},
        {"cdf --epsilon 1 --between 0:$(cat long.txt) u.csv", "--between: bad number '0.555"},
        {"cdf --epsilon 1 --between 0:1 --at 0.5 u.csv", "--between goes without --at and --grid"},
        {"cdf --epsilon 1 --between 0:1 x.csv", "x.csv is a finite scenario"},
        {"density --epsilon 1 --between 0:1 u.csv", "unknown option '--between'"},
        {"quantile --epsilon 1 --between 0:1 u.csv", "unknown option '--between'"},
        /* utility --loss-at: the same list, each threshold >= 0 */
        {"utility --epsilon 1 --loss-at nan u.csv", "--loss-at: bad number 'nan'"},
        {"utility --epsilon 1 --loss-at inf x.csv", "--loss-at: bad number 'inf'"},
        {"utility --epsilon 1 --loss-at '' u.csv", "--loss-at: empty value in ''"},
        {"utility --epsilon 1 --loss-at 1,,2 x.csv", "empty value in '1,,2'"},
        {"utility --epsilon 1 --loss-at -1 u.csv", "--loss-at: a loss threshold must be >= 0 ('-1')"},
        {"utility --epsilon 1 --loss-at -1e-400 x.csv", "must be >= 0 ('-1e-400')"},
        /* a control byte in an option's value or a file name: quoted as \xHH by the program */
        {"probs --epsilon \"$(printf '1\\033[2J')\" x.csv", "--epsilon: bad value '1\\x1b[2J'"},
        {"probs --epsilon 1 \"$(printf 'no\\033[2J\\177')\"", "no\\x1b[2J\\x7f: cannot open"},
        {"cdf --epsilon 1 --at 0.5 --bogus \"$(printf '\\033')\" u.csv", "unknown option '--bogus'"},
    };
    put("long.txt", long_number);
    for (size_t j = 0; j < sizeof r / sizeof r[0]; j++) {
        int st = run("$E %s", r[j].args);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%.200s'", r[j].args, st, out);
        ck_assert_msg(strstr(errtxt, r[j].msg) != NULL, "%s: %s", r[j].args, errtxt);
        ck_assert_msg(!strchr(errtxt, 0x1b), "%s: raw bytes in: %s", r[j].args, errtxt);
    }
    /* odd but valid: exact numbers past the doubles, -0, fractions, a hex N, an empty
       interval; the values by hand from the uniform law (F(x) = x on [0, 1], density 1
       there, Q(p) = p), 17 digits */
    static const struct { const char *args, *want; } ok[] = {
        {"cdf --epsilon 1 --at 1e400 u.csv", "1e400,1\n"},
        {"cdf --epsilon 1 --at -0 u.csv", "-0,0\n"},
        {"cdf --epsilon 1 --at 1/2 u.csv", "1/2,0.50000000000000000\n"},
        {"cdf --epsilon 1 --grid 0:1:0x3 u.csv", "0,0\n0.5,0.50000000000000000\n1,1\n"},
        {"cdf --epsilon 1 --grid 1:1:1 u.csv", "1,1\n"},
        {"cdf --epsilon 1 --between 0.5:0.5 u.csv", "0.5,0.5,0\n"},
        {"cdf --epsilon 1 --between -1e400:1e400 u.csv", "-1e400,1e400,1\n"},
        {"density --epsilon 1 --at 1e400 u.csv", "1e400,0,-inf\n"},
        {"quantile --epsilon 1 --at 1e-400 u.csv", "1e-400,1.0000000000000000e-400\n"},
    };
    for (size_t j = 0; j < sizeof ok / sizeof ok[0]; j++) {
        int st = run("$E %s", ok[j].args);
        ck_assert_msg(st == 0, "%s: exit %d: %s", ok[j].args, st, errtxt);
        ck_assert_str_eq(out, ok[j].want);
    }
}
END_TEST

/* expmech plot: each bad table or option is exit 2 with its message, before gnuplot runs,
 * and leaves no figure behind */
START_TEST(plot_rows)
{
    put("t.csv", "epsilon,label,p\n1,a,0.5\n1,b,0.5\n");
    put("nh.csv", "1,0.5\n2,0.25\n");
    put("e.csv", "# only a comment\n");
    put("x.csv", "epsilon,p\n1,0.5\n2,abc\n");
    put("n.csv", "epsilon,p\n1,nan\n");
    put("i.csv", "epsilon,p\n1,-inf\n");
    put("r.csv", "epsilon,p\n1,0.5\n2\n");
    put_bytes("nul.csv", S("epsilon,p\n1,0.5\n2,0.2\0" "5\n"));
    put("u8.csv", "epsilon,p\n1,0.5\xff\n");
    put("cr.csv", "epsilon,p\n1,\r0.5\n");
    put("h.csv", "epsilon,p\n1,1e400\n");
    put("ho.csv", "epsilon,p\n");
    put("b.csv", "\n\n");
    put("ec.csv", "epsilon,p\n1,\n");
    put("xf.csv", "epsilon,p\n1,0.5,3\n");
    put("bom.csv", "\xEF\xBB\xBF" "epsilon,p\n1,0.5\n");
    put("crlf.csv", "epsilon,p\r\n1,0.5\r\n2,0.25\r\n");
    put("odd.csv", "epsilon,p\n1,1e-400\n2,0x1p-2\n");
    ck_assert_int_eq(run("mkdir dd"), 0);
    /* a PATH without gnuplot, with what $E may need (mk/valgrind-expmech: bash, valgrind) */
    ck_assert_int_eq(run(EM_NO_GNUPLOT_PATH), 0);
    static const struct { const char *cmd, *msg; } r[] = {
        {"$E plot --x epsilon --y p --output o.svg nh.csv",
         "nh.csv: no header line: the first line, '1,0.5', has no column names"},
        {"$E plot --x epsilon --y p --output o.svg e.csv", "e.csv: no header line: the table is empty"},
        {"$E plot --x epsilon --y q --output o.svg t.csv",
         "--y: no column 'q' (the columns: epsilon, label, p)"},
        {"$E plot --x eps --y p --output o.svg t.csv", "--x: no column 'eps'"},
        {"$E plot --x epsilon --y p --series s --output o.svg t.csv", "--series: no column 's'"},
        {"$E plot --x epsilon --y p --output o.svg x.csv",
         "x.csv: row 2, column 'p': 'abc' is not a finite number"},
        {"$E plot --x label --y p --output o.svg t.csv",
         "t.csv: row 1, column 'label': 'a' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg n.csv", "'nan' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg i.csv", "'-inf' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg r.csv", "r.csv:3: 1 fields, the header has 2"},
        {"$E plot --x epsilon --y p --output o.svg missing.csv", "cannot open 'missing.csv'"},
        {"$E plot --x epsilon --y p t.csv", "--x, --y and --output are required"},
        {"$E plot --x epsilon --y p --output o.svg --style dots t.csv", "--style: bad value 'dots'"},
        {"$E plot --x label --y p --style bars --logx --output o.svg t.csv", "--logx: not with bars"},
        {"$E plot --x epsilon --y p --output o.svg --overlay t.csv:epsilon t.csv",
         "--overlay: expected FILE:XCOL:YCOL:TITLE"},
        {"$E plot --x epsilon --y p --output o.svg --overlay t.csv:epsilon:q:T t.csv",
         "--overlay: no column 'q'"},
        {"$E plot --x epsilon --y p --output o.svg --no-such-option t.csv",
         "unknown option '--no-such-option'"},
        {"$E plot --x epsilon --y p --output no/such/dir/o.svg t.csv", "--output: cannot write"},
        {"PATH=$PWD/nognuplot $E plot --x epsilon --y p --output o.svg t.csv",
         "expmech plot: gnuplot not found; install it (Debian: apt-get install gnuplot-nox)"},
        /* the bytes: a NUL would end its cell early ('0.2'), not UTF-8, a CR strtod would
           skip, a value past the doubles, an empty cell, an extra field */
        {"$E plot --x epsilon --y p --output o.svg nul.csv", "nul.csv:3: NUL byte in the line"},
        {"$E plot --x epsilon --y p --output o.svg u8.csv", "u8.csv:2: invalid UTF-8 at byte 6"},
        {"$E plot --x epsilon --y p --output o.svg cr.csv", "'\\x0d0.5' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg h.csv",
         "h.csv: row 1, column 'p': '1e400' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg ec.csv", "row 1, column 'p': '' is not a finite"},
        {"$E plot --x epsilon --y p --output o.svg xf.csv", "xf.csv:2: 3 fields, the header has 2"},
        {"$E plot --x epsilon --y p --output o.svg ho.csv", "ho.csv: no rows after the header line"},
        {"$E plot --x epsilon --y p --output o.svg b.csv", "b.csv: no header line: the table is empty"},
        {"$E plot --x epsilon --y p --output o.svg < /dev/null",
         "<stdin>: no header line: the table is empty"},
        {"$E plot --x epsilon --y p --output o.svg dd", "dd: read error"},
        /* the options: empty values and empty items */
        {"$E plot --x '' --y p --output o.svg t.csv", "--x needs a value"},
        {"$E plot --x epsilon --y p, --output o.svg t.csv", "--y: no column ''"},
        {"$E plot --x epsilon --y p --series '' --output o.svg t.csv", "--series needs a value"},
        {"$E plot --x epsilon --y p --style lines, --output o.svg t.csv", "--style: bad value ''"},
        {"$E plot --x epsilon --y p --output '' t.csv", "--output needs a value"},
        {"$E plot --x epsilon --y p --output o.svg --overlay '' t.csv", "--overlay needs a value"},
        {"$E plot --x epsilon --y p --output o.svg --overlay ::: t.csv",
         "--overlay: expected FILE:XCOL:YCOL:TITLE, got ':::'"},
        /* an overlay's table is read as the table is */
        {"$E plot --x epsilon --y p --output o.svg --overlay missing.csv:epsilon:p:T t.csv",
         "cannot open 'missing.csv'"},
        {"$E plot --x epsilon --y p --output o.svg --overlay nul.csv:epsilon:p:T t.csv",
         "nul.csv:3: NUL byte in the line"},
        {"$E plot --x epsilon --y p --output o.svg --overlay e.csv:epsilon:p:T t.csv",
         "e.csv: no header line: the table is empty"},
        {"$E plot --x epsilon --y p --output o.svg --overlay h.csv:epsilon:p:T t.csv",
         "'1e400' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg --overlay t.csv:label:p:T t.csv",
         "t.csv: row 1, column 'label': 'a' is not a finite number"},
        {"$E plot --x epsilon --y p --output o.svg --overlay dd:epsilon:p:T t.csv", "dd: read error"},
        /* odd but valid tables (a BOM, CRLF, 1e-400 and a hex float, plotted as given): read
           to the end, so that the missing gnuplot is the one refusal */
        {"PATH=$PWD/nognuplot $E plot --x epsilon --y p --output o.svg bom.csv",
         "expmech plot: gnuplot not found"},
        {"PATH=$PWD/nognuplot $E plot --x epsilon --y p --output o.svg crlf.csv",
         "expmech plot: gnuplot not found"},
        {"PATH=$PWD/nognuplot $E plot --x epsilon --y p --output o.svg odd.csv",
         "expmech plot: gnuplot not found"},
        {"PATH=$PWD/nognuplot $E plot --x epsilon --y p --output o.svg --overlay "
         "crlf.csv:epsilon:p:T bom.csv", "expmech plot: gnuplot not found"},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        int st = run("%s", r[i].cmd);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", r[i].cmd, st, out);
        ck_assert_msg(strstr(errtxt, r[i].msg) != NULL, "%s: %s", r[i].cmd, errtxt);
        ck_assert_msg(run("test -e o.svg") != 0, "%s: o.svg left behind", r[i].cmd);
    }
}
END_TEST

/* `expmech groups` and `score --group-by`: each refusal names its option or
   column, exit 2, nothing on standard output */
START_TEST(groups_rows)
{
    put("s.csv", "color,v\nBlue,x\nBlue,y\nRed,x\nRed,x\n");
    put("one.csv", "color,v\nBlue,x\nBlue,y\n");
    put("c.txt", "x\ny\n");
    static const struct { const char *args, *msg; } r[] = {
        {"--epsilon 1 --split equal --data s.csv --column nope --group-by color", "no column 'nope'"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by nope", "no column 'nope'"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by v", "cannot be the grouping"},
        {"--epsilon 1 --split equal --data one.csv --column v --group-by color", "one group ('Blue')"},
        {"--epsilon 1 --split half --data s.csv --column v --group-by color", "--split half"},
        {"--epsilon 1 --split 0.5,0.6 --data s.csv --column v --group-by color", "more than 1"},
        {"--epsilon 1 --split 0.5 --data s.csv --column v --group-by color", "1 weight for 2 groups"},
        {"--epsilon 1 --split 0,1 --data s.csv --column v --group-by color", "must be > 0"},
        {"--epsilon 1 --split 1,nan --data s.csv --column v --group-by color", "weight 'nan'"},
        {"--epsilon 0 --split equal --data s.csv --column v --group-by color", "--epsilon"},
        {"--epsilon -1 --split equal --data s.csv --column v --group-by color", "--epsilon"},
        {"--epsilon inf --split equal --data s.csv --column v --group-by color", "--epsilon"},
        {"--epsilon 1 --data s.csv --column v --group-by color", "--split is required"},
        {"--epsilon 1 --split equal --data s.csv --column v", "--group-by is required"},
        {"--split equal --data s.csv --column v --group-by color", "--epsilon is required"},
        {"--epsilon 1 --split equal --data s.csv --group-by color", "needs --data FILE and --column"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by color --function median",
         "count, frequency or maxnorm"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by color --function count "
         "--sensitivity 0.5", "--force"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by color --digits 0", "--digits"},
        {"--epsilon 1 --epsilon-log 1:2:3 --split equal --data s.csv --column v --group-by color",
         "--epsilon and --epsilon-log exclude each other"},
        {"--epsilon 1 --split equal --data s.csv --column v --group-by color --no-such-option",
         "unknown option '--no-such-option'"},
    };
    for (size_t j = 0; j < sizeof r / sizeof r[0]; j++)
        refused_rows("groups", r[j].args, "expmech groups: ", r[j].msg);
    int st = run("mkdir d && $E score count --data one.csv --column v --group-by color "
                 "--candidates c.txt --output-dir d");
    ck_assert_msg(st == 2 && out[0] == 0 && strstr(errtxt, "one group"), "%d %s", st, errtxt);
    st = run("$E score count --aggregated --data s.csv --group-by color --candidates c.txt "
             "--output-dir d");
    ck_assert_msg(st == 2 && out[0] == 0 && strstr(errtxt, "--aggregated"), "%d %s", st, errtxt);
}
END_TEST

/* `score --group-by` (em_write of the groups): a bad grouping column, output directory or data
   file is exit 2 with its message, nothing on standard output and no file in d; a
   group's value is data, never a path: it names a file inside d, escaped */
START_TEST(group_by_rows)
{
    put("s.csv", "color,v\nBlue,x\nBlue,y\nRed,x\nRed,x\n");
    put("c.txt", "x\ny\n");
    put("e0.csv", "");
    put_bytes("nul.csv", S("color,v\nBl\0ue,x\nRed,y\n"));
    put("eg.csv", "color,v\n,x\nRed,y\n");
    put("short.csv", "color,v\nBlue\n");
    ck_assert_int_eq(run("mkdir d"), 0);
    static const struct { const char *args, *msg; } r[] = {
        {"--data s.csv --column v --group-by color --output-dir no/such/dir",
         "--output-dir: cannot create no/such/dir/Blue.txt"},
        {"--data s.csv --column v --group-by color --output-dir s.csv",
         "--output-dir: cannot create s.csv/Blue.txt"},
        {"--data s.csv --column v --group-by color", "--group-by needs --output-dir DIR"},
        {"--data s.csv --column v --group-by nope --output-dir d",
         "s.csv:1: no column 'nope' in the header line"},
        {"--data s.csv --column v --group-by '' --output-dir d", "s.csv:1: no column ''"},
        {"--data s.csv --column v --group-by v --output-dir d", "cannot be the grouping column"},
        {"--data e0.csv --column v --group-by color --output-dir d", "--data e0.csv: no header line"},
        {"--data missing.csv --column v --group-by color --output-dir d",
         "--data: cannot open missing.csv"},
        {"--data nul.csv --column v --group-by color --output-dir d", "nul.csv: NUL byte in the file"},
        {"--data eg.csv --column v --group-by color --output-dir d",
         "eg.csv:2: empty value in column 'color'"},
        {"--data short.csv --column v --group-by color --output-dir d",
         "short.csv:2: 1 field, the header has 2"},
    };
    for (size_t j = 0; j < sizeof r / sizeof r[0]; j++) {
        refused_rows("score count", r[j].args, "expmech score: ", r[j].msg);
        ck_assert_msg(run("test -z \"$(ls -A d)\"") == 0, "%s: a file left in d", r[j].args);
    }
    /* hostile and odd values: '../x' and an escape sequence are file names inside d; a
       BOM and CRLF are what some editors write */
    put("evil.csv", "color,v\n../x,x\n\x1b[2J,y\n");
    int st = run("$E score count --data evil.csv --column v --group-by color --candidates c.txt "
                 "--output-dir d");
    ck_assert_msg(st == 0, "exit %d: %s", st, errtxt);
    ck_assert_str_eq(out, "d/%2E.%2Fx.txt\nd/%1B%5B2J.txt\n");
    ck_assert_int_eq(run("test -f d/%%2E.%%2Fx.txt && ! test -e x.txt && ! test -e d/../x.txt"), 0);
    put("bom.csv", "\xEF\xBB\xBF" "color,v\r\nBlue,x\r\nRed,y\r\n");
    st = run("rm -f d/* && $E score count --data bom.csv --column v --group-by color "
             "--candidates c.txt --output-dir d");
    ck_assert_msg(st == 0, "exit %d: %s", st, errtxt);
    ck_assert_str_eq(out, "d/Blue.txt\nd/Red.txt\n");
}
END_TEST

/* audit of continuous scenarios with draws (--samples-x/-y, one number per line): the
   same byte rules as every draws file, each refusal naming the file and line */
START_TEST(continuous_audit_draws_rows)
{
    put("ux.csv", "# output: continuous\n0,1,0\n");
    put("uy.csv", "# output: continuous\n0,1,0,0.5\n");
    put("g.txt", "0.05\n0.15\n0.25\n0.35\n0.45\n0.55\n0.65\n0.75\n0.85\n0.95\n");
    static char longd[100010];
    strcpy(longd, "0.5\n0.");
    memset(longd + 6, '5', 100000);
    strcpy(longd + 100006, "\n");
    static const struct { const char *id; const char *d; size_t n; int expect; const char *msg; } r[] = {
        {"empty", S(""), REJ_FILE, "no draws"},
        {"only comments", S("# x\n"), REJ_FILE, "no draws"},
        {"NaN", S("0.5\nnan\n"), REJ_LINE, "a draw of a continuous law is a number"},
        {"a word", S("0.5\nabc\n"), REJ_LINE, "bad draw 'abc'"},
        {"two numbers", S("0.5\n0.5 0.6\n"), REJ_LINE, "bad draw '0.5 0.6'"},
        {"a fraction", S("0.5\n1/2\n"), REJ_LINE, "bad draw '1/2'"},
        {"NUL", S("0.5\n0.4\0\n"), REJ_LINE, "NUL byte in the line"},
        {"non-UTF-8", S("0.5\n0.4\xff\n"), REJ_LINE, "invalid UTF-8"},
        {"control character", S("0.5\n0.4\x1b[2J\n"), REJ_LINE, "bad draw"},
        {"10^5-character line", NULL, 0, REJ_LINE, "line too long"},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        put_bytes("c.txt", r[i].d ? r[i].d : longd, r[i].d ? r[i].n : strlen(longd));
        char what[96];
        snprintf(what, sizeof what, "audit --samples-x on '%s'", r[i].id);
        rejected(what, "c.txt", r[i].expect, 2,
                 run("$E audit --epsilon 1 --samples-x c.txt --samples-y g.txt ux.csv uy.csv"));
        ck_assert_msg(strstr(errtxt, r[i].msg), "%s: %s", what, errtxt);
        ck_assert_msg(!strchr(errtxt, '\xff') && !strchr(errtxt, 0x1b), "%s: raw bytes in: %s",
                      what, errtxt);
        snprintf(what, sizeof what, "audit --samples-y on '%s'", r[i].id);
        rejected(what, "c.txt", r[i].expect, 2,
                 run("$E audit --epsilon 1 --samples-x g.txt --samples-y c.txt ux.csv uy.csv"));
    }
    /* the files and options */
    ck_assert_int_eq(run("mkdir dd"), 0);
    static const struct { const char *args, *msg; } o[] = {
        {"--samples-x missing.txt --samples-y g.txt", "missing.txt: cannot open"},
        {"--samples-x dd --samples-y g.txt", "dd: cannot read"},
        {"--samples-x g.txt", "--samples-x and --samples-y go together"},
        {"--samples-y g.txt", "--samples-x and --samples-y go together"},
        {"--samples-x g.txt --samples-y g.txt --samples-are indices",
         "--samples-are does not apply to continuous scenarios"},
        {"--samples-x g.txt --samples-y g.txt --samples-are labels",
         "--samples-are does not apply to continuous scenarios"},
        {"--samples-x g.txt --samples-y g.txt --samples-are words",
         "--samples-are: bad value 'words': expected 'labels' or 'indices'"},
    };
    for (size_t j = 0; j < sizeof o / sizeof o[0]; j++) {
        int st = run("$E audit --epsilon 1 %s ux.csv uy.csv", o[j].args);
        ck_assert_msg(st == 2 && out[0] == 0, "%s: exit %d, out '%s'", o[j].args, st, out);
        ck_assert_msg(strstr(errtxt, o[j].msg), "%s: %s", o[j].args, errtxt);
    }
    /* odd but valid draws: a BOM and CRLF, a blank line, +-inf and 1e400 (beyond the
       doubles: an infinite draw), 1e-400, -0, a hex float: read, and a verdict given */
    put("c.txt", "\xEF\xBB\xBF" "0.5\r\n\r\ninf\r\n-inf\r\n1e400\r\n1e-400\r\n-0\r\n0x1p-1\r\n");
    int st = run("$E audit --epsilon 1 --samples-x c.txt --samples-y g.txt ux.csv uy.csv");
    ck_assert_msg((st == 0 || st == 1) && strstr(out, "audit: X = ux.csv"), "exit %d: %s", st,
                  errtxt);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("bad_input");
    TCase *tc = tcase_create("table");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, scenario_rows);
    tcase_add_test(tc, second_file_rows);
    tcase_add_test(tc, continuous_draws_rows);
    tcase_add_test(tc, option_rows);
    tcase_add_test(tc, range_rows);
    tcase_add_test(tc, points_rows);
    tcase_add_test(tc, plot_rows);
    tcase_add_test(tc, groups_rows);
    tcase_add_test(tc, group_by_rows);
    tcase_add_test(tc, continuous_audit_draws_rows);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
