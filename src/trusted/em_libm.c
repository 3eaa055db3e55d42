/* The libm wrappers behind src/trusted/em_libm.h.  Outside the WP-verified core:
   their contracts are assumptions listed in proofs/TRUSTED.md. */
#include <math.h>
#include "trusted/em_libm.h"

double em_exp_nonpos(double x) { return exp(x); }

double em_log1p_sum(double y) { return log1p(y); }

double em_frexp(double x, int *e) { return frexp(x, e); }

double em_ldexp(double x, int e) { return ldexp(x, e); }
