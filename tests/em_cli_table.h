/* em_cli_table.h: table-driven command-line tests (test_harden2.c, test_harden3.c): a row is
 * a shell command, the exit status it must give and fragments its stderr and stdout must
 * hold, so a case of bad or edge input is one line of a table and every case is checked
 * the same way. */
#ifndef EM_CLI_TABLE_H
#define EM_CLI_TABLE_H

#include <check.h>
#include <string.h>

#include "em_cli_util.h"

typedef struct em_cli_row {
    const char *id;
    const char *cmd;   /* sh command line, $E the program */
    int exit;
    const char *err;   /* fragment of stderr (NULL: not checked) */
    const char *out;   /* fragment of stdout (NULL: not checked; "": stdout empty) */
} em_cli_row;

/* Run r's command in the test's directory and check its exit status and output. */
static inline void em_cli_table_check(const em_cli_row *r)
{
    int st = run("(%s)", r->cmd);
    ck_assert_msg(st == r->exit, "[%s] %s: exit %d (expected %d)\nstdout: %s\nstderr: %s", r->id,
                  r->cmd, st, r->exit, out, errtxt);
    if (r->err)
        ck_assert_msg(strstr(errtxt, r->err) != NULL, "[%s] %s: stderr lacks '%s':\n%s", r->id,
                      r->cmd, r->err, errtxt);
    if (r->out && !r->out[0])
        ck_assert_msg(out[0] == 0, "[%s] %s: stdout not empty:\n%s", r->id, r->cmd, out);
    else if (r->out)
        ck_assert_msg(strstr(out, r->out) != NULL, "[%s] %s: stdout lacks '%s':\n%s", r->id,
                      r->cmd, r->out, out);
}

#endif
