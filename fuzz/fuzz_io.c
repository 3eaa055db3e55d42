/* fuzz_io: the readers and the formatter of src/io/ driven directly: the samples reader
 * (em_samples_count, all three --samples-are modes), the probabilities reader
 * (em_probs_file_parse: numbers, label,probability, probs' CSV and JSON), and the label
 * escaping of human output (em_label_human_str), and the draws reader (em_read_draws, a
 * first byte >= 0xf0).
 * Input: one byte choosing the reader (and the mode), then the file.
 * Invariants beyond "no crash, leak, UB, hang": every rejection carries a message; an
 * accepted samples file counts every draw once; an accepted probabilities file sets every
 * candidate; an escaped label holds no control character (C0, DEL, C1) and no byte that
 * is not UTF-8. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "em_base.h"
#include "io/em_label.h"
#include "io/em_text.h"
#include "io/em_probsfile.h"
#include "io/em_draws.h"
#include "io/em_samples.h"

static const char *const labels[] = {"a", "b", "1", "0", "a,b", "x\"y", "\xc3\xa9t\xc3\xa9"};
#define NL (sizeof labels / sizeof labels[0])

static long find(const void *ctx, const char *label, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < NL; i++)
        if (strlen(labels[i]) == len && !memcmp(labels[i], label, len))
            return (long)i;
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    const char *buf = (const char *)data + 1;
    size_t len = size - 1;
    em_error err = {EM_OK, ""};
    if (data[0] >= 0xf0) {
        /* the draws reader: every value read has its line, a failure says why */
        double *x = NULL;
        unsigned long *line = NULL;
        size_t n = 0;
        int st = em_read_draws(buf, len, "f", &x, &line, &n, &err);
        if (st != EM_OK && !err.msg[0])
            abort();
        for (size_t i = 0; st == EM_OK && i < n; i++)
            if (line[i] < 1 || (i > 0 && line[i] <= line[i - 1]))
                abort();
        free(x);
        free(line);
        return 0;
    }
    switch (data[0] % 3) {
    case 0: {
        static const int modes[3] = {EM_SAMPLES_AUTO, EM_SAMPLES_LABELS, EM_SAMPLES_INDICES};
        uint64_t counts[NL], total = 0, sum = 0;
        int st = em_samples_count(buf, len, "f", NL, find, NULL, modes[(data[0] / 3) % 3], counts,
                                  &total, &err);
        if (st == EM_ERR_PARSE && !err.msg[0])
            abort();
        if (st == EM_OK) {
            for (size_t i = 0; i < NL; i++)
                sum += counts[i];
            if (sum != total || total == 0)
                abort();
        }
        break;
    }
    case 1: {
        em_pvalue gv[NL];
        for (size_t i = 0; i < NL; i++) {
            mpq_init(gv[i].q);
            gv[i].set = 0;
        }
        int st = em_probs_file_parse(buf, len, "f", NL, find, NULL, gv, &err);
        if (st == EM_ERR_PARSE && !err.msg[0])
            abort();
        for (size_t i = 0; i < NL; i++) {
            if (st == EM_OK && !gv[i].set)
                abort();
            mpq_clear(gv[i].q);
        }
        break;
    }
    default: {
        char *s = malloc(len + 1), out[8192 * 6 + 16];
        if (!s)
            return 0;
        memcpy(s, buf, len);
        s[len] = 0;
        em_label_human_str(out, sizeof out, s, 0);
        size_t n = strlen(out);
        if (em_utf8_check(out, n) != n)
            abort();
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)out[i];
            if (c < 0x20 || c == 0x7f || (c == 0xc2 && i + 1 < n &&
                                          (unsigned char)out[i + 1] >= 0x80 &&
                                          (unsigned char)out[i + 1] <= 0x9f))
                abort();
        }
        free(s);
        break;
    }
    }
    return 0;
}
