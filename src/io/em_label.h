/* em_label.h: how a label is shown to a person.
 *
 * The rule (docs/cli.md, "Labels"): a label is data, and reaches each reader in the form that
 * reader can take back:
 *   - CSV output (probs, sample) writes the label's bytes exactly, quoted as the scenario
 *     parser reads them back (em_csv_label): the round trip is exact;
 *   - JSON output escapes every control character as \u00XX (and " and \);
 *   - human output (tables, verdicts, messages on stderr, and CSV written to a terminal)
 *     shows C0 controls, DEL and bytes that are not UTF-8 as \xHH, the C1 controls U+0080..U+009F as \u00HH, and a
 *     backslash as \\, so that no label can move the cursor, recolour or retitle the
 *     terminal, and the text shown still names the label unambiguously.
 */
#ifndef EM_IO_LABEL_H
#define EM_IO_LABEL_H

#include <stdio.h>

/* the label escaped as above */
void em_label_human(FILE *f, const char *s);

/* 1 when em_label_human would change s (a control character or a backslash) */
int em_label_needs_escape(const char *s);

/* the same into buf (cap bytes, NUL-terminated, truncated with "..." past max_in bytes of
 * s when max_in > 0); returns buf */
char *em_label_human_str(char *buf, size_t cap, const char *s, size_t max_in);

#endif
