/* em_spawn.c: running a program (em_spawn.h). */
#include "io/em_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "em_base.h"

extern char **environ;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void nap(void)
{
    struct timespec t = {0, 1000000}; /* 1 ms */
    nanosleep(&t, NULL);
}

typedef struct sink {
    char *buf;
    size_t len, cap;
} sink;

/* p[0..need) after what s holds; -1: no memory (s unchanged) */
static int append(sink *s, const char *p, size_t need)
{
    if (s->len + need > s->cap) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap < s->len + need)
            cap *= 2;
        char *b = realloc(s->buf, cap);
        if (!b)
            return -1;
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, need);
    s->len += need;
    return 0;
}

/* kill the program and everything in its process group, then reap it */
static int kill_reap(pid_t pid)
{
    int status = 0;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

int em_spawn_run(const char *const *argv, const em_spawn_opts *opts, em_spawn_out *o)
{
    memset(o, 0, sizeof *o);
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) != 0)
        return EM_ERR_DOMAIN;
    if (pipe2(pe, O_CLOEXEC) != 0) {
        close(po[0]), close(po[1]);
        return EM_ERR_DOMAIN;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    if (opts->in_fd > 0)
        posix_spawn_file_actions_adddup2(&fa, opts->in_fd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawnattr_init(&at);
    /* a process group of its own (killed whole), default signal handling (a binding's
     * process may ignore SIGPIPE, and the child would inherit that) */
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETSIGMASK);
    double t0 = now();
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(po[1]);
    close(pe[1]);
    if (e != 0) {
        close(po[0]), close(pe[0]);
        o->how = EM_SPAWN_NOT_STARTED;
        o->code = e;
        return EM_OK;
    }
    sink out = {0}, err = {0};
    int st = EM_OK, open_out = 1, open_err = 1, killed = 0;
    uint64_t lines = 0;
    double deadline = t0 + opts->timeout;
    char chunk[1 << 16];
    while (open_out || open_err) {
        double left = deadline - now();
        if (left <= 0) {
            o->how = EM_SPAWN_TIMEOUT;
            killed = 1;
            break;
        }
        struct pollfd fds[2] = {{open_out ? po[0] : -1, POLLIN, 0},
                                {open_err ? pe[0] : -1, POLLIN, 0}};
        int ms = left > 1000 ? 1000 : (int)(left * 1000) + 1;
        int r = poll(fds, 2, ms);
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; r > 0 && i < 2; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t k = read(fds[i].fd, chunk, sizeof chunk);
            if (k < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (k <= 0) {
                if (i == 0)
                    open_out = 0;
                else
                    open_err = 0;
                continue;
            }
            if (i == 0) {
                for (ssize_t j = 0; j < k; j++)
                    lines += chunk[j] == '\n';
                if (out.len + (size_t)k > opts->max_out_bytes || lines > opts->max_lines) {
                    /* keep what fits: the reader names the line past the count */
                    size_t room = opts->max_out_bytes > out.len ? opts->max_out_bytes - out.len : 0;
                    size_t keep = (size_t)k < room ? (size_t)k : room;
                    if (keep)
                        (void)append(&out, chunk, keep);
                    o->how = EM_SPAWN_FLOOD;
                    killed = 1;
                    open_out = open_err = 0;
                    break;
                }
            }
            if (append(i == 0 ? &out : &err, chunk, (size_t)k) != 0) {
                st = EM_ERR_NOMEM;
                killed = 1;
                open_out = open_err = 0;
                break;
            }
            if (i == 1 && err.len > 2 * opts->err_keep) { /* keep the end only */
                memmove(err.buf, err.buf + err.len - opts->err_keep, opts->err_keep);
                err.len = opts->err_keep;
            }
        }
    }
    close(po[0]);
    close(pe[0]);
    int status = 0;
    if (killed) {
        status = kill_reap(pid);
    } else {
        /* both pipes closed: wait for the exit, up to the deadline */
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid)
                break;
            if (w < 0 && errno != EINTR) {
                status = 0;
                break;
            }
            if (now() > deadline) {
                o->how = EM_SPAWN_TIMEOUT;
                status = kill_reap(pid);
                killed = 1;
                break;
            }
            nap();
        }
        kill(-pid, SIGKILL); /* what it left running in its group */
    }
    if (!killed) {
        if (WIFSIGNALED(status)) {
            o->how = EM_SPAWN_SIGNALED;
            o->code = WTERMSIG(status);
        } else {
            o->how = EM_SPAWN_EXITED;
            o->code = WEXITSTATUS(status);
        }
    }
    if (err.len > opts->err_keep) {
        memmove(err.buf, err.buf + err.len - opts->err_keep, opts->err_keep);
        err.len = opts->err_keep;
    }
    o->out = out.buf;
    o->out_len = out.len;
    o->err = err.buf;
    o->err_len = err.len;
    o->seconds = now() - t0;
    if (st != EM_OK) {
        free(o->out), free(o->err);
        memset(o, 0, sizeof *o);
    }
    return st;
}
