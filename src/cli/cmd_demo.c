/* cmd_demo.c: `expmech demo`: the library's demo (em_demo_write) with the draws and seed
 * given. */
#include "cli/cli_util.h"
#include "cli_help.h"

typedef struct args {
    uint64_t draws, seed;
} args;

static const em_cli_opt opts[] = {
    EM_CLI_NUM("--draws", EM_CLI_U64, args, draws, 0, 1e6, "must be an integer in [0, 1000000]"),
    EM_CLI_NUM("--seed", EM_CLI_U64, args, seed, 0, HUGE_VAL, NULL),
    EM_CLI_END,
};

int cmd_demo(int argc, char **argv)
{
    const em_cli_spec sp = {"expmech demo", EM_HELP_demo, opts, .repeat = 1};
    args a = {10, 0};
    unsigned long long given = 0;
    int rc = em_cli_options(&sp, ~0ULL, argc, argv, &a, &given);
    em_error e;
    if (rc < 0)
        rc = em_cli_written(sp.cmd, em_demo_write(stdout, a.draws, (given & 2) ? &a.seed : NULL,
                                                  &e), &e);
    return rc < 0 ? EM_EXIT_OK : rc;
}
