/* em_scn_label.c: the public forms of a label (em_scn.h) over the scenario reader's
 * (io/em_scn_text.h) and the human form's (io/em_label.h), which they are. */
#include "em_scn.h"
#include "io/em_label.h"
#include "io/em_scn_text.h"

void em_scn_csv_label(FILE *f, const char *label)
{
    em_csv_label(f, label);
}

char *em_scn_human_label(char *buf, size_t cap, const char *s, size_t max_in)
{
    return em_label_human_str(buf, cap, s, max_in);
}
