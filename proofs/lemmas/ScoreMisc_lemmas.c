/* The lemmas of ScoreMisc_lemmas.h are proof obligations of this file. */
#include "proofs/lemmas/ScoreMisc_lemmas.h"
