/*
 * tstask_exec [--procs FILE]... [--mount-ns FILE] [--chdir DIR] [--umask OCTAL]
 *             [--rlimit NAME=SOFT]... [--rusage-fd FD] [--] PROGRAM [ARGS...]
 *
 * Does in this process what slurmstepd's forked task does before its execve, then runs PROGRAM
 * here (execvp), so the program keeps this pid and the environment exactly as given (a shell
 * in between would re-export it in its own hash order):
 *   --procs FILE     writes this pid into FILE, a cgroup's cgroup.procs (proctrack/cgroup's
 *                    join: nothing the task forks starts outside the step's cgroup);
 *   --mount-ns FILE  enters the mount namespace bound at FILE (setns, job_container/tmpfs);
 *   --chdir DIR      changes to DIR, or to /tmp when DIR is not there (slurmstepd's fallback;
 *                    the step daemon has already printed its line);
 *   --umask OCTAL    the submitter's umask (SLURM_UMASK);
 *   --rlimit NAME=SOFT  the submitter's soft limit (srun --propagate: CORE, NOFILE, ...; SOFT a
 *                    number or "unlimited"), raised no higher than the hard limit unless root,
 *                    as slurmstepd's set_user_limits does;
 *   --rusage-fd FD   stays as the program's parent, as slurmstepd stays the task's: forks, the
 *                    child runs PROGRAM, this process wait4()s for it, writes one line
 *                    "rusage MAXRSS_KIB UTIME_USEC STIME_USEC INBLOCK OUBLOCK" to FD (the
 *                    kernel's final rusage of the program and every child it reaped; Node
 *                    reaps its children without one), and ends as the program ended (same
 *                    exit code, or the same signal). It closes every other descriptor, so the
 *                    program's stdio and sockets end with the program; signals that would end
 *                    it are ignored (a signal to the task's group or container reaches the
 *                    program too), so it outlives the program to report. A SIGKILL that
 *                    reaches it before it has reported (one signal right after another) ends
 *                    it by SIGKILL whatever ended the program: the batch step uses it, whose
 *                    SIGKILL comes KillWait after its SIGTERM; step tasks do not;
 * and always writes this pid into the SLURM_TASK_PID entry of the environment, in place:
 * slurmstepd sets it in the forked task, between SLURM_CPUS_ON_NODE and SLURM_NODEID; Node
 * cannot run code between fork and exec, so the step daemon leaves a placeholder there.
 * Exit 127 (ENOENT) or 126 (other errors) if the exec fails, 125 if a step before it fails.
 *
 * A task the step host's spawn server starts does not run this program: the host folds these
 * options into its request and the server's child does the same (task_setup.h) before the one
 * execve of the program, the server itself waiting for it and reporting its rusage. This
 * helper serves the tasks Node's spawn starts (no spawn server, TSLURM_SPAWN_SERVER=0).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "task_setup.h"

extern char **environ;

static int fail(const char *what, const char *file) {
  fprintf(stderr, "tstask_exec: %s %s: %s\n", what, file, strerror(errno));
  return 125;
}

/* The parent's side of --rusage-fd: wait, report, end as the program ended. */
static int wait_and_report(pid_t child, int fd) {
  static const int ignored[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM};
  for (size_t k = 0; k < sizeof ignored / sizeof ignored[0]; k++) signal(ignored[k], SIG_IGN);
  long max = sysconf(_SC_OPEN_MAX);
  for (int other = 0; other < (max > 0 && max < 65536 ? max : 65536); other++)
    if (other != fd) close(other);
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(child, &status, 0, &ru) < 0) {
    if (errno != EINTR) _exit(125);
  }
  char line[160];
  int n = snprintf(line, sizeof line, "rusage %ld %lld %lld %ld %ld\n", ru.ru_maxrss,
                   (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
                   (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec, ru.ru_inblock, ru.ru_oublock);
  if (write(fd, line, (size_t)n) < 0) {
    /* nobody reads the report: the program's end still counts */
  }
  close(fd);
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none); /* the program's core, not this process's */
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
  }
  _exit(125);
}

int main(int argc, char **argv) {
  static char entry[64];
  int rusage_fd = -1;
  int i = 1;
  for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    if (i + 1 >= argc) break;
    const char *value = argv[i + 1];
    if (strcmp(argv[i], "--procs") == 0) {
      if (join_cgroup(value) != 0) return fail("cannot join", value);
    } else if (strcmp(argv[i], "--mount-ns") == 0) {
      if (enter_mount_ns(value) != 0) return fail("cannot enter the mount namespace", value);
    } else if (strcmp(argv[i], "--chdir") == 0) {
      if (chdir(value) != 0 && chdir("/tmp") != 0) return fail("cannot change directory to", value);
    } else if (strcmp(argv[i], "--umask") == 0) {
      umask((mode_t)strtoul(value, NULL, 8));
    } else if (strcmp(argv[i], "--rusage-fd") == 0) {
      rusage_fd = atoi(value);
    } else if (strcmp(argv[i], "--rlimit") == 0) {
      /* slurmstepd logs a limit it cannot set and starts the task anyway. */
      if (propagate_limit(value) != 0) fprintf(stderr, "tstask_exec: cannot propagate %s: %s\n", value, strerror(errno));
    } else {
      fprintf(stderr, "tstask_exec: unknown option %s\n", argv[i]);
      return 125;
    }
    i++;
  }
  if (i >= argc) {
    fputs("usage: tstask_exec [--procs FILE]... [--mount-ns FILE] [--chdir DIR] [--umask OCTAL] [--rlimit NAME=SOFT]... [--rusage-fd FD] [--] PROGRAM [ARGS...]\n", stderr);
    return 2;
  }
  if (rusage_fd >= 0) {
    pid_t child = fork();
    if (child > 0) return wait_and_report(child, rusage_fd);
    /* the program (or, when fork failed, this process running it unreported) */
    close(rusage_fd);
  }
  set_task_pid(environ, entry);
  execvp(argv[i], argv + i);
  fprintf(stderr, "tstask_exec: %s: %s\n", argv[i], strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
