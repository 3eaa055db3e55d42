/* test_groups.c: the group analysis (em_groups.h, `expmech groups`, `expmech score
 * --group-by`) against seed 001's table.  The expected numbers are computed here,
 * independently: the two-candidate law in closed form, p = 1 / (1 + exp(-c (u1 - u2))),
 * with Python's decimal module at 80 digits (calc.py below), rounded to 17 significant
 * digits and written in the oracle's style; and the seed's own float output. */
#include "em_check_main.h"
#include <math.h>
#include <sys/stat.h>

#define EM_CLI_OUT_SIZE (1 << 20)
#include "em_cli_util.h"
#include "expmech.h"

static const char *const CANDS = "Violent\nNonViolent\n";
static const char *const ARGS =
    "--data socks.csv --column scary --group-by sock_color --candidates c.txt";

/* seed 001's data: 30 Blue (1 Violent), 70 Red (9 Violent), tests/data/socks.csv */
static void socks(void)
{
    char csv[4096] = "sock_color,scary\n";
    for (int i = 0; i < 100; i++)
        strcat(csv, i < 30 ? (i < 1 ? "Blue,Violent\n" : "Blue,NonViolent\n")
                           : (i < 39 ? "Red,Violent\n" : "Red,NonViolent\n"));
    put("socks.csv", csv);
    put("c.txt", CANDS);
}

/* The expected CSV of `expmech groups` over the socks: argv split, sensitivity ("1",
   or "proven": 1/n_g), then the epsilons.  Frequency scores u = count / n_g. */
static const char calc_py[] =
    "import sys\n"
    "from decimal import Decimal as D, getcontext\n"
    "from fractions import Fraction as F\n"
    "getcontext().prec = 80\n"
    "split, sens, eps = sys.argv[1], sys.argv[2], sys.argv[3:]\n"
    "groups = [('Blue', 30, 1), ('Red', 70, 9)]\n"
    "def dec(q): return D(q.numerator) / D(q.denominator)\n"
    "def exact(q):\n"
    "    d = q.denominator\n"
    "    while d % 2 == 0: d //= 2\n"
    "    while d % 5 == 0: d //= 5\n"
    "    if d != 1: return '%d/%d' % (q.numerator, q.denominator)\n"
    "    return format(dec(q).normalize(), 'f')\n"
    "def lib(v, K=17):\n"
    "    e = v.adjusted()\n"
    "    m = (v.scaleb(K - 1 - e)).to_integral_value()\n"
    "    if m >= 10 ** K:\n"
    "        if e == -1: return '0.' + '9' * K  # below 1, rounds to 1: K nines\n"
    "        e += 1\n"
    "        m = (v.scaleb(K - 1 - e)).to_integral_value()\n"
    "    d = str(int(m))\n"
    "    if -5 <= e < K:\n"
    "        if e < 0: return '0.' + '0' * (-e - 1) + d\n"
    "        return d[:e + 1] + ('.' + d[e + 1:] if e + 1 < K else '')\n"
    "    return d[0] + '.' + d[1:] + 'e' + str(e)\n"
    "print('epsilon,group,rows,share,epsilon_group,true_mode,p_true_mode,expected_loss,gap')\n"
    "for E in eps:\n"
    "    rows = []\n"
    "    for j, (name, n, v) in enumerate(groups):\n"
    "        w = {'proportional': F(n, 100), 'equal': F(1, 2), 'full': F(1)}.get(split)\n"
    "        if w is None: w = F(split.split(',')[j])\n"
    "        eg = F(E) * w\n"
    "        delta = F(1) if sens == '1' else F(1, n)\n"
    "        d = F(n - 2 * v, n)  # u(NonViolent) - u(Violent)\n"
    "        x = dec(eg / (2 * delta) * d)\n"
    "        q = 1 / (1 + x.exp())  # 1 - p without cancellation\n"
    "        rows.append((name, n, F(n, 100), eg, q))\n"
    "    gap = max(r[4] for r in rows) - min(r[4] for r in rows)\n"
    "    for name, n, share, eg, q in rows:\n"
    "        d = dec(F(n - 2 * dict((g[0], g[2]) for g in groups)[name], n))\n"
    "        print(','.join([E, name, str(n), exact(share), exact(eg), 'NonViolent',\n"
    "                        lib(1 - q) if 1 - q < 1 else '0.' + '9' * 17, lib(d * q),\n"
    "                        lib(gap) if gap else '0']))\n";

static char want[1 << 16];

static void expect(const char *split, const char *sens, const char *eps_args)
{
    put("calc.py", calc_py);
    ck_assert_int_eq(run("python3 calc.py %s %s %s", split, sens, eps_args), 0);
    strcpy(want, out);
}

START_TEST(seed_table)
{
    socks();
    /* the seed: Delta = 1, epsilon split by group share (alpha = 0.7 for Red) */
    expect("proportional", "1", "1 5.5 10");
    ck_assert_int_eq(run("$E groups --epsilon 1,5.5,10 --split proportional --sensitivity 1 %s",
                         ARGS), 0);
    ck_assert_msg(!strcmp(out, want), "got\n%s\nwant\n%s", out, want);
    ck_assert(strstr(errtxt, "group Blue: variant standard (default), sensitivity 1 (option; the "
                             "header of group Blue says 1/30)"));
    /* the seed's own float output at eps 10: P(Violent) = 1 - P(true mode) */
    const char *red = strstr(out, "\n10,Red,"), *blue = strstr(out, "\n10,Blue,");
    ck_assert(red && blue);
    double pr = strtod(strchr(red + 20, ',') + 1, NULL), pb = strtod(strchr(blue + 21, ',') + 1, NULL);
    ck_assert_msg(fabs((1 - pr) - 0.06913842034334683) < 1e-15, "Red %.17g", 1 - pr);
    ck_assert_msg(fabs((1 - pb) - 0.19781611144141822) < 1e-15, "Blue %.17g", 1 - pb);
    /* the same sweep as LO:HI:N (1, 5.5, 10 exactly) */
    ck_assert_int_eq(run("$E groups --epsilon 1:10:3 --split proportional --sensitivity 1 %s",
                         ARGS), 0);
    ck_assert_str_eq(out, want);
}
END_TEST

START_TEST(proven_sensitivity)
{
    socks();
    /* frequency with n public: Delta = 1/n_g per group (substitution) */
    expect("proportional", "proven", "1 5.5 10");
    ck_assert_int_eq(run("$E groups --epsilon 1,5.5,10 --split proportional %s", ARGS), 0);
    ck_assert_msg(!strcmp(out, want), "got\n%s\nwant\n%s", out, want);
    ck_assert(strstr(errtxt, "sensitivity 1/70 (header of group Red)"));
    /* probabilities below the exact parser's 10^-10000: the gap from them all the same */
    expect("full", "proven", "2000");
    ck_assert_int_eq(run("$E groups --epsilon 2000 --split full %s", ARGS), 0);
    ck_assert_msg(!strcmp(out, want), "got\n%s\nwant\n%s", out, want);
    ck_assert(strstr(out, "e-12161,"));
}
END_TEST

START_TEST(splits)
{
    socks();
    static const char *const split[] = {"full", "equal", "0.25,0.75", "1/3,2/3"};
    for (size_t i = 0; i < 4; i++) {
        expect(split[i], "1", "1 7");
        ck_assert_int_eq(run("$E groups --epsilon 1,7 --split %s --sensitivity 1 %s", split[i],
                             ARGS), 0);
        ck_assert_msg(!strcmp(out, want), "%s: got\n%s\nwant\n%s", split[i], out, want);
    }
}
END_TEST

START_TEST(gap_zero_and_ties)
{
    /* two groups with the same frequencies: the same law with the same epsilon, gap 0
       exactly; with the proven 1/n_g the laws differ */
    put("g.csv", "g,v\nA,x\nA,y\nA,y\nB,y\nB,x\nB,y\nB,y\nB,y\nB,x\n");
    put("c.txt", "x\ny\nz\n");
    ck_assert_int_eq(run("$E groups --epsilon 2 --split equal --sensitivity 1 --data g.csv "
                         "--column v --group-by g --candidates c.txt"), 0);
    ck_assert_msg(strstr(out, "\n2,A,3,1/3,1,y,") && strstr(out, ",0\n2,B,6,2/3,1,y,") &&
                      out[strlen(out) - 2] == '0' && out[strlen(out) - 3] == ',', "%s", out);
    ck_assert_int_eq(run("$E groups --epsilon 2 --split equal --data g.csv --column v --group-by "
                         "g --candidates c.txt --format json"), 0);
    ck_assert_msg(strstr(out, "\"gap\": \"") && !strstr(out, "\"gap\": \"0\""), "%s", out);
    /* a tie: both modes, joined by '|' */
    put("t.csv", "g,v\nA,x\nA,y\nB,x\nB,x\n");
    ck_assert_int_eq(run("$E groups --epsilon 1 --split full --data t.csv --column v --group-by g "
                         "--candidates c.txt --function count"), 0);
    ck_assert_msg(strstr(out, "1,A,2,0.5,1,x|y,"), "%s", out);
    ck_assert_int_eq(run("$E groups --epsilon 1 --split full --data t.csv --column v --group-by g "
                         "--candidates c.txt --function count --format json"), 0);
    ck_assert_msg(strstr(out, "\"true_mode\": [\"x\", \"y\"]"), "%s", out);
}
END_TEST

/* permute-and-flip over two candidates: the mode first (1/2) is kept; the other first is
   kept with probability q = exp(-x), else the mode follows: P(mode) = 1 - q/2 */
static const char pf_py[] =
    "from decimal import Decimal as D, getcontext\n"
    "getcontext().prec = 60\n"
    "for eg, n, v in [('0.3', 30, 1), ('0.7', 70, 9), ('3', 30, 1), ('7', 70, 9)]:\n"
    "    x = D(eg) / 2 * D(n - 2 * v) / n\n"
    "    print(format(1 - (-x).exp() / 2, '.17g'))\n";

START_TEST(permute_and_flip)
{
    socks();
    put("pf.py", pf_py);
    ck_assert_int_eq(run("python3 pf.py"), 0);
    strcpy(want, out);
    int st = run("$E groups --epsilon 1,10 --split proportional --sensitivity 1 --variant pf %s",
                 ARGS);
    if (st == 2 && strstr(errtxt, "pf is not available")) /* em_utility without pf */
        return;
    ck_assert_msg(st == 0, "%s", errtxt);
    for (char *p = want, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
        *nl = 0;
        char field[128];
        snprintf(field, sizeof field, ",NonViolent,%.60s,", p);
        ck_assert_msg(strstr(out, field), "%s not in\n%s", field, out);
    }
}
END_TEST

START_TEST(json_sweep)
{
    socks();
    ck_assert_int_eq(run("$E groups --epsilon 1,10 --split proportional --sensitivity 1 %s "
                         "--format json --digits 5", ARGS), 0);
    const char *head = "[\n  {\"epsilon\": \"1\", \"split\": \"proportional\", \"groups\": [\n";
    ck_assert_msg(!strncmp(out, head, strlen(head)), "%s", out);
    ck_assert(strstr(out, "{\"group\": \"Red\", \"rows\": 70, \"share\": \"0.7\", "
                          "\"epsilon_group\": \"7\", \"true_mode\": [\"NonViolent\"], "
                          "\"p_true_mode\": \"0.93086\""));
    ck_assert(strstr(out, "\n]\n"));
    ck_assert_int_eq(run("$E groups --epsilon 10 --split proportional --sensitivity 1 %s "
                         "--format json --digits 5", ARGS), 0);
    ck_assert_msg(out[0] == '{' && strstr(out, "\"gap\": \"0.12868\"}\n"), "%s", out);
}
END_TEST

START_TEST(score_output_dir)
{
    socks();
    ck_assert_int_eq(run("mkdir d && $E score frequency %s --output-dir d", ARGS), 0);
    ck_assert_str_eq(out, "d/Blue.txt\nd/Red.txt\n");
    em_cli_slurp("d/Blue.txt", want, sizeof want);
    ck_assert_str_eq(want, "# group: sock_color = Blue (30 of 100 rows)\n"
                           "# expmech score frequency: u(x, r) = #{rows equal to r} / n "
                           "(spec/Frequency.acsl); 30 rows, 2 candidates\n"
                           "# neighbours: substitute one row; sensitivity proven in "
                           "proofs/lemmas/ScoreCount_lemmas.h: Frequency_Subst (n public)\n"
                           "# sensitivity: 1/30\nViolent,1/30\nNonViolent,29/30\n");
    /* the seed's Blue row from the file: P(Violent) at eps 3, Delta 1 */
    ck_assert_int_eq(run("$E probs --epsilon 3 --sensitivity 1 d/Blue.txt"), 0);
    ck_assert_msg(strstr(out, "Violent,0.19781611144141825,"), "%s", out);
    /* never overwritten: nothing written, the directory as it was */
    ck_assert_int_eq(run("rm d/Red.txt && $E score frequency %s --output-dir d", ARGS), 2);
    ck_assert_msg(out[0] == 0 && strstr(errtxt, "d/Blue.txt") && strstr(errtxt, "never overwritten"),
                  "%s", errtxt);
    ck_assert_int_eq(run("ls d"), 0);
    ck_assert_str_eq(out, "Blue.txt\n");
    /* names made safe for files: %XX, a leading '.' too */
    put("n.csv", "g,v\n\"a b/c\",x\n.hidden,y\n..,x\n");
    put("c.txt", "x\ny\n");
    ck_assert_int_eq(run("mkdir e && $E score count --data n.csv --column v --group-by g "
                         "--candidates c.txt --output-dir e && ls -A e | LC_ALL=C sort"), 0);
    ck_assert_str_eq(out, "%2E..txt\n%2Ehidden.txt\na%20b%2Fc.txt\n");
    ck_assert_int_eq(run("$E score count --data n.csv --column v --group-by g --candidates c.txt"), 2);
    ck_assert(strstr(errtxt, "--group-by needs --output-dir"));
}
END_TEST

START_TEST(api)
{
    socks();
    char path[160];
    snprintf(path, sizeof path, "%s/socks.csv", tmpdir);
    char cands[160];
    snprintf(cands, sizeof cands, "%s/c.txt", tmpdir);
    em_scoring_opts o = EM_SCORING_OPTS_INIT;
    o.function = "frequency";
    o.data = path;
    o.column = "scary";
    o.candidates = cands;
    em_groups *g = NULL;
    em_error e;
    ck_assert_int_eq(em_groups_new(&o, "sock_color", &g, &e), EM_OK);
    em_groups_info gi = em_groups_get(g);
    ck_assert_uint_eq(gi.count, 2);
    ck_assert_uint_eq(gi.total_rows, 100);
    ck_assert_str_eq(gi.name[1], "Red");
    ck_assert_uint_eq(gi.rows[0], 30);
    ck_assert_uint_eq(gi.rows[1], 70);
    char *u = NULL;
    ck_assert_int_eq(em_scn_utility(em_scoring_get(gi.scoring[1]).scn, 0, &u, &e), EM_OK);
    ck_assert_str_eq(u, "9/70");
    em_free(u);
    em_groups_opts go = EM_GROUPS_OPTS_INIT;
    go.epsilon = "10";
    go.split = "proportional";
    go.sensitivity = "1";
    go.digits = 30;
    em_groups_report *r = NULL;
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_OK);
    ck_assert_uint_eq(r->n, 2);
    ck_assert_str_eq(r->group[1].epsilon, "7");
    ck_assert_uint_eq(r->group[1].n_modes, 1);
    ck_assert_str_eq(r->group[1].modes[0], "NonViolent");
    /* 1 / (1 + e^-2.6) and 1 / (1 + e^-1.4) to 30 digits (Python decimal, prec 60) */
    ck_assert_str_eq(r->group[1].p_true_mode, "0.930861579656653182147476857968");
    ck_assert_str_eq(r->group[0].p_true_mode, "0.802183888558581748154343591552");
    em_free(r);
    /* refusals */
    go.sensitivity = "1/100";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_DOMAIN);
    ck_assert_msg(strstr(e.msg, "group Blue") && r == NULL, "%s", e.msg);
    go.sensitivity = NULL;
    go.split = "0.5,0.6";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_DOMAIN);
    go.split = "0.5";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_DOMAIN);
    go.split = "0,1";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_EPSILON);
    go.split = "half";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_PARSE);
    go.split = "full";
    go.epsilon = "-1";
    ck_assert_int_eq(em_groups_analyse(g, &go, &r, &e), EM_ERR_EPSILON);
    ck_assert_int_eq(em_groups_analyse(NULL, &go, &r, &e), EM_ERR_NULL);
    /* the files written, their paths listed; a second time nothing written nor listed */
    char gdir[160], *list = NULL, listed[512];
    size_t len = 0;
    snprintf(gdir, sizeof gdir, "%s/g", tmpdir);
    ck_assert_int_eq(mkdir(gdir, 0777), 0);
    FILE *names = open_memstream(&list, &len);
    ck_assert_ptr_nonnull(names);
    em_write_opts wo = EM_WRITE_OPTS_INIT;
    wo.dir = gdir;
    ck_assert_msg(em_write(g, names, &wo, &e) == EM_OK, "%s", e.msg);
    ck_assert_int_eq(em_write(g, names, &wo, &e), EM_ERR_DOMAIN);
    ck_assert_ptr_nonnull(strstr(e.msg, "Blue.txt"));
    fclose(names);
    snprintf(listed, sizeof listed, "%s/Blue.txt\n%s/Red.txt\n", gdir, gdir);
    ck_assert_str_eq(list, listed);
    free(list);
    ck_assert_int_eq(em_write(NULL, stdout, &wo, &e), EM_ERR_NULL);
    ck_assert_int_eq(em_write(g, stdout, NULL, &e), EM_ERR_NULL); /* no directory */
    ck_assert_ptr_nonnull(strstr(e.msg, "o->dir"));
    em_free(g);
    o.function = "median";
    ck_assert_int_eq(em_groups_new(&o, "sock_color", &g, &e), EM_ERR_PARSE);
    ck_assert_ptr_null(g);
}
END_TEST

/* docs/groups.md: every ```console block's command, run again, prints the block */
START_TEST(doc_blocks)
{
    FILE *f = fopen("docs/groups.md", "rb");
    ck_assert_ptr_nonnull(f);
    static char doc[1 << 16];
    size_t len = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[len] = 0;
    char *cwd = getcwd(NULL, 0);
    ck_assert_int_eq(run("ln -s %s/tests tests && mkdir out", cwd), 0);
    free(cwd);
    int blocks = 0;
    for (char *p = doc; (p = strstr(p, "```console\n$ expmech ")) != NULL; blocks++) {
        p += strlen("```console\n$ expmech ");
        char cmd[2048] = "$E ", *w = cmd + 3;
        for (; *p != '\n' || p[-1] == '\\'; p++) /* a line ending in \ goes on */
            if (*p != '\\' && *p != '\n')
                *w++ = *p;
        *w = 0;
        char *end = strstr(++p, "```");
        ck_assert_ptr_nonnull(end);
        ck_assert_msg(run("%s", cmd) == 0, "%s: %s", cmd, errtxt);
        ck_assert_msg(strlen(out) == (size_t)(end - p) && !strncmp(out, p, (size_t)(end - p)),
                      "%s:\n%s\nthe doc says\n%.*s", cmd, out, (int)(end - p), p);
        p = end;
    }
    ck_assert_int_eq(blocks, 8);
}
END_TEST

static void setup(void)
{
    em_cli_setup("/tmp/em_test_groups_XXXXXX");
}

static Suite *suite(void)
{
    Suite *s = suite_create("groups");
    TCase *tc = tcase_create("seed001");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, seed_table);
    tcase_add_test(tc, proven_sensitivity);
    tcase_add_test(tc, splits);
    tcase_add_test(tc, gap_zero_and_ties);
    tcase_add_test(tc, json_sweep);
    tcase_add_test(tc, permute_and_flip);
    tcase_add_test(tc, score_output_dir);
    tcase_add_test(tc, api);
    tcase_add_test(tc, doc_blocks);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
