/* em_conform_names.c: the names of the conformance suite's codes (em_conform.h:
 * em_conform_name), one function over the three tables. */
#include "em_conform.h"
#include "api/em_mistake_priv.h"

static const char *const verdict_names[EM_CONFORM_NVERDICTS] = {
    "pass", "reject", "impossible draw", "crash", "timeout", "malformed output",
    "accepted invalid input", "skipped", "undecided", "bad case file"};

const char *em_conform_verdict_name(int v)
{
    return v >= 0 && v < EM_CONFORM_NVERDICTS ? verdict_names[v] : NULL;
}

const char *em_conform_name(int table, int value)
{
    switch (table) {
    case EM_NAME_KIND: return em_kind_name(value);
    case EM_NAME_MISTAKE: return em_mistake_name(value);
    case EM_NAME_VERDICT: return em_conform_verdict_name(value);
    default: return NULL;
    }
}
