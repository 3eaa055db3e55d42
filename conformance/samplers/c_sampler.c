/* c_sampler: a correct sampler for every kind of the conformance battery in C, over
 * libexpmech's public API only: the case read by em_case_new, its law by em_case_mech,
 * exact draws by em_sampler_draw (ChaCha20 keyed by SEED).
 *
 *   c_sampler CASE.json N SEED          (conformance/README.md: the protocol)
 *
 * Labels for the finite kinds, "%.17g" of each double for the others.  A case the library
 * refuses is refused here too: exit 1 with its message. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "expmech.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: c_sampler CASE.json N SEED\n");
        return 2;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(argv[2], &end, 10);
    unsigned long long seed = strtoull(argv[3], &end, 10);
    em_case *c = NULL;
    em_scn *s = NULL;
    em_mech *m = NULL;
    em_error e;
    if (em_case_new(&(em_case_spec){.path = argv[1]}, &c, &e) != EM_OK || em_case_mech(c, &s, &m, &e) != EM_OK) {
        fprintf(stderr, "c_sampler: refused: %s\n", e.msg);
        em_free(c);
        return 1;
    }
    em_sample_opts o = EM_SAMPLE_OPTS_INIT;
    o.seed = seed;
    o.seeded = 1;
    int rc = 0;
    /* one draw type for finite and continuous mechanisms: a label or a value */
    const int cont = em_scn_get(s).continuous;
    em_draw *d = malloc((n ? n : 1) * sizeof *d);
    em_sampler *sp = NULL;
    if (!d || em_sampler_new(m, &o, &sp, &e) != EM_OK || em_sampler_draw(sp, n, d, &e) != EM_OK)
        rc = 3;
    em_free(sp);
    for (unsigned long long i = 0; !rc && i < n; i++) {
        if (cont)
            printf("%.17g\n", d[i].value);
        else
            printf("%s\n", em_scn_label(s, d[i].index));
    }
    free(d);
    if (rc)
        fprintf(stderr, "c_sampler: %s\n", e.msg);
    em_free(m);
    em_free(s);
    em_free(c);
    if (fflush(stdout) != 0)
        rc = 3;
    return rc;
}
