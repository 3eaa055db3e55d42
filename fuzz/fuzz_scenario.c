/* fuzz_scenario: the scenario parser (finite, '# measure: yes', '# output: continuous')
 * and, on a successful parse, the oracles over it: the finite oracle's first candidates,
 * the weighted/continuous oracle's probabilities, CDF, density and quantile at a few
 * points.  The compact parse (its fast paths: decimals without GMP, doubles without MPFR,
 * the label index built at the end) must agree with the ordinary one: the same status and
 * message, labels, lines, exact utilities, doubles bit for bit, and every label found.
 * Inputs of at most 2 KiB keep every iteration well under a second. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/em_scn_text.h"
#include "expmech.h"
#include "oracle/em_cont.h"
#include "oracle/em_oracle.h"
#include "tests/em_problem_util.h"

static void same_as_compact(em_scn *sc, int st, const em_error *err, const uint8_t *data,
                            size_t size)
{
    em_scn c;
    em_scn_init(&c);
    c.compact = 1;
    em_error cerr;
    int cst = em_scn_read(&c, (const char *)data, size, "fuzz", &cerr);
    if (cst != st || (st != EM_OK && strcmp(cerr.msg, err->msg) != 0))
        abort();
    if (st == EM_OK && !sc->continuous) {
        if (c.n != sc->n || (!c.has_measure && em_scn_doubles(&c, NULL) != EM_OK))
            abort();
        mpq_t q;
        mpq_init(q);
        for (size_t i = 0; i < sc->n; i++) {
            em_scn_get_u(&c, i, q);
            if (strcmp(c.labels[i], sc->labels[i]) != 0 || c.excluded[i] != sc->excluded[i] ||
                !mpq_equal(q, sc->u[i]) || memcmp(&c.ud[i], &sc->ud[i], sizeof(double)) != 0 ||
                em_scn_line(&c, i) != em_scn_line(sc, i) ||
                em_scn_lookup(&c, c.labels[i], strlen(c.labels[i])) != (long)i ||
                em_scn_lookup(sc, c.labels[i], strlen(c.labels[i])) != (long)i)
                abort();
        }
        mpq_clear(q);
    }
    em_scn_clear(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048)
        return 0;
    em_scn sc;
    em_scn_init(&sc);
    em_error err;
    int pst = em_scn_read(&sc, (const char *)data, size, "fuzz", &err);
    same_as_compact(&sc, pst, &err, data, size);
    if (pst != EM_OK) {
        if (!err.msg[0])
            abort(); /* every failure says why */
        em_scn_clear(&sc);
        return 0;
    }
    mpq_t eps, delta;
    mpq_inits(eps, delta, (mpq_ptr)0);
    mpq_set_ui(eps, 1, 1);
    if (sc.has_sensitivity)
        mpq_set(delta, sc.sensitivity);
    else
        mpq_set_ui(delta, 1, 1);
    em_cont *C = NULL;
    int st;
    if (sc.continuous)
        st = tp_cont_new_pieces(&sc.pieces, eps, delta, EM_STANDARD, 6, &C, err.msg, sizeof err.msg);
    else
        st = tp_cont_new_atoms(sc.n, sc.u, sc.excluded, sc.has_measure ? sc.measure : NULL, eps,
                               delta, EM_STANDARD, 6, &C, err.msg, sizeof err.msg);
    if (st == EM_OK) {
        em_cval a, b;
        em_cval_init(&a);
        em_cval_init(&b);
        size_t n = em_cont_size(C);
        for (size_t j = 0; j < n && j < 4; j++)
            (void)em_cont_prob(C, j, &a, &b);
        if (sc.continuous) {
            mpq_t x;
            mpq_init(x);
            const char *pts[] = {"0", "1/3", "-2.5", "7"};
            for (int k = 0; k < 4; k++) {
                mpq_set_str(x, pts[k][0] == '-' ? "-5/2" : pts[k], 10);
                mpq_canonicalize(x);
                (void)em_cont_cdf(C, x, &a);
                (void)em_cont_density(C, x, &a, &b);
            }
            mpq_set_ui(x, 1, 3);
            (void)em_cont_quantile(C, x, &a);
            mpq_clear(x);
        }
        em_cval_clear(&a);
        em_cval_clear(&b);
        em_cont_free(C);
    }
    if (!sc.continuous && !sc.has_measure) {
        em_oracle *o;
        if (tp_oracle_new(sc.n, sc.u, sc.excluded, eps, delta, EM_STANDARD, 6, &o) == EM_OK) {
            em_oracle_cand c;
            for (size_t i = 0; i < sc.n && i < 4; i++)
                (void)em_oracle_get(o, i, &c);
            em_oracle_free(o);
        }
    }
    mpq_clears(eps, delta, (mpq_ptr)0);
    em_scn_clear(&sc);
    return 0;
}
