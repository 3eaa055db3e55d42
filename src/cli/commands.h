/* commands.h: the subcommands of `expmech`, each `int cmd_NAME(int argc, char **argv)`
 * (argv[0] its name), returning the exit status (man/expmech.1, EXIT STATUS);
 * main (expmech.c) checks the final flush of standard output for every command. */
#ifndef EM_CLI_COMMANDS_H
#define EM_CLI_COMMANDS_H

#define EM_EXIT_OK 0
#define EM_EXIT_REJECT 1       /* a negative verdict: reject, privacy violated */
#define EM_EXIT_USAGE 2        /* bad input or usage, after a message */
#define EM_EXIT_INTERNAL 3     /* internal or resource failure, a write error */
#define EM_EXIT_INSUFFICIENT 4 /* too little data to test: neither pass nor reject */

typedef struct em_command { const char *name; int (*run)(int argc, char **argv); } em_command;

int cmd_demo(int argc, char **argv), cmd_probs(int argc, char **argv),
    cmd_sample(int argc, char **argv), cmd_check(int argc, char **argv),
    cmd_compare(int argc, char **argv), cmd_example(int argc, char **argv),
    cmd_audit(int argc, char **argv), cmd_score(int argc, char **argv),
    cmd_cdf(int argc, char **argv), cmd_density(int argc, char **argv),
    cmd_quantile(int argc, char **argv), cmd_utility(int argc, char **argv),
    cmd_plot(int argc, char **argv), cmd_groups(int argc, char **argv),
    cmd_conform(int argc, char **argv);

extern const em_command em_commands[]; /* expmech.c */

#endif
