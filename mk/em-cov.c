/* em-cov.c: the edges one run of the sanitized expmech program reached, for the choice of
 * the runs that make valgrind repeats under valgrind (mk/valgrind-select.py).
 *
 * Linked into build-asan/expmech only.  Its objects are compiled with clang's
 * -fsanitize=fuzzer-no-link (the objects the fuzz harnesses share), which gives every edge
 * an inline 8-bit counter; the sanitizer runtime calls __sanitizer_cov_8bit_counters_init
 * with their array at start-up (its own definition is weak: this one replaces it).  At exit,
 * when the test harness (tests/em_cli_util.h) has named the run (EM_RUN_ID) and the
 * coverage directory (EM_COV_DIR), the counters go to EM_COV_DIR/EM_RUN_ID.PID: the process's
 * CPU time in microseconds (8 bytes, little-endian; what the chooser weighs a run by, since
 * valgrind's cost grows with it), then a bitmap, one bit an edge in counter order, which is
 * the same in every process of this binary.
 * Nothing is written otherwise, and a write that fails is silent: coverage only chooses
 * which runs valgrind repeats, and the chooser counts the edges it was given. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void __sanitizer_cov_8bit_counters_init(char *start, char *end);
void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end);

static const unsigned char *em_cov_beg, *em_cov_end;

void __sanitizer_cov_8bit_counters_init(char *start, char *end)
{
    if (!em_cov_beg) { /* one module: the program is linked statically against the library */
        em_cov_beg = (const unsigned char *)start;
        em_cov_end = (const unsigned char *)end;
    }
}

/* pc-table, part of fuzzer-no-link: unused here */
void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end)
{
    (void)beg;
    (void)end;
}

__attribute__((destructor)) static void em_cov_dump(void)
{
    const char *dir = getenv("EM_COV_DIR"), *id = getenv("EM_RUN_ID");
    if (!dir || !id || !*id || !em_cov_beg)
        return;
    size_t n = (size_t)(em_cov_end - em_cov_beg), nb = (n + 7) / 8;
    unsigned char *bits = calloc(nb ? nb : 1, 1);
    if (!bits)
        return;
    for (size_t i = 0; i < n; i++)
        if (em_cov_beg[i])
            bits[i / 8] |= (unsigned char)(1u << (i % 8));
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%ld", dir, id, (long)getpid());
    struct rusage ru;
    unsigned long long us = 0;
    if (!getrusage(RUSAGE_SELF, &ru))
        us = (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
             (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    unsigned char t[8];
    for (int k = 0; k < 8; k++)
        t[k] = (unsigned char)(us >> (8 * k));
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(t, 1, sizeof t, f);
        fwrite(bits, 1, nb, f);
        fclose(f);
    }
    free(bits);
}
