/* bench_parse: in-process time of reading 10^6 `label,utility` lines (`make bench`; a
 * benchmark, never a test).  For each utility syntax of stats/bench_memory.sh (decimal
 * 'c123,142.857143', integer 'c123,123', long 'c123,123.000974037012881667': beyond an
 * int64 mantissa), the median of BENCH_PARSE_RUNS runs (default 5) of
 *   parse    em_scn_new on the text in memory (compact utilities, as the CLI keeps them)
 *   load     em_scn_new of the same text from a file (what the CLI does)
 *   doubles  em_scn_doubles after the load (the float sampler's utilities)
 *   get_u    the exact utility of every candidate read back (em_scn_utility's source)
 * BENCH_PARSE_N sets the number of lines (default 10^6), BENCH_PARSE_KINDS the syntaxes
 * (default "decimal integer long"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "expmech.h"
#include "api/em_scn_priv.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_d);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static char *gen(const char *kind, size_t n, size_t *len)
{
    size_t cap = n * 48 + 64, o = 0;
    char *t = malloc(cap);
    if (!t)
        exit(1);
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(kind, "decimal"))
            o += (size_t)snprintf(t + o, cap - o, "c%zu,%.6f\n", i, (double)(i % 1000) / 7.0);
        else if (!strcmp(kind, "integer"))
            o += (size_t)snprintf(t + o, cap - o, "c%zu,%zu\n", i, i % 1000);
        else
            o += (size_t)snprintf(t + o, cap - o, "c%zu,%zu.%09zu%09zu\n", i, i % 1000,
                                  (i * 7919) % 1000000000, (i * 104729) % 1000000000);
    }
    *len = o;
    return t;
}

int main(void)
{
    const char *ns = getenv("BENCH_PARSE_N"), *rs = getenv("BENCH_PARSE_RUNS");
    size_t n = ns ? (size_t)strtoull(ns, NULL, 10) : 1000000;
    int runs = rs ? atoi(rs) : 5;
    if (n == 0 || runs < 1 || runs > 99)
        return 2;
    static const char *const kinds[] = {"decimal", "integer", "long"};
    char path[] = "/tmp/em_bench_parse_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    printf("bench_parse: %zu lines, median of %d runs, seconds\n", n, runs);
    printf("%-8s %10s %10s %10s %10s\n", "kind", "parse", "load", "doubles", "get_u");
    const char *ks = getenv("BENCH_PARSE_KINDS");
    for (int k = 0; k < 3; k++) {
        if (ks && !strstr(ks, kinds[k]))
            continue;
        size_t len;
        char *t = gen(kinds[k], n, &len);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(t, 1, len, f) != len || fclose(f) != 0)
            return 1;
        double tp[99], tl[99], td[99], tg[99];
        em_error e;
        for (int r = 0; r < runs; r++) {
            em_scn *s;
            double t0 = now_s();
            if (em_scn_new(&(em_scn_spec){.text = t, .len = len, .name = "bench"}, &s, &e) != EM_OK) {
                fprintf(stderr, "%s\n", e.msg);
                return 1;
            }
            tp[r] = now_s() - t0;
            em_free(s);
            t0 = now_s();
            if (em_scn_new(&(em_scn_spec){.path = path}, &s, &e) != EM_OK) {
                fprintf(stderr, "%s\n", e.msg);
                return 1;
            }
            tl[r] = now_s() - t0;
            t0 = now_s();
            if (em_scn_doubles(s, &e) != EM_OK)
                return 1;
            td[r] = now_s() - t0;
            mpq_t q;
            mpq_init(q);
            t0 = now_s();
            for (size_t i = 0; i < s->n; i++)
                em_scn_get_u(s, i, q);
            tg[r] = now_s() - t0;
            mpq_clear(q);
            em_free(s);
        }
        printf("%-8s %10.4f %10.4f %10.4f %10.4f\n", kinds[k], median(tp, runs),
               median(tl, runs), median(td, runs), median(tg, runs));
        free(t);
    }
    remove(path);
    return 0;
}
