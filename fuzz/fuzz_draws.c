/* fuzz_draws: what the conformance harness reads from outside: a sampler's draws (labels
 * and numbers, io/em_draws.h), case files (em_case_new of a text), and --sampler command lines
 * (em_command_split).  The first byte picks the reader; byte 1 the number of draws asked.
 * Invariants beyond "no crash, leak, UB": accepted draws are exactly the n asked for (counts
 * summing to n); every rejection carries a message; a case read back and written again
 * gives the same bytes as the first writing; a split command line has a first word. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "api/em_judge_priv.h" /* em_judge_find_label */
#include "io/em_draws.h"

static em_scn *labels_scn(void)
{
    static em_scn *s;
    if (!s) {
        const char *u[] = {"0", "0.5", "1", "-inf"}, *l[] = {"a", "b c", "é", "x,y"};
        if (em_scn_new(&(em_scn_spec){.n = 4, .utilities = u, .labels = l}, &s, NULL) != EM_OK)
            abort();
    }
    return s;
}

static const char *label_of(const void *s, size_t i)
{
    return em_scn_label(s, i);
}

static char *written(const em_case *c, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    em_error e;
    int st = em_write(c, f, NULL, &e);
    fclose(f);
    if (st != EM_OK) { /* only texts that are not UTF-8 cannot be written */
        free(buf);
        return NULL;
    }
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    int mode = data[0] % 4;
    uint64_t n = data[1] % 16;
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    em_error e = {EM_OK, ""};
    uint64_t lines;
    if (mode == 0) {
        uint64_t c[4] = {0};
        double ud[4] = {0, 0.5, 1, -1.0 / 0.0};
        em_draws_cands dc = {4, em_judge_find_label, labels_scn(), label_of, ud};
        int st = em_draws_read_labels(text, len, n, &dc, c, &lines, &e);
        if (st == EM_OK && (c[0] + c[1] + c[2] + c[3] != n || lines != n))
            abort();
        if (st != EM_OK && !e.msg[0])
            abort();
    } else if (mode == 1) {
        double x[16];
        int st = em_draws_read_numbers(text, len, n, x, &lines, &e);
        if ((st == EM_OK && lines != n) || (st != EM_OK && !e.msg[0]))
            abort();
    } else if (mode == 2) {
        em_case *c = NULL, *d = NULL;
        if (em_case_new(&(em_case_spec){.text = text, .len = len, .name = "fuzz.json"}, &c, &e) != EM_OK) {
            if (!e.msg[0])
                abort();
            return 0;
        }
        size_t l1, l2;
        char *w1 = written(c, &l1);
        if (w1) {
            if (em_case_new(&(em_case_spec){.text = w1, .len = l1, .name = "again.json"}, &d, &e) != EM_OK)
                abort(); /* what the library writes, it reads */
            char *w2 = written(d, &l2);
            if (!w2 || l1 != l2 || memcmp(w1, w2, l1))
                abort();
            free(w2);
        }
        free(w1);
        em_free(d);
        em_free(c);
    } else {
        char *line = malloc(len + 1);
        if (!line)
            return 0;
        memcpy(line, text, len);
        line[len] = 0;
        char **argv = NULL;
        int st = em_command_split(line, &argv, &e);
        if ((st == EM_OK && (!argv || !argv[0])) || (st != EM_OK && !e.msg[0]))
            abort();
        em_free(argv);
        free(line);
    }
    return 0;
}
