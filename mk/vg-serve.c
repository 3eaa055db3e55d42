/* vg-serve: the command-line program under valgrind without valgrind's start-up per run.
 *
 * make valgrind runs a few hundred chosen test runs of the program under memcheck.  Started
 * anew, memcheck spends most of a short run reading the symbols of the program and its
 * libraries (about 0.8 s a process here).  Instead one server starts under valgrind once;
 * every run is a fork of it that calls the program's main (src/cli/expmech.c, compiled
 * with main renamed em_cli_entry), and memcheck follows a fork without starting again:
 * the child is instrumented, reports its own memory errors and runs its own leak check at
 * exit, and --error-exitcode applies to it as to any process.  A run differs from an
 * exec of the program only in that the dynamic loader ran once, before the fork.
 *
 *   vg-serve --serve SOCKET [WARM] (under valgrind) accept runs on the Unix socket SOCKET,
 *                                  after running the commands of the file WARM in this
 *                                  process (below)
 *   vg-serve --run SOCKET ARGS...  one run: send the arguments, the environment, the working
 *                                  directory and descriptors 0, 1, 2 to the server; exit as
 *                                  the run did (its status, or the same signal)
 *
 * Most of what memcheck spends on a short run is translating the code the run executes
 * (0.45 s for `probs` on 7 candidates, which takes 1 ms alone), and a fork inherits the
 * translations made before it.  So the server first runs a few typical commands itself
 * (WARM: one a line, "STATUS COMMAND ARGS...", arguments without spaces, standard input
 * empty, output discarded; the command's own function, as main calls it), under memcheck like any run: a run afterwards translates only the
 * code those did not reach (the same `probs`: 0.07 s).  A warm-up command that does not
 * exit with its STATUS stops the server (exit 96), so the list cannot rot unseen; a
 * memory error in it is the server's, reported by memcheck, and a block it leaks would
 * be reported again by every run's leak check.
 *
 * Per run the server forks a handler, which forks the run and waits for it, sending its wait
 * status back; if the client goes away (a test's timeout killed it), the run is killed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"

int em_cli_entry(int argc, char **argv);

extern char **environ;

#define MAX_MSG (16u << 20)

static int die(const char *what)
{
    fprintf(stderr, "vg-serve: %s: %s\n", what, strerror(errno));
    return 96;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int connect_to(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(a.sun_path, path);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
        close(s);
        return -1;
    }
    return s;
}

/* The request: a header of the three counts and the byte length of the strings (argv, then
 * the environment, then the working directory, each NUL-terminated), the strings, and the
 * open ones of fds 0, 1, 2 in the header's control message (a test may close one: <&-). */
typedef struct {
    uint32_t argc, envc, len;
    uint32_t closed; /* bit k: the client's descriptor k was closed (not sent) */
} req_head;

static int client(const char *sock, int argc, char **argv)
{
    /* which of 0, 1, 2 are closed; then hold those places with /dev/null, so the socket
       does not take one */
    uint32_t closed = 0;
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) {
            closed |= 1u << fd;
            if (open("/dev/null", O_RDWR) != fd)
                return die("/dev/null");
        }
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return die("getcwd");
    size_t envc = 0, len = strlen(cwd) + 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    for (; environ[envc]; envc++)
        len += strlen(environ[envc]) + 1;
    if (len > MAX_MSG) {
        errno = E2BIG;
        return die("arguments");
    }
    char *buf = malloc(len), *p = buf;
    if (!buf)
        return die("malloc");
    for (int i = 0; i < argc; i++)
        p = stpcpy(p, argv[i]) + 1;
    for (size_t i = 0; i < envc; i++)
        p = stpcpy(p, environ[i]) + 1;
    strcpy(p, cwd);
    int s = connect_to(sock);
    if (s < 0)
        return die(sock);
    req_head h = {(uint32_t)argc, (uint32_t)envc, (uint32_t)len, closed};
    int fds[3], nfd = 0;
    for (int fd = 0; fd < 3; fd++)
        if (!(closed >> fd & 1))
            fds[nfd++] = fd;
    char ctl[CMSG_SPACE(sizeof fds)] = {0};
    struct iovec iov = {&h, sizeof h};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                       .msg_controllen = sizeof ctl};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(nfd * sizeof *fds);
    m.msg_controllen = CMSG_SPACE(nfd * sizeof *fds);
    memcpy(CMSG_DATA(c), fds, nfd * sizeof *fds);
    if (nfd == 0) {
        m.msg_control = NULL;
        m.msg_controllen = 0;
    }
    if (sendmsg(s, &m, 0) != (ssize_t)sizeof h || write_all(s, buf, len) < 0)
        return die("send");
    free(buf);
    /* The descriptors now live in the run too: close ours, so that a pipe the run writes to
       ends when the run ends. */
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3 && null >= 0; fd++)
        dup2(null, fd);
    int32_t st;
    if (read_all(s, &st, sizeof st) < 0) {
        fprintf(stderr, "vg-serve: no status from the server (it died?)\n");
        return 96;
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : SIGABRT;
    signal(sig, SIG_DFL);
    raise(sig);
    return 128 + sig;
}

/* The run's request, kept in static storage: memcheck sees it reachable, not leaked. */
static req_head run_h;
static char *run_buf;
static char **run_argv, **run_env;

static void run(int conn, const int fds[3])
{
    for (int fd = 0, k = 0; fd < 3; fd++)
        if (run_h.closed >> fd & 1)
            close(fd);
        else if (dup2(fds[k++], fd) < 0)
            _exit(96);
    (void)conn; /* the server's descriptors (this connection, others, the socket) end here */
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    char *p = run_buf;
    for (uint32_t i = 0; i < run_h.argc; i++, p += strlen(p) + 1)
        run_argv[i] = p;
    run_argv[run_h.argc] = NULL;
    for (uint32_t i = 0; i < run_h.envc; i++, p += strlen(p) + 1)
        run_env[i] = p;
    run_env[run_h.envc] = NULL;
    if (chdir(p) < 0)
        _exit(96);
    environ = run_env;
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    errno = 0;
    exit(em_cli_entry((int)run_h.argc, run_argv));
}

/* One run: its request read, then a fork that becomes it.  Returns the run's pid, or -1
   (the connection is then closed by the caller). */
static pid_t start_run(int conn)
{
    int fds[3] = {-1, -1, -1};
    char ctl[CMSG_SPACE(sizeof fds)];
    struct iovec iov = {&run_h, sizeof run_h};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                       .msg_controllen = sizeof ctl};
    if (recvmsg(conn, &m, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof run_h)
        return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    size_t nfd = 0;
    for (int fd = 0; fd < 3; fd++)
        nfd += !(run_h.closed >> fd & 1);
    if (nfd > 0 && (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(nfd * sizeof *fds)))
        return -1;
    if (nfd > 0)
        memcpy(fds, CMSG_DATA(c), nfd * sizeof *fds);
    pid_t pid = -1;
    if (run_h.len <= MAX_MSG && run_h.argc > 0) {
        run_buf = malloc(run_h.len);
        run_argv = malloc((run_h.argc + 1) * sizeof *run_argv);
        run_env = malloc((run_h.envc + 1) * sizeof *run_env);
        if (run_buf && run_argv && run_env && read_all(conn, run_buf, run_h.len) == 0 &&
            !run_buf[run_h.len - 1]) {
            pid = fork();
            if (pid == 0)
                run(conn, fds);
        }
        free(run_buf);
        free(run_argv);
        free(run_env);
        run_buf = NULL;
        run_argv = run_env = NULL;
    }
    for (size_t k = 0; k < nfd; k++)
        close(fds[k]);
    return pid;
}

static int chld_pipe[2];
static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
    int e = errno;
    if (sig != SIGCHLD)
        stop = 1;
    if (write(chld_pipe[1], "", 1) < 0) { /* full: a wake-up is pending anyway */
    }
    errno = e;
}

#define MAX_RUNS 256

/* The warm-up (above): each line of the file run through the program's main here. */
static int warm_up(const char *file)
{
    FILE *in = fopen(file, "r");
    if (!in)
        return die(file);
    char line[1024];
    int rc = 0, saved[3], nul = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd < 3; fd++)
        saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (nul < 0 || saved[0] < 0 || saved[1] < 0 || saved[2] < 0) {
        fclose(in);
        return die("warm-up descriptors");
    }
    while (rc == 0 && fgets(line, sizeof line, in)) {
        char copy[sizeof line], *av[64];
        int ac = 0;
        strcpy(copy, line);
        char *t = strtok(line, " \n");
        if (!t)
            continue;
        int want = atoi(t), got = -1;
        while ((t = strtok(NULL, " \n")) && ac < 63)
            av[ac++] = t;
        av[ac] = NULL;
        fflush(NULL);
        for (int fd = 0; fd < 3; fd++)
            dup2(nul, fd);
        /* the command itself, not the program's main, which closes standard output */
        for (const em_command *c = em_commands; ac > 0 && c->name; c++)
            if (!strcmp(av[0], c->name)) {
                got = em_command_run(c, ac, av);
                break;
            }
        fflush(NULL);
        for (int fd = 0; fd < 3; fd++)
            dup2(saved[fd], fd);
        clearerr(stdin);
        clearerr(stdout);
        clearerr(stderr);
        if (got != want) {
            fprintf(stderr, "vg-serve: warm-up command exited %d, not %d: %s", got, want, copy);
            rc = 96;
        }
    }
    for (int fd = 0; fd < 3; fd++)
        close(saved[fd]);
    close(nul);
    fclose(in);
    return rc;
}

/* The server: one loop over the listening socket, the live runs' connections (a hang-up
   kills the run: a test's timeout killed its client) and the signal pipe (a run ended:
   its wait status goes to its client). */
static int serve(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return die(path);
    }
    strcpy(a.sun_path, path);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return die("socket");
    unlink(path);
    if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 64) < 0)
        return die(path);
    if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        return die("pipe");
    struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    static pid_t pid[MAX_RUNS];
    static int conn[MAX_RUNS];
    size_t n = 0;
    while (!stop) {
        struct pollfd pf[MAX_RUNS + 2];
        pf[0] = (struct pollfd){s, n < MAX_RUNS ? POLLIN : 0, 0};
        pf[1] = (struct pollfd){chld_pipe[0], POLLIN, 0};
        for (size_t i = 0; i < n; i++)
            pf[i + 2] = (struct pollfd){conn[i], POLLIN, 0};
        if (poll(pf, n + 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return die("poll");
        }
        char b[64];
        while (read(chld_pipe[0], b, sizeof b) > 0) {
        }
        for (size_t i = 0; i < n; i++)
            if (pf[i + 2].revents) /* the client went away: so does its run */
                kill(pid[i], SIGKILL);
        for (size_t i = 0; i < n;) {
            int st;
            if (waitpid(pid[i], &st, WNOHANG) != pid[i]) {
                i++;
                continue;
            }
            int32_t st32 = st;
            if (write_all(conn[i], &st32, sizeof st32) < 0) { /* the client is gone */
            }
            close(conn[i]);
            pid[i] = pid[n - 1];
            conn[i] = conn[n - 1];
            n--;
        }
        if (pf[0].revents & POLLIN) {
            int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
            if (c < 0)
                continue;
            pid_t p = start_run(c);
            if (p < 0) {
                close(c);
                continue;
            }
            pid[n] = p;
            conn[n++] = c;
        }
    }
    close(s);
    unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--serve")) {
        int rc = argc == 4 ? warm_up(argv[3]) : 0;
        return rc ? rc : serve(argv[2]);
    }
    if (argc >= 4 && !strcmp(argv[1], "--run"))
        return client(argv[2], argc - 3, argv + 3);
    fputs("usage: vg-serve --serve SOCKET [WARM] | vg-serve --run SOCKET PROGRAM ARGS...\n", stderr);
    return 2;
}
