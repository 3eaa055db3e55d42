/* cmd_sample.c: `expmech sample`: exact draws (src/oracle/em_exact.c, the default) or
 * draws from the verified core's float sampler (--sampler float). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/cmd_cont.h"
#include "cli/commands.h"
#include "io/em_scenario.h"
#include "expmech.h"
#include "oracle/em_exact.h"
#include "oracle/em_pf.h"
#include "oracle/em_rational.h"

static const char help[] =
    "usage: expmech sample --epsilon E [--sensitivity D] [--variant V] [-n N] [--seed S]\n"
    "                      [--sampler exact|float] [FILE]\n"
    "\n"
    "Draws N labels (default 1), one per line, from the exponential mechanism over the\n"
    "scenario FILE ('-' or none: standard input).\n"
    "\n"
    "--sampler exact (the default): exact sampling from the exact rational inputs: the\n"
    "uniform is drawn bit by bit and a label is output only when the bits drawn place it\n"
    "certainly inside one cell of the cumulative distribution, bounded by MPFR intervals\n"
    "(src/oracle/em_exact.c; the integer decision em_exact_select is proven by WP).  Given\n"
    "fair bits, the output distribution is exactly the ideal one (spec/ExactSampling.md).\n"
    "\n"
    "--sampler float: the verified core's fast path: utilities, E and D rounded to the\n"
    "nearest doubles, max-shifted log-weights (em_logweights), fixed-point weights\n"
    "(em_weights_fixed) and an exact integer draw among them (em_sample_fixed, rejection\n"
    "sampling, never modulo); its distribution differs from the ideal by rounding.\n"
    "WARNING: the float sampler can break pure epsilon-DP: a weight that rounds to 0 on\n"
    "one neighbour and not on the other gives an infinite privacy loss (`expmech audit`\n"
    "on utilities 0, -1490 vs 0, -1491 at epsilon 1, sensitivity 1 shows it).  Use it for\n"
    "speed comparisons, not for releases; a note on standard error says so each time.\n"
    "\n"
    "  --epsilon E        privacy parameter, > 0 (required)\n"
    "  --sensitivity D    sensitivity (default: the file's header, else 1)\n"
    "  --variant V        standard (default, also under '# monotone: yes'), monotone\n"
    "                     (needs that header), or pf: permute-and-flip\n"
    "                     (McKenna & Sheldon 2020; acceptance exp(E (u - u*) / (2 D)),\n"
    "                     exact sampler only; spec/PermuteAndFlip.md)\n"
    "  --sampler S        exact (default) or float (not pure epsilon-DP: see above)\n"
    "  --timing T         variable (default) or fixed: the exact sampler of a finite\n"
    "                     scenario reads one 63-bit chunk and scans all n + 1 bounds on\n"
    "                     every draw, so its work does not depend on the output (the\n"
    "                     slow path runs with probability <= n 2^-60 per draw;\n"
    "                     SECURITY.md has the measured times)\n"
    "  --force            run a --sensitivity below the file's header, or --variant monotone\n"
    "                     without '# monotone: yes' (refused otherwise: not epsilon-DP)\n"
    "  -n N               number of draws (default 1)\n"
    "  --seed S           reproducible draws from ChaCha20 keyed by S (an integer, decimal\n"
    "                     or 0x hex); without it, the operating system's CSPRNG\n"
    "                     (getrandom), as privacy requires\n"
    "\n"
    "Scale: at most 33554432 (2^25) candidates; past that the command stops while\n"
    "reading, exit status 2, with a message naming the limit.  EXPMECH_MAX_CANDIDATES=N\n"
    "(environment, 1 to 2^30) sets another.  Memory: about 55 bytes per candidate, 85\n"
    "with decimals of more than 18 digits (10^7 candidates: 0.55 to 0.87 GB).\n"
    "Standard error names the variant and sensitivity used and where each came from.\n"
    "Exit status: 0 success, 2 bad input, 3 random source or memory failure, or a write\n"
    "error on standard output (sampling stops at the first failed write).\n";

/* The exact sampler's loop: -n draws, labels to stdout. */
static int sample_exact(em_cli *c, em_scenario *sc, mpq_t delta, int variant, int pf,
                        int fixed_timing)
{
    em_exact *x = NULL;
    em_pf *y = NULL;
    em_usrc src = {em_scenario_usrc_get, sc};
    int st = pf ? em_scenario_expand(sc) : EM_OK; /* em_pf takes rationals */
    if (st == EM_OK)
        st = pf ? em_pf_new(sc->n, sc->u, sc->excluded, c->eps, delta, EM_STANDARD, &y)
                : em_exact_new_src(sc->n, &src, sc->excluded, c->eps, delta, variant, &x);
    if (st == EM_OK && fixed_timing) /* SECURITY.md: one 63-bit read, one full scan per draw */
        st = em_exact_set_first_chunk(x, 63);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c->cmd, em_strerror(st));
        return em_cli_status_exit(st);
    }
    em_rng rng;
    st = (c->seen & EM_OPT_SEED) ? em_rng_init_chacha(&rng, c->seed) : em_rng_init_os(&rng);
    if (st != EM_OK) {
        fprintf(stderr, "%s: random source: %s\n", c->cmd, em_strerror(st));
        em_exact_free(x);
        em_pf_free(y);
        return EM_EXIT_INTERNAL;
    }
    em_bits b;
    em_bits_init_rng(&b, &rng);
    for (uint64_t k = 0; k < c->n; k++) {
        size_t idx;
        st = pf ? em_pf_sample(y, &b, &idx) : em_exact_sample(x, &b, &idx);
        if (st != EM_OK) {
            fprintf(stderr, "%s: draw %llu: %s\n", c->cmd, (unsigned long long)k,
                    em_strerror(st));
            em_exact_free(x);
            em_pf_free(y);
            return em_cli_status_exit(st);
        }
        em_cli_csv_label(sc->labels[idx]);
        putchar('\n');
        if (ferror(stdout)) { /* the first failed write: drawing on would be wasted */
            fprintf(stderr, "%s: write error on standard output after %llu draw(s); stopped\n",
                    c->cmd, (unsigned long long)k + 1);
            em_exact_free(x);
            em_pf_free(y);
            return EM_EXIT_INTERNAL;
        }
    }
    em_exact_free(x);
    em_pf_free(y);
    return -1;
}

int cmd_sample(int argc, char **argv)
{
    /* --sampler and --timing are this command's own options: taken out before the shared
       parser.  Each takes one word from a fixed list. */
    static const char *const words[2][3] = {{"exact", "float", NULL}, {"variable", "fixed", NULL}};
    static const char *const names[2] = {"--sampler", "--timing"};
    int choice[2] = {0, 0}, bad = -1;
    char **av = malloc(((size_t)argc + 1) * sizeof *av);
    int ac = 0;
    if (!av) {
        fprintf(stderr, "expmech sample: out of memory\n");
        return EM_EXIT_INTERNAL;
    }
    for (int i = 0; i < argc && bad < 0; i++) {
        if (i > 0 && !strcmp(argv[i], "--")) {
            while (i < argc)
                av[ac++] = argv[i++];
            break;
        }
        int o = -1;
        const char *v = NULL;
        for (int k = 0; k < 2 && o < 0; k++) {
            size_t len = strlen(names[k]);
            if (i > 0 && !strcmp(argv[i], names[k])) {
                o = k;
                v = i + 1 < argc ? argv[++i] : NULL;
            } else if (i > 0 && !strncmp(argv[i], names[k], len) && argv[i][len] == '=') {
                o = k;
                v = argv[i] + len + 1;
            }
        }
        if (o < 0) {
            av[ac++] = argv[i];
            continue;
        }
        bad = o;
        for (int w = 0; v && words[o][w]; w++)
            if (!strcmp(v, words[o][w])) {
                choice[o] = w;
                bad = -1;
            }
    }
    av[ac] = NULL;
    if (bad >= 0) {
        fprintf(stderr, "expmech sample: %s takes '%s' or '%s'\n", names[bad], words[bad][0],
                words[bad][1]);
        free(av);
        return EM_EXIT_USAGE;
    }
    const int use_float = choice[0] == 1, fixed_timing = choice[1] == 1;
    argc = ac;
    argv = av;

    if (use_float)
        fprintf(stderr, "expmech sample: --sampler float: the float path can break pure "
                        "epsilon-DP (weights that round to 0 on one neighbour only: infinite "
                        "privacy loss, see `expmech audit`); the exact sampler (the default) "
                        "does not\n");
    em_cli c;
    em_cli_init(&c, "expmech sample");
    em_scenario sc;
    em_scenario_init(&sc);
    sc.compact = 1; /* 10 bytes per utility, not an mpq's 100: 10^7 candidates in < 1 GB */
    mpq_t delta;
    mpq_init(delta);
    double *lw = NULL;
    uint64_t *W = NULL;
    int variant;
    int rc = em_cli_start(&c, argc, argv,
                          EM_OPT_EPSILON | EM_OPT_SENSITIVITY | EM_OPT_VARIANT | EM_OPT_N |
                              EM_OPT_SEED | EM_OPT_FILE,
                          EM_OPT_EPSILON, help, &sc, delta, &variant);
    if (rc >= 0)
        goto done;
    if (fixed_timing && (use_float || sc.continuous || sc.has_measure ||
                         variant == EM_CLI_VARIANT_PF)) {
        fprintf(stderr, "%s: --timing fixed is offered by the exact sampler of a finite "
                        "scenario only: the continuous sampler's time reveals the piece, "
                        "permute-and-flip's the visiting order (SECURITY.md)\n", c.cmd);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    if (sc.continuous || sc.has_measure) {
        rc = em_cli_cont_sample(&c, &sc, delta, variant, use_float);
        if (rc >= 0)
            goto done;
        goto flush;
    }
    const int pf = variant == EM_CLI_VARIANT_PF;
    if (pf && use_float) {
        fprintf(stderr, "%s: --variant pf has only the exact sampler\n", c.cmd);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    if (!use_float) {
        rc = sample_exact(&c, &sc, delta, variant, pf, fixed_timing);
        if (rc >= 0)
            goto done;
        goto flush;
    }
    if (em_scenario_doubles(&sc) != EM_OK) { /* compact: doubles made on demand */
        fprintf(stderr, "%s: out of memory\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    for (size_t i = 0; i < sc.n; i++)
        if (!sc.excluded[i] && isinf(sc.ud[i])) {
            fprintf(stderr, "%s: %s:%lu: utility of '%s' is beyond double's range; the float "
                            "sampler cannot take it (expmech probs can)\n",
                    c.cmd, sc.name, em_scenario_line(&sc, i), em_cli_human(sc.labels[i]));
            rc = EM_EXIT_USAGE;
            goto done;
        }
    double eps = em_q_get_d(c.eps, NULL), del = em_q_get_d(delta, NULL);
    int st = em_check_params(eps, del, variant);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s (as doubles: epsilon %g, sensitivity %g)\n", c.cmd,
                em_strerror(st), eps, del);
        rc = EM_EXIT_USAGE;
        goto done;
    }
    lw = malloc(sc.n * sizeof *lw);
    W = malloc(sc.n * sizeof *W);
    if (!lw || !W) {
        fprintf(stderr, "%s: out of memory\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    size_t argmax;
    uint64_t total, scale;
    st = em_logweights(sc.n, sc.ud, eps, del, variant, lw, &argmax);
    if (st == EM_OK)
        st = em_weights_fixed(sc.n, lw, W, &total, &scale);
    if (st != EM_OK) {
        fprintf(stderr, "%s: %s\n", c.cmd, em_strerror(st));
        rc = em_cli_status_exit(st);
        goto done;
    }
    em_rng rng;
    st = (c.seen & EM_OPT_SEED) ? em_rng_init_chacha(&rng, c.seed) : em_rng_init_os(&rng);
    if (st != EM_OK) {
        fprintf(stderr, "%s: random source: %s\n", c.cmd, em_strerror(st));
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    for (uint64_t k = 0; k < c.n; k++) {
        size_t idx;
        st = em_sample_fixed(sc.n, W, total, &rng, &idx);
        if (st != EM_OK) {
            fprintf(stderr, "%s: draw %llu: %s\n", c.cmd, (unsigned long long)k, em_strerror(st));
            rc = em_cli_status_exit(st);
            goto done;
        }
        em_cli_csv_label(sc.labels[idx]);
        putchar('\n');
        if (ferror(stdout)) {
            fprintf(stderr, "%s: write error on standard output after %llu draw(s); stopped\n",
                    c.cmd, (unsigned long long)k + 1);
            rc = EM_EXIT_INTERNAL;
            goto done;
        }
    }
flush:
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", c.cmd);
        rc = EM_EXIT_INTERNAL;
        goto done;
    }
    rc = EM_EXIT_OK;
done:
    free(lw);
    free(W);
    mpq_clear(delta);
    em_scenario_free(&sc);
    em_cli_free(&c);
    free(av);
    return rc;
}
