/* em_scn_label.c: the public form of a label for a person (em_scn.h) over io/em_label.h's,
 * which it is. */
#include "em_scn.h"
#include "io/em_label.h"

char *em_scn_human_label(char *buf, size_t cap, const char *s, size_t max_in)
{
    return em_label_human_str(buf, cap, s, max_in);
}
