/*
 * tspty ROWS COLS PROGRAM [ARGS...]: runs PROGRAM on a new pseudo-terminal of ROWS x COLS, as
 * slurmstepd runs task 0 of an `srun --pty` step, and relays between the terminal and this
 * process's stdin/stdout (the pipes the step daemon gives every task): what PROGRAM writes to
 * the terminal comes out on stdout, stdin goes in as typed keys. Exits as PROGRAM did (the same
 * code, or the same signal raised again).
 *
 * Process groups: the step daemon starts this helper as the leader of a new session and sends
 * signals to its process group. The helper makes the terminal its session's controlling
 * terminal and keeps PROGRAM in its own process group, which it makes the terminal's
 * foreground group: the step daemon's signals reach PROGRAM as before, and a Ctrl-C typed on
 * the terminal reaches the same group. The helper ignores the signals it forwards that way
 * and lives until PROGRAM has ended; killed outright, it closes the terminal, which hangs up
 * PROGRAM.
 *
 * Input: tsrun escapes its stdin for this helper (src/commands/tsrun/pty-input.ts): a 0xFF byte
 * comes as 0xFF 0xFF, and 0xFF 'W' ROWS COLS (two bytes each, big-endian) is a new window size
 * for the terminal, as srun passes its SIGWINCH on to slurmstepd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGPIPE};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

static int write_all(int fd, const char *buf, ssize_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, (size_t)len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    buf += n;
    len -= n;
  }
  return 0;
}

/* tsrun's input to the terminal: unescaped bytes, and window sizes applied (see above). */
static int relay_input(int from, int master) {
  static int state = 0; /* 0: data, 1: after 0xFF, 2..5: collecting a size */
  static unsigned char size[4];
  unsigned char buf[8192], out[8192];
  ssize_t n = read(from, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  if (n <= 0) return 0;
  ssize_t k = 0;
  for (ssize_t i = 0; i < n; i++) {
    unsigned char c = buf[i];
    if (state == 0) {
      if (c == 0xff) state = 1;
      else out[k++] = c;
    } else if (state == 1) {
      if (c == 'W') state = 2;
      else {
        out[k++] = c;
        state = 0;
      }
    } else {
      size[state - 2] = c;
      if (++state == 6) {
        struct winsize ws = {.ws_row = (unsigned short)(size[0] << 8 | size[1]), .ws_col = (unsigned short)(size[2] << 8 | size[3])};
        ioctl(master, TIOCSWINSZ, &ws);
        state = 0;
      }
    }
  }
  write_all(master, (const char *)out, k);
  return 1;
}

/* Copies what is readable on `from` to `to`; 0 at end of input or error, else 1. */
static int relay(int from, int to) {
  char buf[8192];
  ssize_t n = read(from, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  if (n <= 0) return 0;
  /* A reader that went away (tsrun ended) must not stop the relay from the other side. */
  write_all(to, buf, n);
  return 1;
}

static int exit_like(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fputs("usage: tspty ROWS COLS PROGRAM [ARGS...]\n", stderr);
    return 2;
  }
  struct winsize size = {.ws_row = (unsigned short)atoi(argv[1]), .ws_col = (unsigned short)atoi(argv[2])};
  int master, slave;
  if (openpty(&master, &slave, NULL, NULL, &size) < 0) {
    fprintf(stderr, "tspty: openpty: %s\n", strerror(errno));
    return 126;
  }
  /* The controlling terminal belongs to a session leader: the step daemon made us one. */
  if (getsid(0) != getpid()) setsid();
  if (ioctl(slave, TIOCSCTTY, 0) < 0) {
    fprintf(stderr, "tspty: TIOCSCTTY: %s\n", strerror(errno));
    return 126;
  }
  for (size_t i = 0; i < NFORWARDED; i++) signal(forwarded[i], SIG_IGN);
  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "tspty: fork: %s\n", strerror(errno));
    return 126;
  }
  if (child == 0) {
    for (size_t i = 0; i < NFORWARDED; i++) signal(forwarded[i], SIG_DFL);
    dup2(slave, 0);
    dup2(slave, 1);
    dup2(slave, 2);
    if (slave > 2) close(slave);
    close(master);
    execvp(argv[3], argv + 3);
    fprintf(stderr, "tspty: %s: %s\r\n", argv[3], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  tcsetpgrp(slave, getpgrp());
  close(slave);

  int in_open = 1;
  int status = 0;
  int ended = 0;
  for (;;) {
    struct pollfd fds[2] = {{.fd = master, .events = POLLIN}, {.fd = 0, .events = POLLIN}};
    int n = poll(fds, in_open ? 2 : 1, 100);
    if (n < 0 && errno != EINTR) break;
    if (n > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      if (!relay(master, 1)) break; /* EIO: no process holds the terminal any more */
    }
    if (n > 0 && in_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      if (!relay_input(0, master)) {
        in_open = 0;
        /* End of input: the terminal's end-of-file key, as a user would type it. */
        struct termios term;
        if (tcgetattr(master, &term) == 0) write_all(master, (const char *)&term.c_cc[VEOF], 1);
      }
    }
    if (!ended && waitpid(child, &status, WNOHANG) == child) ended = 1;
    /* The program ended: what it wrote is drained, whatever it left behind is not waited for. */
    if (ended && (n == 0 || !(fds[0].revents & POLLIN))) break;
  }
  if (!ended) waitpid(child, &status, 0);
  return exit_like(status);
}
