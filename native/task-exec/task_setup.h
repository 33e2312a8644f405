/*
 * What slurmstepd's forked task does before its execve, shared by the task exec helper
 * (tstask_exec.c, the Node-spawn path) and the spawn server (tsspawn_server.c, which does it
 * in its own child, so that a served task is one fork and one exec): join a cgroup by writing
 * its own pid into cgroup.procs, enter a mount namespace, propagate a soft limit, and put its
 * pid into SLURM_TASK_PID. Each returns 0, or -1 with errno set; nothing here prints.
 */
#ifndef TSLURM_TASK_SETUP_H
#define TSLURM_TASK_SETUP_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Writes this process's pid into `procs`, a cgroup's cgroup.procs. */
static int join_cgroup(const char *procs) {
  char pid[32];
  int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  int fd = open(procs, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t written = write(fd, pid, (size_t)n);
  int saved = errno;
  close(fd);
  errno = saved;
  return written == n ? 0 : -1;
}

/* setns into the mount namespace bound at `file` (job_container/tmpfs's). */
static int enter_mount_ns(const char *file) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = setns(fd, CLONE_NEWNS);
  int saved = errno;
  close(fd);
  errno = saved;
  return rc;
}

static const struct {
  const char *name;
  int resource;
} task_limits[] = {
    {"AS", RLIMIT_AS},       {"CORE", RLIMIT_CORE},       {"CPU", RLIMIT_CPU},         {"DATA", RLIMIT_DATA},
    {"FSIZE", RLIMIT_FSIZE}, {"MEMLOCK", RLIMIT_MEMLOCK}, {"NOFILE", RLIMIT_NOFILE}, {"NPROC", RLIMIT_NPROC},
    {"RSS", RLIMIT_RSS},     {"STACK", RLIMIT_STACK},
};

/*
 * NAME=SOFT (srun --propagate): the soft limit, capped at the hard one when this process may
 * not raise it, as slurmstepd's set_user_limits does.
 */
static int propagate_limit(const char *spec) {
  const char *equals = strchr(spec, '=');
  if (!equals) return errno = EINVAL, -1;
  for (size_t i = 0; i < sizeof task_limits / sizeof task_limits[0]; i++) {
    if (strncmp(spec, task_limits[i].name, (size_t)(equals - spec)) != 0 || task_limits[i].name[equals - spec] != '\0') continue;
    struct rlimit current;
    if (getrlimit(task_limits[i].resource, &current) != 0) return -1;
    rlim_t soft = strcmp(equals + 1, "unlimited") == 0 ? RLIM_INFINITY : (rlim_t)strtoull(equals + 1, NULL, 10);
    struct rlimit wanted = {soft, current.rlim_max};
    if (soft > current.rlim_max && current.rlim_max != RLIM_INFINITY) {
      if (geteuid() == 0) wanted.rlim_max = soft;
      else wanted.rlim_cur = current.rlim_max;
    }
    return setrlimit(task_limits[i].resource, &wanted);
  }
  errno = EINVAL;
  return -1;
}

/*
 * This process's pid into the SLURM_TASK_PID entry of `env`, in place (`entry` holds the new
 * text and must outlive the exec): slurmstepd sets it in the forked task, at the place the
 * step daemon left a placeholder for it.
 */
static void set_task_pid(char **env, char entry[64]) {
  snprintf(entry, 64, "SLURM_TASK_PID=%ld", (long)getpid());
  for (char **e = env; e && *e; e++) {
    if (strncmp(*e, "SLURM_TASK_PID=", 15) == 0) {
      *e = entry;
      return;
    }
  }
}

#endif
