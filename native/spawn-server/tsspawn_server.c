/*
 * tsspawn_server: starts the step host's tasks and batch scripts, so that the fork happens in
 * this small process and never in the step host's Node (whose fork copies its whole heap's page
 * tables and stalls its event loop until the child has exec'd). src/os/spawn-server.ts starts
 * one per step host and speaks to it over this process's stdin (requests) and stdout (replies),
 * in frames of a little-endian u32 length, then a type byte, then the body:
 *
 *   Node -> server
 *     'H' secret[16] path\0        hello: the token the children prove themselves with, and the
 *                                  Unix socket they connect back to for their stdio
 *     'S' id flags uid gid umask cwd\0 argc argv\0... envc env\0... nfds {kind [oflags path\0]}...
 *         task procsc procs\0... mountns\0 rlimitc rlimit\0... ngroups gid...
 *                                  spawn (u32 fields); flags: 1 setsid, 2 set uid and gid,
 *                                  4 set umask, 8 set the supplementary groups given (else
 *                                  none). Child fd i is, by kind: 0 /dev/null, 1 a socket
 *                                  connected to the step host's, which reads secret, id, i first
 *                                  (24 bytes), 2 the file at path opened with oflags. The rest
 *                                  is what tstask_exec would do in a task (the step host folds
 *                                  its options in): task flags 1 SLURM_TASK_PID set to the
 *                                  child's pid, 2 cwd falls back to /tmp; the cgroup.procs
 *                                  files to join, the mount namespace to enter ("" none), the
 *                                  soft limits NAME=SOFT (srun --propagate)
 *   server -> Node
 *     'P' id pid                   started: set up (stdio, session, chdir, ids), about to execve
 *     'E' id errno                 not started: fork or the set-up failed (no 'P' came), or,
 *                                  after 'P', execve failed (the child then exits 127)
 *     'X' id code signal maxrss utime(u64) stime(u64) inblock oublock
 *                                  ended (wait status; signal 0 for an exit), unless 'E' came,
 *                                  with wait4's rusage (KiB, microseconds, 512-byte blocks)
 *
 * The task's cgroup: of the cgroup.procs files a request names, the one of a cgroup v2
 * directory is not written by the child but given to clone3 (CLONE_INTO_CGROUP), so the child
 * is in its step's cgroup from its first instruction and no write to cgroup.procs (whose
 * first in a cgroup makes the kernel wait a grace period, 10-15 ms) is on its path. A kernel
 * that refuses clone3 or the flag (ENOSYS, E2BIG, EINVAL, ...) gets the write in the child,
 * as tstask_exec does; so does every start with --no-clone3. A step of the task's own set-up
 * that fails (join, namespace, directory) is told on its stderr, after 'P', and it exits 125,
 * as tstask_exec did.
 *
 * A child is set up as libuv sets up Node's: its stdio, chdir, setgroups/setgid/setuid, every
 * signal's disposition back to default and nothing blocked, every other descriptor closed on
 * exec, then execvp with PATH from its own environment. The child tells how far it got through
 * a close-on-exec pipe ('R' once set up, 'F' and an errno on a failure), read without blocking:
 * the server keeps serving requests and reaping meanwhile, and the step host has the pid (and
 * a process group to signal) without waiting for the program's execve.
 * The server ignores SIGPIPE and nothing else; it runs in a session of its own.
 *
 * End of stdin (the step host ended, however) stops the requests, not the children: they run
 * on, the step host's guard ends those it was told about, and this process reaps them and exits
 * once it has no child left, removing the socket and its directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/statfs.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>
#include <libgen.h>
#include "../task-exec/task_setup.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define MAX_FRAME (64u << 20)
#define MAX_PROCS 8
#define MAX_LIMITS 32
#define MAX_FDS 64
#define SECRET_LEN 16

extern char **environ;

struct child {
  pid_t pid;
  uint32_t id;
  int exec_pipe; /* -1 once the child has exec'd or ended */
  int started;   /* 'P' sent */
  int failed;    /* 'E' sent: its end is not reported */
  unsigned char said[8];
  size_t nsaid;
};

static struct child *children;
static size_t nchildren, capchildren;
static unsigned char secret[SECRET_LEN];
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
/* 0: clone3 with CLONE_INTO_CGROUP is not tried (--no-clone3, or this kernel has no clone3). */
static int try_clone3 = 1;

/* ---- replies ------------------------------------------------------------------------------ */

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = v & 0xff, p[1] = (v >> 8) & 0xff, p[2] = (v >> 16) & 0xff, p[3] = v >> 24;
}

static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One frame of `n` u32 fields; a step host gone (EPIPE) is not an error: the children go on. */
static void reply(char type, int n, const uint32_t *fields) {
  unsigned char frame[4 + 1 + 4 * 12];
  put_u32(frame, (uint32_t)(1 + 4 * n));
  frame[4] = (unsigned char)type;
  for (int i = 0; i < n; i++) put_u32(frame + 5 + 4 * i, fields[i]);
  size_t len = 5 + 4 * (size_t)n, off = 0;
  while (off < len) {
    ssize_t w = write(STDOUT_FILENO, frame + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    off += (size_t)w;
  }
}

/* ---- the child, between fork and execve --------------------------------------------------- */

struct request {
  uint32_t id, flags, uid, gid, umask;
  const char *cwd;
  char **argv, **envp;
  uint32_t nfds;
  struct {
    uint32_t kind, oflags;
    const char *path;
  } fds[MAX_FDS];
  uint32_t task_flags;
  const char *procs[MAX_PROCS];
  uint32_t nprocs;
  /* procs[placed] is the cgroup clone3 put the child into: not written (-1: none). */
  int placed;
  const char *mount_ns;
  const char *limits[MAX_LIMITS];
  uint32_t nlimits;
  gid_t *groups;
  uint32_t ngroups;
};

static void child_fail(int pipe_fd, int err) {
  unsigned char said[5] = {'F'};
  put_u32(said + 1, (uint32_t)err);
  ssize_t ignored = write(pipe_fd, said, sizeof said);
  (void)ignored;
  _exit(127);
}

/*
 * A step of the task's own set-up failed (what tstask_exec's exit 125 told): said on the
 * task's stderr, the host told it started (it has a pid and an end, 125), then the end.
 */
static void task_fail(int pipe_fd, const char *what, const char *file) {
  dprintf(STDERR_FILENO, "tsspawn_server: %s %s: %s\n", what, file, strerror(errno));
  ssize_t ignored = write(pipe_fd, "R", 1);
  (void)ignored;
  _exit(125);
}

static int connect_back(uint32_t id, uint32_t index) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, sock_path, sizeof addr.sun_path);
  int rc;
  do rc = connect(fd, (struct sockaddr *)&addr, sizeof addr);
  while (rc < 0 && errno == EINTR);
  if (rc < 0) return -1;
  unsigned char token[SECRET_LEN + 8];
  memcpy(token, secret, SECRET_LEN);
  put_u32(token + SECRET_LEN, id);
  put_u32(token + SECRET_LEN + 4, index);
  if (write(fd, token, sizeof token) != (ssize_t)sizeof token) return -1;
  return fd;
}

static int mark_cloexec_from(unsigned first) {
#ifdef SYS_close_range
  return (int)syscall(SYS_close_range, first, ~0U, CLOSE_RANGE_CLOEXEC);
#else
  errno = ENOSYS;
  return -1;
#endif
}

static void run_child(const struct request *r, int pipe_fd) {
  /* Out of the way of every descriptor number the child may ask for. */
  int moved = fcntl(pipe_fd, F_DUPFD_CLOEXEC, MAX_FDS);
  if (moved >= 0) close(pipe_fd), pipe_fd = moved;
  sigset_t none;
  sigemptyset(&none);
  /* Everything back to default first: the server's own choices (SIGPIPE) are not the task's. */
  for (int sig = 1; sig < NSIG; sig++) {
    if (sig == SIGKILL || sig == SIGSTOP) continue;
    signal(sig, SIG_DFL);
  }
  if ((r->flags & 1) && setsid() < 0) child_fail(pipe_fd, errno);
  /* Each wanted descriptor is first made above every target, then moved into place, so that a
   * source already sitting on a target number is never overwritten before it is used. */
  int high[MAX_FDS];
  int floor_fd = (int)r->nfds;
  for (uint32_t i = 0; i < r->nfds; i++) {
    int fd;
    if (r->fds[i].kind == 1) fd = connect_back(r->id, i);
    else if (r->fds[i].kind == 2) fd = open(r->fds[i].path, (int)r->fds[i].oflags | O_CLOEXEC, 0666);
    else fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd < 0) child_fail(pipe_fd, errno);
    high[i] = fcntl(fd, F_DUPFD_CLOEXEC, floor_fd);
    if (high[i] < 0) child_fail(pipe_fd, errno);
    close(fd);
  }
  for (uint32_t i = 0; i < r->nfds; i++) {
    if (dup2(high[i], (int)i) < 0) child_fail(pipe_fd, errno);
  }
  /* Everything but the wanted descriptors closes at the execve (the pipe to us included). */
  if (mark_cloexec_from(r->nfds) < 0) {
    struct rlimit lim;
    long max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY ? (long)lim.rlim_cur : 65536;
    for (long fd = r->nfds; fd < max; fd++) fcntl((int)fd, F_SETFD, FD_CLOEXEC);
  }
  /* The task's set-up, in tstask_exec's order: cgroups, namespace, directory (as root), ... */
  for (uint32_t i = 0; i < r->nprocs; i++) {
    if ((int)i != r->placed && join_cgroup(r->procs[i]) != 0) task_fail(pipe_fd, "cannot join", r->procs[i]);
  }
  if (r->mount_ns[0] && enter_mount_ns(r->mount_ns) != 0) task_fail(pipe_fd, "cannot enter the mount namespace", r->mount_ns);
  if (r->cwd[0] && chdir(r->cwd) < 0) {
    if (!(r->task_flags & 2)) child_fail(pipe_fd, errno);
    if (chdir("/tmp") < 0) task_fail(pipe_fd, "cannot change directory to", r->cwd);
  }
  if (r->flags & 4) umask((mode_t)r->umask);
  if (r->flags & 2) {
    /* As libuv (no supplementary groups of ours), or the user's (setpriv's --groups); then the
     * gid, then the uid. */
    int rc = r->flags & 8 ? setgroups(r->ngroups, r->groups) : setgroups(0, NULL);
    if (rc < 0 && (errno != EPERM || (r->flags & 8))) child_fail(pipe_fd, errno);
    if (setgid((gid_t)r->gid) < 0) child_fail(pipe_fd, errno);
    if (setuid((uid_t)r->uid) < 0) child_fail(pipe_fd, errno);
  }
  /* ... then, as the user, the submitter's limits: slurmstepd logs one it cannot set and
   * starts the task anyway. */
  for (uint32_t i = 0; i < r->nlimits; i++) {
    if (propagate_limit(r->limits[i]) != 0) dprintf(STDERR_FILENO, "tsspawn_server: cannot propagate %s: %s\n", r->limits[i], strerror(errno));
  }
  static char task_pid[64];
  if (r->task_flags & 1) set_task_pid(r->envp, task_pid);
  sigprocmask(SIG_SETMASK, &none, NULL);
  ssize_t ignored = write(pipe_fd, "R", 1);
  (void)ignored;
  /* execvp looks PATH up in the environment it runs in: the task's own, as libuv does. */
  environ = r->envp;
  execvp(r->argv[0], r->argv);
  child_fail(pipe_fd, errno);
}

/* ---- requests ----------------------------------------------------------------------------- */

struct cursor {
  const unsigned char *p, *end;
  int bad;
};

static uint32_t take_u32(struct cursor *c) {
  if (c->end - c->p < 4) return c->bad = 1, 0;
  uint32_t v = get_u32(c->p);
  c->p += 4;
  return v;
}

static const char *take_str(struct cursor *c) {
  const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
  if (!nul) return c->bad = 1, "";
  const char *s = (const char *)c->p;
  c->p = nul + 1;
  return s;
}

static char **take_strs(struct cursor *c) {
  uint32_t n = take_u32(c);
  if (c->bad || n > (uint32_t)(c->end - c->p)) return c->bad = 1, NULL;
  char **v = calloc((size_t)n + 1, sizeof *v);
  if (!v) return c->bad = 1, NULL;
  for (uint32_t i = 0; i < n; i++) v[i] = (char *)take_str(c);
  return v;
}

static void add_child(pid_t pid, uint32_t id, int exec_pipe) {
  if (nchildren == capchildren) {
    capchildren = capchildren ? capchildren * 2 : 64;
    children = realloc(children, capchildren * sizeof *children);
    if (!children) _exit(70);
  }
  children[nchildren++] = (struct child){.pid = pid, .id = id, .exec_pipe = exec_pipe};
}

/*
 * The one cgroup v2 directory among the request's cgroup.procs files, opened for clone3
 * (its index in *which), or -1: none, several (each is then written in order), or not v2 (a
 * v1 hierarchy's directory is joined by a write).
 */
static int cgroup_to_clone_into(const struct request *r, int *which) {
  int found = -1;
  *which = -1;
  for (uint32_t i = 0; i < r->nprocs; i++) {
    char dir[4096];
    const char *slash = strrchr(r->procs[i], '/');
    if (!slash || strcmp(slash, "/cgroup.procs") != 0 || (size_t)(slash - r->procs[i]) >= sizeof dir) continue;
    memcpy(dir, r->procs[i], (size_t)(slash - r->procs[i]));
    dir[slash - r->procs[i]] = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct statfs fs;
    if (fd < 0) continue;
    if (fstatfs(fd, &fs) != 0 || fs.f_type != CGROUP2_SUPER_MAGIC) {
      close(fd);
      continue;
    }
    if (found >= 0) {
      close(found), close(fd);
      *which = -1;
      return -1;
    }
    found = fd, *which = (int)i;
  }
  return found;
}

/* clone_args as of Linux 5.7 (CLONE_ARGS_SIZE_VER2), spelled out for older headers. */
struct clone_args_v2 {
  uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

/*
 * fork(), or clone3 into the cgroup `cgroup_fd` when there is one: -2 when clone3 was refused
 * (the caller forks; the child then joins by a write). A kernel without clone3 is not asked again.
 */
static pid_t clone_into(int cgroup_fd) {
#ifdef SYS_clone3
  if (cgroup_fd >= 0 && try_clone3) {
    struct clone_args_v2 args = {.flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD, .cgroup = (uint64_t)cgroup_fd};
    long pid = syscall(SYS_clone3, &args, sizeof args);
    if (pid >= 0) return (pid_t)pid;
    if (errno == ENOSYS || errno == E2BIG) try_clone3 = 0;
    return -2;
  }
#endif
  (void)cgroup_fd;
  return -2;
}

static void spawn(const unsigned char *body, size_t len) {
  struct cursor c = {body, body + len, 0};
  struct request r = {0};
  r.id = take_u32(&c);
  r.flags = take_u32(&c);
  r.uid = take_u32(&c);
  r.gid = take_u32(&c);
  r.umask = take_u32(&c);
  r.cwd = take_str(&c);
  r.argv = take_strs(&c);
  r.envp = take_strs(&c);
  r.nfds = take_u32(&c);
  if (r.nfds > MAX_FDS) c.bad = 1;
  for (uint32_t i = 0; i < r.nfds && !c.bad; i++) {
    r.fds[i].kind = take_u32(&c);
    if (r.fds[i].kind == 2) {
      r.fds[i].oflags = take_u32(&c);
      r.fds[i].path = take_str(&c);
    }
  }
  r.task_flags = take_u32(&c);
  r.nprocs = take_u32(&c);
  if (r.nprocs > MAX_PROCS) c.bad = 1;
  for (uint32_t i = 0; i < r.nprocs && !c.bad; i++) r.procs[i] = take_str(&c);
  r.mount_ns = take_str(&c);
  r.nlimits = take_u32(&c);
  if (r.nlimits > MAX_LIMITS) c.bad = 1;
  for (uint32_t i = 0; i < r.nlimits && !c.bad; i++) r.limits[i] = take_str(&c);
  r.ngroups = take_u32(&c);
  if (!c.bad && r.ngroups > (uint32_t)(c.end - c.p) / 4) c.bad = 1;
  if (!c.bad && r.ngroups > 0 && !(r.groups = calloc(r.ngroups, sizeof *r.groups))) c.bad = 1;
  for (uint32_t i = 0; i < r.ngroups && !c.bad; i++) r.groups[i] = (gid_t)take_u32(&c);
  if (c.bad || !r.argv || !r.argv[0]) {
    reply('E', 2, (uint32_t[]){r.id, EINVAL});
  } else {
    int p[2];
    pid_t pid = -1;
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0) {
      int cgroup_fd = cgroup_to_clone_into(&r, &r.placed);
      pid = clone_into(cgroup_fd);
      if (pid == -2) {
        r.placed = -1;
        pid = fork();
      }
      if (pid == 0) {
        close(p[0]);
        run_child(&r, p[1]);
      }
      int saved = errno;
      if (cgroup_fd >= 0) close(cgroup_fd);
      close(p[1]);
      if (pid < 0) close(p[0]);
      errno = saved;
    }
    if (pid < 0) reply('E', 2, (uint32_t[]){r.id, (uint32_t)errno});
    else add_child(pid, r.id, p[0]);
  }
  free(r.argv);
  free(r.envp);
  free(r.groups);
}

static void hello(const unsigned char *body, size_t len) {
  if (len < SECRET_LEN + 1 || body[len - 1] != 0 || len - SECRET_LEN > sizeof sock_path) return;
  memcpy(secret, body, SECRET_LEN);
  memcpy(sock_path, body + SECRET_LEN, len - SECRET_LEN);
}

/* ---- children: their execve, their end ---------------------------------------------------- */

/* What the child said on its pipe so far: 'R' (set up) is 'P', 'F' errno is 'E'; EOF closes it. */
static void child_said(struct child *ch) {
  ssize_t n;
  do n = read(ch->exec_pipe, ch->said + ch->nsaid, sizeof ch->said - ch->nsaid);
  while (n < 0 && errno == EINTR);
  if (n > 0) ch->nsaid += (size_t)n;
  if (ch->nsaid >= 1 && ch->said[0] == 'R') {
    if (!ch->started) reply('P', 2, (uint32_t[]){ch->id, (uint32_t)ch->pid});
    ch->started = 1;
    memmove(ch->said, ch->said + 1, --ch->nsaid);
  }
  if (ch->nsaid >= 5 && ch->said[0] == 'F' && !ch->failed) {
    ch->failed = 1;
    reply('E', 2, (uint32_t[]){ch->id, get_u32(ch->said + 1)});
  }
  if (n == 0 || (n < 0 && errno != EAGAIN)) {
    close(ch->exec_pipe);
    ch->exec_pipe = -1;
  }
}

static void reap(void) {
  for (;;) {
    int status;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t pid = wait4(-1, &status, WNOHANG, &ru);
    if (pid <= 0) return;
    for (size_t i = 0; i < nchildren; i++) {
      struct child *ch = &children[i];
      if (ch->pid != pid) continue;
      /* What it said on its pipe is told before how it ended (it is dead: the pipe ends). */
      if (ch->exec_pipe >= 0) child_said(ch);
      if (ch->exec_pipe >= 0) close(ch->exec_pipe), ch->exec_pipe = -1;
      if (!ch->started && !ch->failed) reply('E', 2, (uint32_t[]){ch->id, ECHILD});
      else if (!ch->failed) {
        uint32_t code = WIFEXITED(status) ? (uint32_t)WEXITSTATUS(status) : 0;
        uint32_t sig = WIFSIGNALED(status) ? (uint32_t)WTERMSIG(status) : 0;
        uint64_t utime = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
        uint64_t stime = (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
        reply('X', 10,
              (uint32_t[]){ch->id, code, sig, (uint32_t)ru.ru_maxrss, (uint32_t)utime, (uint32_t)(utime >> 32), (uint32_t)stime,
                           (uint32_t)(stime >> 32), (uint32_t)ru.ru_inblock, (uint32_t)ru.ru_oublock});
      }
      children[i] = children[--nchildren];
      break;
    }
  }
}

static void remove_socket(void) {
  if (!sock_path[0]) return;
  unlink(sock_path);
  rmdir(dirname(sock_path));
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--no-clone3") == 0) try_clone3 = 0;
  signal(SIGPIPE, SIG_IGN);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);
  int sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sfd < 0) return 71;
  fcntl(STDIN_FILENO, F_SETFD, FD_CLOEXEC);
  fcntl(STDOUT_FILENO, F_SETFD, FD_CLOEXEC);

  size_t cap = 1 << 16, have = 0;
  unsigned char *buf = malloc(cap);
  int open_in = 1;
  struct pollfd *fds = NULL;
  size_t capfds = 0;
  while (open_in || nchildren > 0) {
    if (capfds < nchildren + 2) {
      capfds = nchildren + 64;
      fds = realloc(fds, capfds * sizeof *fds);
      if (!fds || !buf) return 70;
    }
    size_t n = 0;
    fds[n++] = (struct pollfd){.fd = sfd, .events = POLLIN};
    fds[n++] = (struct pollfd){.fd = open_in ? STDIN_FILENO : -1, .events = POLLIN};
    for (size_t i = 0; i < nchildren; i++)
      fds[n++] = (struct pollfd){.fd = children[i].exec_pipe, .events = POLLIN};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      return 72;
    }
    /* What children said first (one that also ended: reap() reads it out itself). */
    for (size_t i = 2; i < n; i++) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      for (size_t j = 0; j < nchildren; j++)
        if (children[j].exec_pipe == fds[i].fd) child_said(&children[j]);
    }
    if (fds[0].revents) {
      struct signalfd_siginfo info;
      while (read(sfd, &info, sizeof info) > 0) {
      }
      reap();
    }
    if (open_in && fds[1].revents) {
      if (have == cap) {
        cap *= 2;
        buf = realloc(buf, cap);
        if (!buf) return 70;
      }
      ssize_t got = read(STDIN_FILENO, buf + have, cap - have);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        open_in = 0;
        continue;
      }
      have += (size_t)got;
      size_t off = 0;
      while (have - off >= 4) {
        uint32_t len = get_u32(buf + off);
        if (len == 0 || len > MAX_FRAME) return 73;
        if (have - off - 4 < len) {
          if (cap < (size_t)len + 4) {
            cap = (size_t)len + 4;
            memmove(buf, buf + off, have - off);
            have -= off, off = 0;
            buf = realloc(buf, cap);
            if (!buf) return 70;
          }
          break;
        }
        const unsigned char *body = buf + off + 5;
        if (buf[off + 4] == 'H') hello(body, len - 1);
        else if (buf[off + 4] == 'S') spawn(body, len - 1);
        off += 4 + len;
      }
      memmove(buf, buf + off, have - off);
      have -= off;
    }
  }
  remove_socket();
  return 0;
}
