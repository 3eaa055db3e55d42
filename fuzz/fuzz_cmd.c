/* fuzz_cmd: every command entry point of the expmech program with fuzzed input files
 * (score: a first byte >= 0xF0).
 * Input: one byte choosing a command line from the table below, then the first file, then
 * optionally "\n@@@\n" and the second file (samples, probabilities, a CDF table, or the
 * neighbouring scenario).  libFuzzer's -close_fd_mask=3 discards the commands' standard
 * output and error (not libFuzzer's own reports); the commands must
 * return an exit status (never crash, leak, hang or hit undefined behaviour). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"

static char dir[64], f1[96], f2[96], out[96];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    strcpy(dir, "/tmp/em_fuzz_XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(f1, sizeof f1, "%s/a", dir);
    snprintf(f2, sizeof f2, "%s/b", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    if (mkdir(out, 0700) != 0)
        abort();
    return 0; /* the commands' output: run with -close_fd_mask=3 (mk/run-fuzz.sh) */
}

#define A(...) {__VA_ARGS__, NULL}
static const char *const lines[][14] = {
    A("probs", "--epsilon", "1", "F1"),
    A("probs", "--epsilon", "1", "--digits", "3", "--format", "json", "F1"),
    A("probs", "--epsilon", "1/2", "--variant", "pf", "F1"),
    A("sample", "--epsilon", "1", "-n", "3", "--seed", "1", "F1"),
    A("sample", "--epsilon", "1", "-n", "3", "--seed", "1", "--sampler", "float", "F1"),
    A("utility", "--epsilon", "1", "F1"),
    A("cdf", "--epsilon", "1", "--at", "0,1,2.5", "F1"),
    A("cdf", "--epsilon", "1", "--between", "0:1", "F1"),
    A("density", "--epsilon", "2", "--grid", "0:3:4", "F1"),
    A("quantile", "--epsilon", "1", "--at", "0.1,0.5,0.9", "F1"),
    A("check", "--epsilon", "1", "--samples", "F2", "F1"),
    A("compare", "--epsilon", "1", "--probs", "F2", "F1"),
    A("compare", "--epsilon", "1", "--cdf", "F2", "F1"),
    A("audit", "--epsilon", "1", "F1", "F2"),
    /* epsilon sweeps (range, list, log-spaced) over fuzzed scenarios */
    A("probs", "--epsilon", "1:3:3", "--format", "json", "F1"),
    A("utility", "--epsilon-log", "0.1:10:3", "--loss-at", "0.5", "F1"),
    A("cdf", "--epsilon", "1,2", "--at", "0.5", "F1"),
};
#define NLINES (sizeof lines / sizeof lines[0])
/* `score` on fuzzed data (--range, --column, --convention, --aggregated), and `groups`:
   chosen by a first byte >= 0xF0, so that the bytes below keep choosing the lines above
   (the corpus depends on it; its seeds for these lines start with 0xF0 + their index). */
static const char *const score_lines[][14] = {
    A("score", "revenue", "--data", "F1", "--range", "0:3.5"),
    A("score", "median", "--data", "F1", "--range", "0:400"),
    A("score", "quantile", "--alpha", "1/3", "--convention", "diffprivlib", "--data", "F1", "--range", "-1/2:1e3"),
    A("score", "laplace", "--data", "F1", "--range", "-inf:inf"),
    A("score", "count", "--data", "F1", "--column", "x", "--candidates", "F2"),
    A("score", "median", "--data", "F1", "--column", "v", "--range", "0:10"),
    /* 'value,count' aggregates, for a count score and a rank score */
    A("score", "frequency", "--aggregated", "--data", "F1", "--candidates", "F2"),
    A("score", "median", "--aggregated", "--data", "F1", "--range", "0:100"),
    /* groups of a CSV file (seed 001), each scored and compared */
    A("groups", "--epsilon", "1,10", "--split", "proportional", "--data", "F1", "--column", "x",
      "--group-by", "g", "--candidates", "F2"),
    /* score --group-by: one scenario file per group, written into D (emptied after each run,
       since a group's file is never overwritten) */
    A("score", "count", "--data", "F1", "--column", "x", "--candidates", "F2", "--group-by", "g",
      "--output-dir", "D"),
};
#define NSCORE (sizeof score_lines / sizeof score_lines[0])

/* The files a --group-by run left in out: removed, so that the next run starts empty. */
static void empty_out(void)
{
    DIR *d = opendir(out);
    if (!d)
        abort();
    char path[512];
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", out, e->d_name);
            if (unlink(path) != 0)
                abort();
        }
    closedir(d);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (n && fwrite(p, 1, n, f) != n)
        abort();
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 2048)
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1, n1 = n;
    const uint8_t *sep = memmem(p, n, "\n@@@\n", 5);
    if (sep)
        n1 = (size_t)(sep - p);
    put(f1, p, n1);
    if (sep)
        put(f2, sep + 5, n - n1 - 5);
    else
        put(f2, (const uint8_t *)"", 0);
    const char *const *line = data[0] >= 0xF0 ? score_lines[(data[0] - 0xF0) % NSCORE] : lines[data[0] % NLINES];
    char *argv[16];
    int argc = 0;
    for (; line[argc]; argc++)
        argv[argc] = (char *)(!strcmp(line[argc], "F1")   ? f1
                              : !strcmp(line[argc], "F2") ? f2
                              : !strcmp(line[argc], "D")  ? out
                                                          : line[argc]);
    argv[argc] = NULL;
    for (const em_command *c = em_commands; c->name; c++)
        if (!strcmp(c->name, argv[0])) {
            int rc = em_command_run(c, argc, argv);
            if (rc < 0 || rc > 4)
                abort(); /* an exit status outside the documented ones */
            break;
        }
    fflush(stdout);
    clearerr(stdout);
    empty_out();
    return 0;
}
