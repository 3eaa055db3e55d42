/* cmd_example.c: `expmech example NAME`: the seed documents' scenarios (em_example.h). */
#include "cli/cli_util.h"
#include "cli_help.h"

#define CMD "expmech example"

typedef struct args {
    const char *name;
    int list, n;
} args;

static int name_arg(void *dst, const char *cmd, const char *a)
{
    (void)cmd;
    ((args *)dst)->name = a;
    ((args *)dst)->n++;
    return -1;
}

static const em_cli_opt opts[] = {EM_CLI_FLAG_AT("--list", args, list), EM_CLI_END};

int cmd_example(int argc, char **argv)
{
    const em_cli_spec sp = {CMD, EM_HELP_example, opts, .arg = name_arg};
    args p = {NULL, 0, 0};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &p, &given);
    if (rc >= 0)
        return rc;
    if (p.list ? p.n != 0 : p.n != 1 || p.name[0] == '-')
        return em_cli_usage(CMD, "expected one NAME (see --list)");
    char *text = NULL; /* --list: "NAME\tWHAT\n" a line (em_example.h) */
    em_error e;
    if (em_example(p.list ? NULL : p.name, &text, &e) != EM_OK)
        return em_cli_fail(CMD, NULL, &e);
    for (char *l = text, *tab; p.list && (tab = strchr(l, '\t')); l = strchr(tab, '\n') + 1)
        printf("%-13.*s %.*s\n", (int)(tab - l), l, (int)strcspn(tab + 1, "\n"), tab + 1);
    if (!p.list)
        fputs(text, stdout);
    em_free(text);
    return EM_EXIT_OK; /* a write error: main's to name */
}
