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
    const char *name, *what;
    for (size_t i = 0; rc < 0 && p.list && !p.n && (name = em_example_name(i, &what)); i++)
        printf("%-13s %s\n", name, what);
    if (rc >= 0 || (p.list && !p.n))
        return rc >= 0 ? rc : EM_EXIT_OK;
    if (p.list || p.n != 1 || p.name[0] == '-')
        return em_cli_usage(CMD, "expected one NAME (see --list)");
    char *text = NULL;
    em_error e;
    if (em_example(p.name, &text, &e) == EM_OK) {
        fputs(text, stdout);
        em_free(text);
        return fflush(stdout) != 0 || ferror(stdout) ? EM_EXIT_INTERNAL : EM_EXIT_OK;
    }
    if (e.status != EM_ERR_DOMAIN)
        return em_cli_fail(CMD, NULL, &e);
    fprintf(stderr, CMD ": unknown example '%s'; known:", p.name);
    for (size_t i = 0; (name = em_example_name(i, NULL)); i++)
        fprintf(stderr, " %s", name);
    fputc('\n', stderr);
    return EM_EXIT_USAGE;
}
