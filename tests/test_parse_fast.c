/* test_parse_fast.c: the scenario parser's fast paths (src/io/em_scn_*.c) give what the
 * exact path gives, on every input.
 *   - Utilities: random decimals, integers, exponents, hex floats, fractions, -inf and the
 *     edges (leading zeros, '+', '-0', 19- and 20-digit mantissas at the int64 and 2^62
 *     edges, 2^53 +- 1, 1e22 / 1e23, exponents near the double range and beyond, white space,
 *     CRLF) are parsed compactly (the fast path) and compared with a reference built here
 *     from the text's parts with mpq_set_str, and with the parse that keeps GMP rationals
 *     (the exact path); the double of each (em_scn_doubles: one IEEE operation when it
 *     is exact) with the double nearest the reference rational (MPFR, and glibc's strtod for
 *     decimals and hex floats).
 *   - Random and malformed texts: the compact and the exact parse accept the same, with the
 *     same values, or reject with the same message.
 *   - The label index (built once at the end): every label found, absent ones not; a
 *     duplicate reported at its line, naming the first, before any later error and before
 *     an error on its own line, as the line-by-line parser did.
 * Nothing here is timed (stats/bench_parse.c measures the speed). */
#include "em_check_main.h"
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "em_test_util.h"
#include "io/em_scn_text.h"
#include "expmech.h"

/* ------------------------------------------------------------ generated values */

typedef struct val {
    char text[160];   /* as written in the file (white space around it included) */
    mpq_t q;          /* its exact value (reference) */
    int excluded;     /* -inf */
    int strtod_ok;    /* a decimal or hex float: glibc's strtod reads the trimmed text */
} val;

static uint64_t rng_state;
static uint64_t rnd(uint64_t n) { return em_t_splitmix(&rng_state) % n; }

static void digits(char *out, size_t k, int leading_zero_ok)
{
    for (size_t i = 0; i < k; i++)
        out[i] = (char)('0' + rnd(10));
    if (!leading_zero_ok && k > 0 && out[0] == '0')
        out[0] = (char)('1' + rnd(9));
    out[k] = 0;
}

/* q = sign * mant / 10^nfrac * 10^e, from strings through mpq_set_str */
static void ref_decimal(mpq_t q, int neg, const char *mant, long nfrac, long e)
{
    long p = e - nfrac;
    size_t zn = (size_t)(p < 0 ? -p : p);
    char *s = malloc(strlen(mant) + zn + 8);
    char *o = s;
    if (neg)
        *o++ = '-';
    o += sprintf(o, "%s", mant[0] ? mant : "0");
    if (p < 0) {
        *o++ = '/';
        *o++ = '1';
    }
    memset(o, '0', zn);
    o[zn] = 0;
    ck_assert_int_eq(mpq_set_str(q, s, 10), 0);
    mpq_canonicalize(q);
    free(s);
}

static const char *const ws[] = {"", "", "", " ", "\t", "  \t "};

/* One decimal: sign, integer digits, optional point and fraction, optional exponent. */
static void gen_decimal(val *v)
{
    char ip[40], fp[40], mant[80];
    int sg = (int)rnd(3); /* none, +, - */
    size_t ni = rnd(6) == 0 ? rnd(23) : rnd(8), nf = rnd(3) == 0 ? 0 : rnd(rnd(4) == 0 ? 23 : 8);
    if (ni + nf == 0)
        ni = 1;
    digits(ip, ni, rnd(4) == 0); /* leading zeros sometimes */
    digits(fp, nf, 1);
    if (nf > 0 && rnd(4) == 0) /* trailing zeros */
        for (size_t i = nf - rnd(nf + 1); i < nf; i++)
            fp[i] = '0';
    int point = nf > 0 || rnd(8) == 0;
    long e = 0;
    int has_e = rnd(3) == 0;
    if (has_e) {
        int r = (int)rnd(10);
        /* up to +-9950: the canonical exponent stays within the accepted +-10000 */
        e = r < 5 ? (long)rnd(61) - 30 : r < 8 ? (long)rnd(801) - 400 : (long)rnd(19901) - 9950;
    }
    char *o = v->text;
    o += sprintf(o, "%s%s%s%s%s", ws[rnd(6)], sg == 1 ? "+" : sg == 2 ? "-" : "", ip,
                 point ? "." : "", fp);
    if (has_e)
        o += sprintf(o, "%c%s%ld", rnd(2) ? 'e' : 'E', e >= 0 && rnd(2) ? "+" : "", e);
    sprintf(o, "%s", ws[rnd(6)]);
    snprintf(mant, sizeof mant, "%s%s", ip, fp);
    ref_decimal(v->q, sg == 2, mant, (long)nf, e);
    v->excluded = 0;
    v->strtod_ok = 1;
}

/* The int64 / 2^62 / 2^53 / 10^19 edges as mantissas, with exponents around +-22 and the
 * trailing zeros that move into the exponent. */
static void gen_edge(val *v)
{
    static const char *const m[] = {
        "9007199254740991", "9007199254740992", "9007199254740993", "4611686018427387903",
        "4611686018427387904", "4611686018427387905", "9223372036854775807",
        "9223372036854775808", "9223372036854775809", "18446744073709551615",
        "18446744073709551616", "9999999999999999999", "10000000000000000000",
        "99999999999999999999", "1000000000000000000", "461168601842738790",
        "461168601842738791", "2305843009213693952", "1", "5", "25", "125", "78125",
        "7450580596923828125", "1490116119384765625", "3814697265625", "0", "00000", "10",
        "1000", "100000000000000000000000"};
    const char *mm = m[rnd(sizeof m / sizeof *m)];
    char ip[64], fp[64];
    size_t len = strlen(mm), cut = rnd(len + 1); /* a point inside the mantissa */
    memcpy(ip, mm, cut);
    ip[cut] = 0;
    strcpy(fp, mm + cut);
    long e = rnd(2) ? (long)rnd(51) - 25 : 0;
    int neg = (int)rnd(2);
    char *o = v->text;
    o += sprintf(o, "%s%s%s%s", neg ? "-" : "", ip[0] || !fp[0] ? ip : "", fp[0] ? "." : "", fp);
    if (!ip[0] && !fp[0])
        o += sprintf(o, "0");
    if (e)
        sprintf(o, "e%ld", e);
    char mant[132];
    snprintf(mant, sizeof mant, "%s%s", ip, fp);
    ref_decimal(v->q, neg, mant, (long)strlen(fp), e);
    v->excluded = 0;
    v->strtod_ok = 1;
}

/* A C99 hex float: q = hexdigits * 2^(p - 4 nfrac). */
static void gen_hex(val *v)
{
    char ip[24], fp[24];
    static const char hx[] = "0123456789abcdefABCDEF";
    size_t ni = 1 + rnd(8), nf = rnd(9);
    for (size_t i = 0; i < ni; i++)
        ip[i] = hx[rnd(22)];
    ip[ni] = 0;
    for (size_t i = 0; i < nf; i++)
        fp[i] = hx[rnd(22)];
    fp[nf] = 0;
    long p = rnd(3) ? (long)rnd(81) - 40 : (long)rnd(2201) - 1100;
    if (rnd(4) == 0) { /* long mantissas near and below the subnormal boundary 2^-1022 */
        ni = 14 + rnd(3);
        nf = 0;
        for (size_t i = 0; i < ni; i++)
            ip[i] = hx[rnd(22)];
        ip[ni] = 0;
        p = -1022 - 4 * (long)ni - (long)rnd(70) + 8;
    }
    int neg = (int)rnd(2);
    sprintf(v->text, "%s0%c%s%s%s%s", neg ? "-" : "", rnd(2) ? 'x' : 'X', ip, nf ? "." : "", fp,
            "");
    if (rnd(4))
        sprintf(v->text + strlen(v->text), "p%ld", p);
    else
        p = 0;
    char all[64];
    snprintf(all, sizeof all, "%s%s", ip, fp);
    mpz_t a;
    mpz_init_set_str(a, all, 16);
    if (neg)
        mpz_neg(a, a);
    mpq_set_z(v->q, a);
    long sh = p - 4 * (long)nf;
    if (sh >= 0)
        mpq_mul_2exp(v->q, v->q, (mp_bitcnt_t)sh);
    else
        mpq_div_2exp(v->q, v->q, (mp_bitcnt_t)-sh);
    mpz_clear(a);
    v->excluded = 0;
    v->strtod_ok = 1;
}

static void gen_fraction(val *v)
{
    char a[32], b[32];
    digits(a, 1 + rnd(20), 1);
    digits(b, 1 + rnd(20), 0);
    int neg = (int)rnd(2);
    sprintf(v->text, "%s%s/%s", neg ? "-" : "", a, b);
    ck_assert_int_eq(mpq_set_str(v->q, v->text, 10), 0);
    mpq_canonicalize(v->q);
    v->excluded = 0;
    v->strtod_ok = 0;
}

static void gen_neg_inf(val *v)
{
    static const char *const t[] = {"-inf", "-INF", "-Infinity", " -inf\t"};
    strcpy(v->text, t[rnd(4)]);
    mpq_set_ui(v->q, 0, 1);
    v->excluded = 1;
    v->strtod_ok = 0;
}

static void gen(val *v)
{
    int r = (int)rnd(20);
    if (r < 11)
        gen_decimal(v);
    else if (r < 15)
        gen_edge(v);
    else if (r < 17)
        gen_hex(v);
    else if (r < 19)
        gen_fraction(v);
    else
        gen_neg_inf(v);
}

/* The double nearest q (ties to even), in double's own range: MPFR with double's exponent
 * range and subnormals (independent of em_q_get_d). */
static double ref_double(const mpq_t q)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_t x;
    mpfr_init2(x, 53);
    int t = mpfr_set_q(x, q, MPFR_RNDN);
    t = mpfr_check_range(x, t, MPFR_RNDN);
    mpfr_subnormalize(x, t, MPFR_RNDN);
    double d = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return d;
}

static double trimmed_strtod(const char *t)
{
    while (*t == ' ' || *t == '\t')
        t++;
    return strtod(t, NULL);
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int parse_mode(em_scn *s, int compact, const char *text, size_t len, em_error *err)
{
    em_scn_init(s);
    s->compact = compact;
    return em_scn_read(s, text, len, "t", err);
}

/* ------------------------------------------------------------ utilities */

START_TEST(fast_equals_reference)
{
    rng_state = 0x5eed0015u + (uint64_t)_i;
    const size_t n = 20000;
    val *v = malloc(n * sizeof *v);
    size_t cap = n * 180, o = 0;
    char *text = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        mpq_init(v[i].q);
        gen(&v[i]);
        o += (size_t)snprintf(text + o, cap - o, "c%zu,%s%s", i, v[i].text,
                              rnd(5) == 0 ? "\r\n" : "\n");
    }
    em_scn fast, slow;
    em_error ef, es;
    ck_assert_msg(parse_mode(&fast, 1, text, o, &ef) == EM_OK, "%s", ef.msg);
    ck_assert_msg(parse_mode(&slow, 0, text, o, &es) == EM_OK, "%s", es.msg);
    ck_assert_ptr_null(fast.u);
    ck_assert_uint_eq(fast.n, n);
    ck_assert_uint_eq(slow.n, n);
    ck_assert_int_eq(em_scn_doubles(&fast, NULL), EM_OK);
    mpq_t q;
    mpq_init(q);
    size_t nstrtod = 0;
    for (size_t i = 0; i < n; i++) {
        em_scn_get_u(&fast, i, q);
        EM_T_REQUIRE(fast.excluded[i] == v[i].excluded && slow.excluded[i] == v[i].excluded,
                     "'%s': excluded %d/%d", v[i].text, fast.excluded[i], slow.excluded[i]);
        EM_T_REQUIRE(mpq_equal(q, v[i].q), "'%s': fast path value %s, reference %s",
                     v[i].text, mpq_get_str(NULL, 10, q), mpq_get_str(NULL, 10, v[i].q));
        EM_T_REQUIRE(mpq_equal(slow.u[i], v[i].q), "'%s': exact path differs", v[i].text);
        /* the exact value 0 has no sign: +0; a negative value that underflows: -0 */
        double want = v[i].excluded ? -HUGE_VAL : mpq_sgn(v[i].q) == 0 ? 0.0 : ref_double(v[i].q);
        EM_T_REQUIRE(same_double(fast.ud[i], want), "'%s': fast double %a, reference %a",
                     v[i].text, fast.ud[i], want);
        EM_T_REQUIRE(same_double(slow.ud[i], want), "'%s': exact-path double %a, reference %a",
                     v[i].text, slow.ud[i], want);
        if (v[i].strtod_ok) {
            double d = trimmed_strtod(v[i].text);
            EM_T_REQUIRE(d == want, "'%s': strtod %a, reference %a", v[i].text, d, want);
            nstrtod++;
        }
        EM_T_REQUIRE(em_scn_line(&fast, i) == i + 1, "line of %zu", i);
    }
    ck_assert_uint_gt(nstrtod, n / 2);
    mpq_clear(q);
    em_scn_clear(&fast);
    em_scn_clear(&slow);
    for (size_t i = 0; i < n; i++)
        mpq_clear(v[i].q);
    free(v);
    free(text);
}
END_TEST

/* Written values whose exact value and nearest double are known by hand. */
START_TEST(fixed_values)
{
    static const struct {
        const char *text, *q; /* q for mpq_set_str */
        double d;
    } t[] = {
        {"142.857143", "142857143/1000000", 142.857143},
        {"0.1", "1/10", 0.1},
        {"-0", "0", 0.0},
        {"+000.000e+5", "0", 0.0},
        {"0.5", "1/2", 0.5},
        {"-12.5e-1", "-5/4", -1.25},
        {"1e22", "10000000000000000000000", 1e22},
        {"1e23", "100000000000000000000000", 1e23},
        {"9007199254740993", "9007199254740993", 9007199254740992.0},
        {"9007199254740993e-22", "9007199254740993/10000000000000000000000", 9007199254740993e-22},
        {"9007199254740992e22", "90071992547409920000000000000000000000", 9007199254740992e22},
        {"4611686018427387904", "4611686018427387904", 4611686018427387904.0},
        {"46116860184273879040", "46116860184273879040", 46116860184273879040.0},
        {"9223372036854775808e-3", "1152921504606846976/125", 9223372036854775.808},
        {"1.7976931348623157e308", NULL, 1.7976931348623157e308},
        {"1.8e308", NULL, HUGE_VAL},
        {"-1.8e308", NULL, -HUGE_VAL},
        {"4.9406564584124654e-324", NULL, 4.9406564584124654e-324},
        {"2.4703282292062327e-324", NULL, 0.0},
        {"2.4703282292062328e-324", NULL, 4.9406564584124654e-324},
        {"0x1p-1074", NULL, 4.9406564584124654e-324},
        {"0x1.8p3", "12", 12.0},
        {"1/3", "1/3", 1.0 / 3},
        {"100e-2", "1", 1.0},
        /* halfway between two doubles: ties to even (integers: from an int64; at 2^63,
         * m 10^e with m < 2^62, through the 128-bit path; halves: binary) */
        {"28823037615171184e1", "288230376151711840", 288230376151711872.0},
        {"28823037615171216e1", "288230376151712160", 288230376151712128.0},
        {"922337203685477888e1", "9223372036854778880", 9223372036854779904.0},
        {"922337203685478912e1", "9223372036854789120", 9223372036854788096.0},
        {"-922337203685478912e1", "-9223372036854789120", -9223372036854788096.0},
        /* just above halfway: m / 10^19 whose quotient's bits below the 53rd are exactly
         * 100...0 and whose remainder is not 0 (rounds up) */
        {"0.2293377118613244975", "2293377118613244975/10000000000000000000", 0x1.d5af02a1788bap-3},
        {"0.3634284858608341218", "3634284858608341218/10000000000000000000", 0x1.742698d4d40d1p-2},
        {"-0.2596309505277304697", "-2596309505277304697/10000000000000000000", -0x1.09dcb2262f19bp-2},
        /* 20 to 38 significant digits: 128-bit mantissas (and 38 + 1 digits, the exact
         * path) */
        {"0.0000000111758708953857421875", "3/268435456", 0x1.8p-27},
        {"2305843009213693952.5", "4611686018427387905/2", 0x1p+61},
        {"123.000974037012881667", "123000974037012881667/1000000000000000000",
         0x1.ec00ff5684763p+6},
        {"-99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
         -0x1.2ced32a16a1b1p+126},
        {"12345678901234567890123456789012345678e-38",
         "6172839450617283945061728394506172839/50000000000000000000000000000000000000",
         0x1.f9add3746f65fp-4},
        {"1234567890123456789012345678901234567e5",
         "123456789012345678901234567890123456700000", 0x1.6ace90adff55fp+136},
        {"123456789012345678901234567890123456789e-39",
         "123456789012345678901234567890123456789/1000000000000000000000000000000000000000",
         0x1.f9add3746f65fp-4},
        {"45035996273704975e-1", "9007199254740995/2", 4503599627370498.0},
        {"4503599627370498.5", "9007199254740997/2", 4503599627370498.0},
        {"-4503599627370498.5", "-9007199254740997/2", -4503599627370498.0},
        {"0.2", "1/5", 0.2},
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        char text[128];
        em_error ef;
        int len = snprintf(text, sizeof text, "a,%s\n", t[k].text);
        em_scn s;
        ck_assert_msg(parse_mode(&s, 1, text, (size_t)len, &ef) == EM_OK, "%s: %s", t[k].text, ef.msg);
        ck_assert_int_eq(em_scn_doubles(&s, NULL), EM_OK);
        ck_assert_msg(same_double(s.ud[0], t[k].d), "%s: %a, expected %a", t[k].text, s.ud[0],
                      t[k].d);
        if (t[k].q) {
            mpq_t a, b;
            mpq_inits(a, b, (mpq_ptr)0);
            ck_assert_int_eq(mpq_set_str(b, t[k].q, 10), 0);
            mpq_canonicalize(b);
            em_scn_get_u(&s, 0, a);
            ck_assert_msg(mpq_equal(a, b), "%s: value differs", t[k].text);
            mpq_clears(a, b, (mpq_ptr)0);
        }
        em_scn_clear(&s);
    }
}
END_TEST

/* Texts from a number alphabet, most of them malformed: the compact and the exact parse
 * agree on acceptance, value and message. */
START_TEST(random_texts_agree)
{
    rng_state = 0xbad15u + (uint64_t)_i;
    static const char alpha[] = "0123456789000+-..eEeE xXpP/ifnaI\t";
    int accepted = 0, rejected = 0;
    for (int it = 0; it < 20000; it++) {
        char v[40], text[64];
        size_t k = 1 + rnd(12);
        for (size_t i = 0; i < k; i++)
            v[i] = alpha[rnd(sizeof alpha - 1)];
        v[k] = 0;
        int len = snprintf(text, sizeof text, "a,%s\n", v);
        em_scn f, s;
        em_error ef, es;
        int sf = parse_mode(&f, 1, text, (size_t)len, &ef);
        int ss = parse_mode(&s, 0, text, (size_t)len, &es);
        EM_T_REQUIRE(sf == ss, "'%s': compact %d, exact %d (%s / %s)", v, sf, ss, ef.msg, es.msg);
        if (sf == EM_OK) {
            accepted++;
            mpq_t q;
            mpq_init(q);
            em_scn_get_u(&f, 0, q);
            EM_T_REQUIRE(mpq_equal(q, s.u[0]) && f.excluded[0] == s.excluded[0],
                         "'%s': values differ", v);
            EM_T_REQUIRE(em_scn_doubles(&f, NULL) == EM_OK && same_double(f.ud[0], s.ud[0]),
                         "'%s': doubles differ", v);
            mpq_clear(q);
        } else {
            rejected++;
            EM_T_REQUIRE(!strcmp(ef.msg, es.msg), "'%s': messages differ: '%s' / '%s'", v, ef.msg,
                         es.msg);
            EM_T_REQUIRE(!strncmp(ef.msg, "t:1: ", 5), "'%s': message '%s'", v, ef.msg);
        }
        em_scn_clear(&f);
        em_scn_clear(&s);
    }
    ck_assert_int_gt(accepted, 1000);
    ck_assert_int_gt(rejected, 1000);
}
END_TEST

/* ------------------------------------------------------------ the label index */

static int parse_text(em_scn *s, const char *text, em_error *err)
{
    em_scn_init(s);
    s->compact = 1;
    return em_scn_read(s, text, strlen(text), "t", err);
}

static void rejects(const char *text, size_t max_n, const char *msg)
{
    em_scn s;
    em_error err;
    em_scn_init(&s);
    s.compact = 1;
    s.max_n = max_n;
    ck_assert_int_ne(em_scn_read(&s, text, strlen(text), "t", &err), EM_OK);
    ck_assert_msg(!strcmp(err.msg, msg), "'%s': message '%s', expected '%s'", text, err.msg, msg);
    em_scn_clear(&s);
}

START_TEST(duplicate_order)
{
    rejects("a,1\nb,2\na,3\nc,zz\n", 0, "t:3: duplicate label 'a' (first on line 1)");
    /* the line's own later errors: the duplicate is found first */
    rejects("a,1\nb,2\na,zz\n", 0, "t:3: duplicate label 'a' (first on line 1)");
    rejects("a,1\nb,2\n a ,0x\n", 0, "t:3: duplicate label 'a' (first on line 1)");
    rejects("a,1\nb,2\na,3\n", 2, "t:3: duplicate label 'a' (first on line 1)");
    rejects("a,1\nb,2\nc,3\n", 2, "t:3: more than 2 candidates: the limit (it keeps memory "
            "below about 100 bytes per candidate times the limit; EXPMECH_MAX_CANDIDATES "
            "sets another, up to 1073741824)");
    /* the first duplicate in file order, not in hash order */
    rejects("a,1\nb,1\nb,2\na,2\n", 0, "t:3: duplicate label 'b' (first on line 2)");
    rejects("x,1\ny,1\nz,1\ny,2\nx,2\nx,3\n", 0, "t:4: duplicate label 'y' (first on line 2)");
    /* an error before the duplicate stands */
    rejects("a,1\nb,zz\na,2\n", 0, "t:2: bad utility 'zz': not a number (expected digits, a "
            "hex float 0x..., a fraction a/b or -inf)");
    rejects("a,1\n\"b\n", 0, "t:2: expected 'label,utility', found '\"b' (no comma)");
    rejects("a,1\nb,2\n#x\n\n\"a\",-inf\n", 0, "t:5: duplicate label 'a' (first on line 1)");
    rejects("\"p,q\",1\nr,2\n\"p,q\",3\n", 0, "t:3: duplicate label 'p,q' (first on line 1)");
    /* a duplicate on the line after which a later line has a header error */
    rejects("a,1\na,2\n# sensitivity: 0\n", 0, "t:2: duplicate label 'a' (first on line 1)");
}
END_TEST

static char *random_label(char *out, size_t i)
{
    /* distinct by construction (the index in base 36 between bars), with random bytes
     * around it: ASCII, spaces inside, UTF-8 */
    static const char *const extra[] = {"", "", "x", "y y", "\xC3\xA9", "\xE2\x82\xAC",
                                        "label with spaces", "0123456789abcdef0123456789"};
    char id[16];
    size_t k = 0;
    do {
        id[k++] = "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36];
        i /= 36;
    } while (i);
    id[k] = 0;
    sprintf(out, "%s|%s|%s", extra[rnd(8)], id, extra[rnd(8)]);
    return out;
}

START_TEST(index_finds_every_label)
{
    rng_state = 0x1abe1;
    const size_t n = 300000;
    char **lab = malloc(n * sizeof *lab);
    size_t cap = n * 80, o = 0;
    char *text = malloc(cap);
    for (size_t i = 0; i < n; i++) {
        char b[96];
        lab[i] = strdup(random_label(b, i));
        o += (size_t)snprintf(text + o, cap - o, "%s,%zu\n", lab[i], i % 1000);
    }
    em_scn s;
    em_error err;
    ck_assert_msg(parse_mode(&s, 1, text, o, &err) == EM_OK, "%s", err.msg);
    ck_assert_uint_eq(s.n, n);
    for (size_t i = 0; i < n; i++) {
        EM_T_REQUIRE(!strcmp(s.labels[i], lab[i]), "label %zu", i);
        EM_T_REQUIRE(em_scn_lookup(&s, lab[i], strlen(lab[i])) == (long)i, "find %zu", i);
        /* a prefix and an extension of a label are other labels */
        EM_T_REQUIRE(em_scn_lookup(&s, lab[i], strlen(lab[i]) - 1) == -1 ||
                         strcmp(s.labels[em_scn_lookup(&s, lab[i], strlen(lab[i]) - 1)],
                                lab[i]) != 0, "prefix %zu", i);
    }
    ck_assert_int_eq(em_scn_lookup(&s, "absent", 6), -1);
    ck_assert_int_eq(em_scn_lookup(&s, "", 0), -1);
    em_scn_clear(&s);
    /* the same labels with one repeated: reported at the repeat's line */
    for (int rep = 0; rep < 5; rep++) {
        size_t a = rnd(n), b = rnd(n);
        if (a == b)
            continue;
        size_t first = a < b ? a : b, second = a < b ? b : a;
        o = 0;
        for (size_t i = 0; i < n; i++)
            o += (size_t)snprintf(text + o, cap - o, "%s,%zu\n", i == second ? lab[first] : lab[i],
                                  i);
        ck_assert_int_eq(parse_mode(&s, 1, text, o, &err), EM_ERR_PARSE);
        char want[EM_SCN_ERRLEN];
        snprintf(want, sizeof want, "t:%zu: duplicate label '", second + 1);
        ck_assert_msg(!strncmp(err.msg, want, strlen(want)), "'%s' for %zu, %zu", err.msg, first, second);
        snprintf(want, sizeof want, "(first on line %zu)", first + 1);
        ck_assert_msg(strstr(err.msg, want) != NULL, "'%s' for %zu, %zu", err.msg, first, second);
        em_scn_clear(&s);
    }
    for (size_t i = 0; i < n; i++)
        free(lab[i]);
    free(lab);
    free(text);
}
END_TEST

/* A file read in 1 MiB chunks: the duplicate across chunks, and the index after a load. */
START_TEST(load_duplicates)
{
    char path[] = "/tmp/em_test_parse_fast_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    const size_t n = 200000;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "c%zu,%zu.25\n", i, i);
    fprintf(f, "c17,1\n");
    fclose(f);
    em_scn s;
    em_error err;
    em_scn_init(&s);
    s.compact = 1;
    ck_assert_int_eq(em_scn_read_file(&s, path, &err), EM_ERR_PARSE);
    char want[EM_SCN_ERRLEN];
    snprintf(want, sizeof want, "%s:%zu: duplicate label 'c17' (first on line 18)", path, n + 1);
    ck_assert_str_eq(err.msg, want);
    em_scn_clear(&s);
    f = fopen(path, "w");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "c%zu,%zu.25\n", i, i);
    fclose(f);
    em_scn_init(&s);
    s.compact = 1;
    ck_assert_int_eq(em_scn_read_file(&s, path, &err), EM_OK);
    ck_assert_uint_eq(s.n, n);
    ck_assert_int_eq(em_scn_lookup(&s, "c199999", 7), 199999);
    ck_assert_int_eq(em_scn_lookup(&s, "c200000", 7), -1);
    ck_assert_int_eq(em_scn_doubles(&s, NULL), EM_OK);
    ck_assert(s.ud[12345] == 12345.25);
    em_scn_clear(&s);
    remove(path);
}
END_TEST

/* A second parse into the same scenario: its labels meet the first parse's. */
START_TEST(second_parse)
{
    em_scn s;
    em_error err;
    ck_assert_int_eq(parse_text(&s, "a,1\nb,2\n", &err), EM_OK);
    ck_assert_int_eq(em_scn_read(&s, "c,3\n", 4, "u", &err), EM_OK);
    ck_assert_uint_eq(s.n, 3);
    ck_assert_int_eq(em_scn_lookup(&s, "a", 1), 0);
    ck_assert_int_eq(em_scn_lookup(&s, "c", 1), 2);
    ck_assert_int_eq(em_scn_read(&s, "d,3\nb,4\n", 8, "v", &err), EM_ERR_PARSE);
    ck_assert_str_eq(err.msg, "v:2: duplicate label 'b' (first on line 2)");
    em_scn_clear(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("parse_fast");
    TCase *tc = tcase_create("parse_fast");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, fast_equals_reference, 0, 4);
    tcase_add_test(tc, fixed_values);
    tcase_add_loop_test(tc, random_texts_agree, 0, 2);
    tcase_add_test(tc, duplicate_order);
    tcase_add_test(tc, index_finds_every_label);
    tcase_add_test(tc, load_duplicates);
    tcase_add_test(tc, second_parse);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(suite)
