/*
 * tstask_exec PROGRAM [ARGS...]: runs PROGRAM in this process (execvp) after writing this
 * process's pid into the SLURM_TASK_PID entry of the environment, in place. slurmstepd sets
 * SLURM_TASK_PID in the forked task before its execve, between SLURM_CPUS_ON_NODE and
 * SLURM_NODEID; Node cannot run code between fork and exec, so the step daemon puts a
 * placeholder at that position and starts the task through this helper, whose pid the
 * program keeps. Exit 127 (ENOENT) or 126 (other errors) if the exec fails; the step daemon
 * checks the program before choosing this path, so that is rare.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
  static char entry[64];
  if (argc < 2) {
    fputs("usage: tstask_exec PROGRAM [ARGS...]\n", stderr);
    return 2;
  }
  snprintf(entry, sizeof entry, "SLURM_TASK_PID=%ld", (long)getpid());
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "SLURM_TASK_PID=", 15) == 0) {
      *e = entry;
      break;
    }
  }
  execvp(argv[1], argv + 1);
  fprintf(stderr, "tstask_exec: %s: %s\n", argv[1], strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
