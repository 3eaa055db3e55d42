/* fuzz_number: the exact number parser (em_q_parse) and the exact-to-double rounding.
 * Invariants checked beyond "no crash, no leak, no UB": a finite parse gives a canonical
 * rational; em_q_to_string of it parses back to the same rational. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expmech.h"
#include "num/em_rational.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    mpq_t q, r;
    mpq_inits(q, r, (mpq_ptr)0);
    int kind;
    const char *msg = NULL;
    if (em_q_parse((const char *)data, size, 1, q, &kind, &msg) == EM_OK && kind == EM_Q_FINITE) {
        int ov;
        (void)em_q_get_d(q, &ov);
        char *s = em_q_to_string(q, 40);
        int k2;
        if (!s || em_q_parse_str(s, 0, r, &k2, NULL) != EM_OK || !mpq_equal(q, r))
            abort(); /* what expmech writes, expmech reads */
        free(s);
    }
    mpq_clears(q, r, (mpq_ptr)0);
    return 0;
}
