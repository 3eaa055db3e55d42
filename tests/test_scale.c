/* test_scale.c: the compact scenario (src/io/em_scn_*.c with sc.compact), the oracle and
 * the exact sampler reading utilities through em_utility_reader, and the limit on candidates
 * (docs/cli.md, "Scale").
 *
 * Outputs must not change with the storage: the golden test hashes what `expmech probs`
 * and `expmech sample --seed` print for generated scenarios (every utility syntax, ties,
 * exclusions, quoted labels, values beyond MPFR's range) and compares with the hashes
 * of the program before the change (commit 5c79bfc).  Memory and time are measured by
 * stats/bench_memory.sh, never here. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/em_scn_text.h"
#include "em_cli_util.h"
#include "expmech.h"
#include "oracle/em_exact.h"
#include "oracle/em_oracle.h"
#include "em_problem_util.h"

static void setup(void)
{
    em_cli_setup("/tmp/em_test_scale_XXXXXX");
}

/* S1: 3000 candidates (three blocks of the exact sampler) of every utility syntax */
static const char gen_s1[] =
    "awk 'BEGIN{for(i=0;i<3000;i++){k=i%%10;"
    " if(k==0) printf \"c%%d,%%.6f\\n\", i, ((i*7919)%%1000)/7.0;"
    " else if(k==1) printf \"c%%d,%%d\\n\", i, (i*31)%%200;"
    " else if(k==2) { if (i%%100==2) printf \"c%%d,-inf\\n\", i; else printf \"c%%d,%%d\\n\", i, (i*17)%%150; }"
    " else if(k==3) printf \"c%%d,%%d/%%d\\n\", i, i%%97, (i%%13)+1;"
    " else if(k==4) printf \"c%%d,0x1.%%xp%%d\\n\", i, (i*2654435761)%%4096, -(i%%40);"
    " else if(k==5) printf \"c%%d,%%d.%%d%%d%%d\\n\", i, i%%160, i*7919, i*104729, i*15485863;"
    " else if(k==6) printf \"\\\"c,%%d\\\",%%.10f\\n\", i, (i%%50)/3.0;"
    " else if(k==7) printf \"c%%d,1e-%%d\\n\", i, i%%300;"
    " else if(k==8) printf \"c%%d,%%.3f\\n\", i, -(i%%1000)*0.001;"
    " else printf \"c%%d,%%.6f\\n\", i, (i%%1000)/7.0; }}' > s1.txt; true";

static void write_scenarios(void)
{
    ck_assert_int_eq(run(gen_s1), 0);
    put("s2.txt", "a,1e300\nb,1e300\nc,-1e300\nd,0\ne,1e-300\nf,-inf\ng,0x1p-1074\nh,1/3\n"
                  "i,-0x1.fffffffffffffp1023\n");
    put("s3.txt", "a,1000\nb,753.08642197530865\nc,-50\n");
    put("s4.txt", "# sensitivity: 2\nx,18014398509481986\ny,0\nz,18014398509481985.5\n");
}

/* The monotone rows need --force: s1.txt has no "# monotone: yes" header;
   forced, the program computes what it computed before, so the hashes stand. */
START_TEST(golden)
{
    static const struct {
        const char *args, *sha256;
    } g[] = {
        {"probs --epsilon 1 s1.txt", "a0c43eefc3c4cf4261793b0365a0d6859c3135fb057193f74e0aeb31e2abc32d"},
        {"probs --epsilon 37/100 --digits 30 --format json s1.txt", "df8635eeca2126db3ed2e1cc60bb6a07977c3a1d4e56ade829859e266198f3b6"},
        {"probs --epsilon 2 --variant monotone --force --digits 5 s1.txt", "a065d656abdb4a3700f511c3afaa24e43690344ca46731338ab33e0ec7292eb4"},
        {"sample --epsilon 1 -n 3000 --seed 7 s1.txt", "3414a00d77ca9fc99bfde2c08780eaf83c4be161fffc35d0ce93aca2e7d06640"},
        {"sample --epsilon 1/3 -n 2000 --seed 8 --variant monotone --force s1.txt", "492e31c893e267f726ee8601c19da329297fe033dc983e5ad1f24f284d7f666a"},
        {"sample --epsilon 1 -n 2000 --seed 9 --sampler float s1.txt", "2594d874abb40ed5311e746a1dc08826572c88439be36323deb4b7ea0f54741f"},
        {"probs --epsilon 1 s2.txt", "03ce3ad6d0beaecf51e93a54d3dc94b8b3c49008beb669d894042e53cfbf7a10"},
        {"probs --epsilon 1 --digits 40 --format json s2.txt", "47d87507bf952557595d8624605dec3ee6342bde383012c7d9f16d8ba63652a2"},
        {"sample --epsilon 1 -n 50 --seed 1 s2.txt", "a363e79e1f7da841ebf107a9f8e6c44baa264f48d2b4d02d9832b34a46cbca43"},
        {"probs --epsilon 1 s3.txt", "375c20c9f65279a1c3ed8512b0dfab9c879e4a67b3c9f5c128aba0fd88d2a0dc"},
        {"probs --epsilon 2 s4.txt", "9dad10a83728488609d539195ea22299d625edafee8fc42d5aad3fcccdd83352"},
        {"sample --epsilon 1 -n 100 --seed 2 s4.txt", "1388a5e200e1e7623d8c427421018457e849b33e2952d2c685cb03a1d164013a"},
    };
    write_scenarios();
    for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
        ck_assert_int_eq(run("$E %s 2>/dev/null | sha256sum | cut -c1-64", g[k].args), 0);
        ck_assert_msg(!strncmp(out, g[k].sha256, 64), "%s: output changed (sha256 %.64s)", g[k].args, out);
    }
}
END_TEST

START_TEST(limit_is_clean)
{
    put("six.txt", "a,1\nb,2\nc,3\nd,4\ne,5\nf,6\n");
    const char *cmds[] = {"probs --epsilon 1", "sample --epsilon 1 -n 3 --seed 1",
                          "sample --epsilon 1 -n 3 --seed 1 --sampler float"};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(run("EXPMECH_MAX_CANDIDATES=5 $E %s six.txt", cmds[k]), 2);
        ck_assert_msg(strstr(errtxt, "six.txt:6: more than 5 candidates") != NULL, "%s", errtxt);
        ck_assert_msg(strstr(errtxt, "EXPMECH_MAX_CANDIDATES") != NULL, "%s", errtxt);
        ck_assert_str_eq(out, "");
        ck_assert_int_eq(run("EXPMECH_MAX_CANDIDATES=6 $E %s six.txt", cmds[k]), 0);
    }
    /* the same through standard input: nothing is read past the limit's line */
    ck_assert_int_eq(run("EXPMECH_MAX_CANDIDATES=2 $E probs --epsilon 1 < six.txt"), 2);
    ck_assert(strstr(errtxt, "<stdin>:3: more than 2 candidates") != NULL);
    const char *bad[] = {"0", "abc", "", "-1", "1073741825", "99999999999999999999999"};
    for (int k = 0; k < 6; k++) {
        ck_assert_int_eq(run("EXPMECH_MAX_CANDIDATES='%s' $E probs --epsilon 1 six.txt", bad[k]), 2);
        ck_assert_msg(strstr(errtxt, "EXPMECH_MAX_CANDIDATES: expected an integer") != NULL, "%s", errtxt);
        ck_assert_str_eq(out, "");
    }
    /* the limit is documented where users look */
    ck_assert_int_eq(run("$E probs --help"), 0);
    ck_assert(strstr(out, "EXPMECH_MAX_CANDIDATES") != NULL);
    ck_assert_int_eq(run("$E sample --help"), 0);
    ck_assert(strstr(out, "EXPMECH_MAX_CANDIDATES") != NULL);
}
END_TEST

START_TEST(long_lines_streamed)
{
    /* a line longer than the 1 MiB read chunk is still reported with its length */
    ck_assert_int_eq(run("(echo a,1; head -c 3000000 /dev/zero | tr '\\0' x; echo ,2) > l.txt && "
                         "$E probs --epsilon 1 l.txt"), 2);
    ck_assert_msg(strstr(errtxt, "l.txt:2: line too long (3000002 bytes; the limit is 4096)") != NULL, "%s", errtxt);
    ck_assert_int_eq(run("(printf 'a,1\\r\\n'; head -c 2000000 /dev/zero | tr '\\0' y; printf '\\r\\n') | "
                         "$E probs --epsilon 1"), 2);
    ck_assert_msg(strstr(errtxt, "<stdin>:2: line too long (2000000 bytes;") != NULL, "%s", errtxt);
    /* a BOM, CRLF and a last line without a newline across the chunk boundary */
    ck_assert_int_eq(run("(printf '\\357\\273\\277'; awk 'BEGIN{for(i=0;i<80000;i++) printf \"label%%d,%%d\\r\\n\", i, i%%7}'; "
                         "printf 'last,3') > big.txt && $E probs --epsilon 1 --digits 3 big.txt | tail -n 2"), 0);
    ck_assert_str_eq(out, "label79999,7.92e-6,-11.7\nlast,7.92e-6,-11.7\n"); /* as before the change */
}
END_TEST

/* ---------------------------------------------------------------- library */

static const char values[] =
    "a,0\nb,-0\nc,1\nd,-12.5e3\ne,0.1\nf,.5\ng,5.\nh,1e300\ni,1e-300\nj,-inf\n"
    "k,0x1.8p3\nl,0x1p-1074\nm,-0x1.fffffffffffffp1023\nn,4100/4140\no,-7/3\n"
    "p,9223372036854775807\nq,-9223372036854775808\nr,4611686018427387904\n"
    "s,123456789012345678901234567890\nt,0.000000000000000000001\nu,1e8191\nv,1e-8192\n"
    "w,1e-8193\nx,3.14159265358979323846264338327950288\ny,2/1024\nz,1e10000\n"
    "aa,-1e-10000\nab,0x123456789abcdef.8p-8000\nac,1/5\nad,17e-3\nae,4611686018427387903\n";

START_TEST(compact_values)
{
    em_scn a, b;
    em_scn_init(&a);
    em_scn_init(&b);
    b.compact = 1;
    em_error err;
    ck_assert_int_eq(em_scn_read(&a, values, strlen(values), "v", &err), EM_OK);
    ck_assert_int_eq(em_scn_read(&b, values, strlen(values), "v", &err), EM_OK);
    ck_assert(b.u == NULL && a.u != NULL && b.ud == NULL);
    ck_assert_int_eq(em_scn_doubles(&b, NULL), EM_OK);
    ck_assert_uint_eq(a.n, b.n);
    mpq_t q;
    mpq_init(q);
    for (size_t i = 0; i < a.n; i++) {
        em_scn_get_u(&b, i, q);
        ck_assert_msg(mpq_equal(q, a.u[i]), "candidate %s", a.labels[i]);
        ck_assert(mpz_cmp_ui(mpq_denref(q), 0) > 0);
        mpq_t c;
        mpq_init(c);
        mpq_set(c, q);
        mpq_canonicalize(c);
        ck_assert_msg(mpq_equal(c, q), "not canonical: %s", a.labels[i]);
        mpq_clear(c);
        ck_assert_str_eq(a.labels[i], b.labels[i]);
        ck_assert(a.excluded[i] == b.excluded[i]);
        ck_assert(memcmp(&a.ud[i], &b.ud[i], sizeof(double)) == 0);
        ck_assert_int_eq(em_scn_lookup(&b, b.labels[i], strlen(b.labels[i])), (long)i);
    }
    ck_assert_int_eq(em_scn_expand(&b, NULL), EM_OK);
    for (size_t i = 0; i < a.n; i++)
        ck_assert(mpq_equal(a.u[i], b.u[i]));
    /* line numbers as runs, and the duplicate message that names the first line */
    em_scn d;
    em_scn_init(&d);
    d.compact = 1;
    const char *dl = "# h\na,1\nb,2\n\n\nc,3\n# x\nd,4\ne,5\nb,6\n";
    ck_assert_int_eq(em_scn_read(&d, dl, strlen(dl), "d", &err), EM_ERR_PARSE);
    ck_assert_msg(strstr(err.msg, "d:10: duplicate label 'b' (first on line 3)") != NULL, "%s", err.msg);
    static const unsigned long lines[] = {2, 3, 6, 8, 9};
    for (size_t i = 0; i < 5; i++)
        ck_assert_uint_eq(em_scn_line(&d, i), lines[i]);
    em_scn_clear(&d);
    /* a configured limit */
    em_scn c;
    em_scn_init(&c);
    c.max_n = 3;
    ck_assert_int_eq(em_scn_read(&c, values, strlen(values), "v", &err), EM_ERR_TOO_MANY);
    ck_assert_msg(strstr(err.msg, "v:4: more than 3 candidates") != NULL, "%s", err.msg);
    mpq_clear(q);
    em_scn_clear(&a);
    em_scn_clear(&b);
    em_scn_clear(&c);
}
END_TEST

/* A big scenario for the library tests: 2500 candidates (three exact-sampler blocks). */
static void big(em_scn *s, int compact)
{
    size_t cap = 2500 * 40, len = 0;
    char *t = malloc(cap);
    for (int i = 0; i < 2500; i++)
        len += (size_t)snprintf(t + len, cap - len, i % 97 == 5 ? "c%d,-inf\n" : i % 3 ? "c%d,%d.%03d\n" : "c%d,%d/7\n",
                                i, (i * 7919) % 61 - 30, (i * 31) % 1000);
    em_scn_init(s);
    s->compact = compact;
    em_error err;
    ck_assert_int_eq(em_scn_read(s, t, len, "big", &err), EM_OK);
    free(t);
}

START_TEST(oracle_src_same)
{
    em_scn a, b;
    big(&a, 0);
    big(&b, 1);
    mpq_t eps, delta;
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_ui(eps, 3, 2);
    mpq_set_ui(delta, 1, 1);
    em_oracle *x, *y;
    em_utility_reader src = {em_scn_reader_get, &b};
    ck_assert_int_eq(tp_oracle_new(a.n, a.u, a.excluded, eps, delta, EM_STANDARD, 20, &x), EM_OK);
    ck_assert_int_eq(tp_oracle_new_src(b.n, &src, b.excluded, eps, delta, EM_STANDARD, 20, &y), EM_OK);
    for (size_t i = 0; i < a.n; i++) {
        em_oracle_cand cx, cy;
        ck_assert_int_eq(em_oracle_get(x, i, &cx), EM_OK);
        ck_assert_int_eq(em_oracle_get(y, i, &cy), EM_OK);
        ck_assert_str_eq(cx.prob, cy.prob);
        ck_assert_str_eq(cx.logprob, cy.logprob);
        ck_assert(cx.prob_d == cy.prob_d && cx.flags == cy.flags);
    }
    em_oracle_free(x);
    em_oracle_free(y);
    ck_assert_int_eq(tp_oracle_new_src(b.n, NULL, b.excluded, eps, delta, EM_STANDARD, 20, &y), EM_ERR_NULL);
    mpq_clears(eps, delta, (mpq_ptr)0);
    em_scn_clear(&a);
    em_scn_clear(&b);
}
END_TEST

static size_t never(size_t n, const uint64_t *lo, const uint64_t *hi, uint64_t a, uint64_t w)
{
    (void)lo, (void)hi, (void)a, (void)w;
    return n; /* undecided: every draw goes to the slow path */
}

START_TEST(exact_src_same)
{
    em_scn a, b;
    big(&a, 0);
    big(&b, 1);
    mpq_t eps, delta;
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(delta, 1, 1);
    em_exact *x, *y, *z;
    em_utility_reader src = {em_scn_reader_get, &b};
    ck_assert_int_eq(tp_exact_new(a.n, a.u, a.excluded, eps, delta, EM_STANDARD, &x), EM_OK);
    ck_assert_int_eq(tp_exact_new_src(b.n, &src, b.excluded, eps, delta, EM_STANDARD, &y), EM_OK);
    ck_assert_int_eq(tp_exact_new_src(b.n, &src, b.excluded, eps, delta, EM_STANDARD, &z), EM_OK);
    ck_assert(!memcmp(em_exact_lo64(x), em_exact_lo64(y), (a.n + 1) * sizeof(uint64_t)));
    ck_assert(!memcmp(em_exact_hi64(x), em_exact_hi64(y), (a.n + 1) * sizeof(uint64_t)));
    /* the slow path (bounds recomputed block by block from checkpoints) must land every
     * uniform in the cell the fast path finds: both return the cell the uniform is in */
    em_exact_set_select(z, never);
    for (uint64_t k = 0; k < 300; k++) {
        em_rng r1, r2, r3;
        em_bits b1, b2, b3;
        ck_assert_int_eq(em_rng_init(&r1, EM_RNG_CHACHA, &(uint64_t){k}, 1), EM_OK);
        ck_assert_int_eq(em_rng_init(&r2, EM_RNG_CHACHA, &(uint64_t){k}, 1), EM_OK);
        ck_assert_int_eq(em_rng_init(&r3, EM_RNG_CHACHA, &(uint64_t){k}, 1), EM_OK);
        em_bits_init_rng(&b1, &r1);
        em_bits_init_rng(&b2, &r2);
        em_bits_init_rng(&b3, &r3);
        size_t i1, i2, i3;
        ck_assert_int_eq(em_exact_sample(x, &b1, &i1), EM_OK);
        ck_assert_int_eq(em_exact_sample(y, &b2, &i2), EM_OK);
        ck_assert_int_eq(em_exact_sample(z, &b3, &i3), EM_OK);
        ck_assert_uint_eq(i1, i2);
        ck_assert_uint_eq(b1.used, b2.used);
        ck_assert_uint_eq(i1, i3);
        ck_assert(!a.excluded[i1]);
    }
    em_exact_stats st;
    em_exact_get_stats(z, &st);
    ck_assert_uint_eq(st.slow, 300);
    em_exact_free(x);
    em_exact_free(y);
    em_exact_free(z);
    mpq_clears(eps, delta, (mpq_ptr)0);
    em_scn_clear(&a);
    em_scn_clear(&b);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scale");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, golden);
    tcase_add_test(tc, limit_is_clean);
    tcase_add_test(tc, long_lines_streamed);
    suite_add_tcase(s, tc);
    TCase *tl = tcase_create("library");
    tcase_set_timeout(tl, 120);
    tcase_add_test(tl, compact_values);
    tcase_add_test(tl, oracle_src_same);
    tcase_add_test(tl, exact_src_same);
    suite_add_tcase(s, tl);
    return s;
}

EM_CHECK_MAIN(suite)
