/* commands.h: the subcommands of the `expmech` program.
 *
 * Each subcommand is `int cmd_NAME(int argc, char **argv)` with argv[0] the
 * subcommand's name; it returns the process exit status:
 *   0 success (or "pass"), 1 a negative verdict (reject / privacy violated),
 *   2 bad input or usage (a message naming the problem went to stderr),
 *   3 internal or resource failure (random source, memory, a write error on standard
 *     output: main checks the final flush and close for every command),
 *   4 too little data to test (check: no cell expects enough draws and nothing is
 *     impossible at alpha): neither pass nor reject.
 */
#ifndef EM_CLI_COMMANDS_H
#define EM_CLI_COMMANDS_H

#define EM_EXIT_OK 0
#define EM_EXIT_REJECT 1
#define EM_EXIT_USAGE 2
#define EM_EXIT_INTERNAL 3
#define EM_EXIT_INSUFFICIENT 4

typedef struct em_command {
    const char *name;
    int (*run)(int argc, char **argv);
} em_command;

int cmd_demo(int argc, char **argv);
int cmd_probs(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_example(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_cdf(int argc, char **argv);
int cmd_density(int argc, char **argv);
int cmd_quantile(int argc, char **argv);
int cmd_utility(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_groups(int argc, char **argv);
int cmd_conform(int argc, char **argv);

/* The table is defined in expmech.c; each command lives in cmd_NAME.c. */
extern const em_command em_commands[];

#endif
