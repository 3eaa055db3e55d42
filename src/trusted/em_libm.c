/* The libm wrappers behind src/trusted/em_libm.h.  Outside the WP-verified core:
   their contracts are assumptions listed in proofs/TRUSTED.md. */
#include <math.h>
#include "trusted/em_libm.h"

double em_exp_nonpos(double x) { return exp(x); }

double em_log_sum(double x) { return log(x); }
