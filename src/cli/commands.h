/* commands.h: the subcommands of `expmech`, each `int cmd_NAME(int argc, char **argv)`
 * (argv[0] its name) or, over a mechanism, an em_cli_cmd; the exit status (man/expmech.1, EXIT STATUS);
 * main (expmech.c) checks the final flush of standard output for every command. */
#ifndef EM_CLI_COMMANDS_H
#define EM_CLI_COMMANDS_H

#define EM_EXIT_OK 0
#define EM_EXIT_REJECT 1       /* a negative verdict: reject, privacy violated */
#define EM_EXIT_USAGE 2        /* bad input or usage, after a message */
#define EM_EXIT_INTERNAL 3     /* internal or resource failure, a write error */
#define EM_EXIT_INSUFFICIENT 4 /* too little data to test: neither pass nor reject */

/* run(argc, argv), or the command over a mechanism `oracle` (cli_util.h) */
typedef struct em_command {
    const char *name, *help;
    int (*run)(int argc, char **argv);
    const struct em_cli_cmd *oracle;
} em_command;

int cmd_demo(int argc, char **argv), cmd_example(int argc, char **argv),
    cmd_audit(int argc, char **argv), cmd_score(int argc, char **argv),
    cmd_plot(int argc, char **argv), cmd_groups(int argc, char **argv),
    cmd_conform(int argc, char **argv);
extern const struct em_cli_cmd cmd_probs, cmd_sample, cmd_check, cmd_compare, cmd_cdf,
    cmd_density, cmd_quantile, cmd_utility;

extern const em_command em_commands[]; /* expmech.c */
int em_command_run(const em_command *c, int argc, char **argv); /* argv[0]: its name */

#endif
