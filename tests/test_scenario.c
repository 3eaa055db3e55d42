/* test_scenario.c: the scenario file parser (src/io/em_scn_*.c): every malformed line
 * type, limits, BOM, CRLF, headers, quoting; every message names the file and the line. */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/em_scn_text.h"
#include "expmech.h"

static em_scn sc;
static em_error err;

static int parse(const char *text)
{
    em_scn_clear(&sc);
    em_scn_init(&sc);
    return em_scn_read(&sc, text, strlen(text), "f.csv", &err);
}

static int parse_n(const char *text, size_t n)
{
    em_scn_clear(&sc);
    em_scn_init(&sc);
    return em_scn_read(&sc, text, n, "f.csv", &err);
}

/* the parse fails with a message starting "f.csv:LINE: " and containing `part` */
static void fails_at(const char *text, unsigned long line, const char *part)
{
    int st = parse(text);
    ck_assert_msg(st != EM_OK, "accepted: %s", text);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "f.csv:%lu: ", line);
    ck_assert_msg(!strncmp(err.msg, prefix, strlen(prefix)), "message '%s' does not start with '%s'", err.msg, prefix);
    ck_assert_msg(strstr(err.msg, part) != NULL, "message '%s' lacks '%s'", err.msg, part);
}

static void setup(void)
{
    em_scn_init(&sc);
}

static void teardown(void)
{
    em_scn_clear(&sc);
}

START_TEST(basic)
{
    ck_assert_int_eq(parse("a,1\nb,-2.5\nc,-inf\nd,0x1.8p3\ne,1/3\n"), EM_OK);
    ck_assert_uint_eq(sc.n, 5);
    ck_assert_str_eq(sc.labels[0], "a");
    ck_assert(sc.ud[1] == -2.5);
    ck_assert(sc.excluded[2] && isinf(sc.ud[2]) && sc.ud[2] < 0);
    ck_assert(sc.ud[3] == 12.0);
    ck_assert(sc.ud[4] == 1.0 / 3);
    ck_assert_uint_eq(sc.line[4], 5);
    ck_assert(!sc.has_sensitivity && !sc.has_monotone);
    ck_assert_int_eq(em_scn_lookup(&sc, "c", 1), 2);
    ck_assert_int_eq(em_scn_lookup(&sc, "z", 1), -1);
}
END_TEST

START_TEST(comments_blank_space)
{
    ck_assert_int_eq(parse("# a comment\n\n  \t\n  a , 1 \n\t# another\nb\t,\t2\n"), EM_OK);
    ck_assert_uint_eq(sc.n, 2);
    ck_assert_str_eq(sc.labels[0], "a");
    ck_assert_str_eq(sc.labels[1], "b");
    ck_assert_uint_eq(sc.line[1], 6);
    /* no final newline */
    ck_assert_int_eq(parse("a,1\nb,2"), EM_OK);
    ck_assert_uint_eq(sc.n, 2);
}
END_TEST

START_TEST(headers)
{
    ck_assert_int_eq(parse("# sensitivity: 2.5\n# monotone: yes\na,1\n"), EM_OK);
    ck_assert(sc.has_sensitivity && sc.has_monotone && sc.monotone);
    ck_assert_int_eq(mpz_get_si(mpq_numref(sc.sensitivity)), 5);
    ck_assert_int_eq(mpz_get_si(mpq_denref(sc.sensitivity)), 2);
    ck_assert_int_eq(parse("#Sensitivity:1e-3\n#MONOTONE: no\na,1\n"), EM_OK);
    ck_assert(sc.has_monotone && !sc.monotone);
    fails_at("a,1\n# sensitivity: 0\n", 2, "must be > 0");
    fails_at("# sensitivity: -1\na,1\n", 1, "must be > 0");
    fails_at("# sensitivity: abc\na,1\n", 1, "bad sensitivity 'abc'");
    fails_at("# sensitivity: -inf\na,1\n", 1, "bad sensitivity");
    fails_at("# sensitivity: 1\n# sensitivity: 2\na,1\n", 2, "repeated");
    fails_at("# monotone: maybe\na,1\n", 1, "expected yes or no");
    fails_at("# monotone: yes\n# monotone: no\na,1\n", 2, "repeated");
}
END_TEST

START_TEST(bom_crlf)
{
    ck_assert_int_eq(parse("\xEF\xBB\xBF" "a,1\r\nb,2\r\n"), EM_OK);
    ck_assert_uint_eq(sc.n, 2);
    ck_assert_str_eq(sc.labels[0], "a");
    ck_assert(sc.ud[1] == 2);
    ck_assert_int_eq(parse("\xEF\xBB\xBF# sensitivity: 3\r\n\r\nx,1\r\n"), EM_OK);
    ck_assert(sc.has_sensitivity);
    /* a BOM anywhere else (e.g. files concatenated) is an error */
    fails_at("a,1\n\xEF\xBB\xBF" "b,2\n", 2, "byte-order mark");
    fails_at("a,1\rb,2\n", 1, "carriage return");
}
END_TEST

START_TEST(quoted_labels)
{
    ck_assert_int_eq(parse("\"a, b\",1\n\"say \"\"hi\"\"\",2\n\"x,y\",3\n"), EM_OK);
    ck_assert_str_eq(sc.labels[0], "a, b");
    ck_assert_str_eq(sc.labels[1], "say \"hi\"");
    ck_assert_str_eq(sc.labels[2], "x,y");
    /* a label with a comma is quoted: an extra field is an error, not part of the label */
    fails_at("x,y,3\n", 1, "must be quoted");
    fails_at("\"a\" x,1\n", 1, "after the closing quote");
    fails_at("\"abc,1\n", 1, "unterminated");
    fails_at("\"a\"b\",1\n", 1, "doubled");
    fails_at("a\"b,1\n", 1, "must be quoted");
    fails_at("\"\",1\n", 1, "empty label");
}
END_TEST

START_TEST(malformed_lines)
{
    fails_at("a,1\nnocomma\n", 2, "no comma");
    fails_at("a,1\n,2\n", 2, "empty label");
    fails_at("a,1\n  ,2\n", 2, "empty label");
    fails_at("a,\n", 1, "missing utility");
    fails_at("a,1\nb,  \n", 2, "missing utility");
    fails_at("a,1\nb,abc\n", 2, "bad utility 'abc'");
    fails_at("a,nan\n", 1, "NaN");
    fails_at("a,inf\n", 1, "+inf");
    fails_at("a,+inf\n", 1, "+inf");
    fails_at("a,1.2.3\n", 1, "two decimal points");
    fails_at("a,1e99999\n", 1, "exponent too large");
    fails_at("a,1 2\n", 1, "bad utility");
    fails_at("a,1/0\n", 1, "zero denominator");
    fails_at("a,0x\n", 1, "hex");
    fails_at("a,1 # trailing comment\n", 1, "bad utility");
}
END_TEST

START_TEST(duplicates)
{
    fails_at("a,1\nb,2\na,3\n", 3, "duplicate label 'a' (first on line 1)");
    fails_at("x,1\n\"x\",2\n", 2, "duplicate label 'x'");
    /* labels differ by case or spacing inside: distinct */
    ck_assert_int_eq(parse("a,1\nA,2\na b,3\nab,4\n"), EM_OK);
    ck_assert_uint_eq(sc.n, 4);
}
END_TEST

START_TEST(limits_and_bytes)
{
    /* overlong line */
    size_t L = EM_SCN_MAX_LINE + 10;
    char *big = malloc(L + 16);
    strcpy(big, "a,1\n");
    memset(big + 4, 'x', L);
    strcpy(big + 4 + L, ",1\n");
    fails_at(big, 2, "line too long");
    /* exactly at the limit: fine */
    memset(big, 'y', EM_SCN_MAX_LINE - 2);
    strcpy(big + EM_SCN_MAX_LINE - 2, ",1\n");
    ck_assert_int_eq(parse(big), EM_OK);
    free(big);
    /* NUL byte */
    static const char nul[] = "a,1\nb\0c,2\n";
    ck_assert_int_ne(parse_n(nul, sizeof nul - 1), EM_OK);
    ck_assert(strstr(err.msg, "f.csv:2: ") && strstr(err.msg, "NUL"));
    /* invalid UTF-8: a lone continuation byte, an overlong form, a truncated sequence */
    fails_at("a,1\n\x80x,2\n", 2, "invalid UTF-8");
    fails_at("\xC0\xAF,1\n", 1, "invalid UTF-8");
    fails_at("caf\xC3,1\n", 1, "invalid UTF-8");
    fails_at("\xED\xA0\x80,1\n", 1, "invalid UTF-8"); /* a surrogate */
    ck_assert_int_eq(parse("caf\xC3\xA9,1\n\xE2\x82\xAC,2\n\xF0\x9F\x98\x80,3\n"), EM_OK);
    ck_assert_str_eq(sc.labels[0], "caf\xC3\xA9");
}
END_TEST

START_TEST(empty_inputs)
{
    ck_assert_int_ne(parse(""), EM_OK);
    ck_assert(strstr(err.msg, "f.csv: no candidates"));
    ck_assert_int_ne(parse("# only comments\n\n"), EM_OK);
    ck_assert(strstr(err.msg, "no candidates"));
    ck_assert_int_ne(parse("\xEF\xBB\xBF"), EM_OK);
}
END_TEST

START_TEST(many_candidates)
{
    size_t n = 200000;
    char *buf = malloc(n * 24);
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += (size_t)sprintf(buf + o, "c%zu,%zu.%zu\n", i, i, i % 7);
    ck_assert_int_eq(parse_n(buf, o), EM_OK);
    ck_assert_uint_eq(sc.n, n);
    ck_assert_int_eq(em_scn_lookup(&sc, "c199999", 7), 199999);
    ck_assert(sc.ud[12345] == 12345.4);
    free(buf);
}
END_TEST

START_TEST(load_file)
{
    char path[] = "/tmp/em_test_scenario_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("a,1\nb,zz\n", f);
    fclose(f);
    em_scn_clear(&sc);
    em_scn_init(&sc);
    ck_assert_int_eq(em_scn_read_file(&sc, path, &err), EM_ERR_PARSE);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:2: bad utility 'zz'", path);
    ck_assert_msg(!strncmp(err.msg, prefix, strlen(prefix)), "%s", err.msg);
    remove(path);
    em_scn_clear(&sc);
    em_scn_init(&sc);
    ck_assert_int_eq(em_scn_read_file(&sc, "/nonexistent/x.csv", &err), EM_ERR_PARSE);
    ck_assert(strstr(err.msg, "/nonexistent/x.csv: cannot open"));
}
END_TEST

START_TEST(csv_label_roundtrip)
{
    const char *labels[] = {"plain", "a, b", "q\"uote", " lead", "#hash", "trail "};
    char *mem = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&mem, &len);
    for (int i = 0; i < 6; i++) {
        em_csv_label(f, labels[i]);
        fprintf(f, ",%d\n", i);
    }
    fclose(f);
    ck_assert_int_eq(parse(mem), EM_OK);
    ck_assert_uint_eq(sc.n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(sc.labels[i], labels[i]);
    free(mem);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scenario");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, basic);
    tcase_add_test(tc, comments_blank_space);
    tcase_add_test(tc, headers);
    tcase_add_test(tc, bom_crlf);
    tcase_add_test(tc, quoted_labels);
    tcase_add_test(tc, malformed_lines);
    tcase_add_test(tc, duplicates);
    tcase_add_test(tc, limits_and_bytes);
    tcase_add_test(tc, empty_inputs);
    tcase_add_test(tc, many_candidates);
    tcase_add_test(tc, load_file);
    tcase_add_test(tc, csv_label_roundtrip);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
