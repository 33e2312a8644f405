/*
 * tsstep_guard KILL_WAIT REGISTRY: the step's guard against a daemon killed without cleaning
 * up, in C so that starting it costs an exec and not a second Node start-up (src/stepd/
 * reaper.ts starts it; reaper-main.ts is the same program in Node, used when no compiler was
 * there at build time). It follows the same file protocol: the daemon (tsrun, tsstepd)
 * records each task's process group ("+pgid", "-pgid"), each step container's cgroup
 * ("+cgroup DIR") and environment mark ("+environ VAR=value"), one line each, and "done" at a
 * normal end. This process's stdin is a pipe whose only writer is the daemon, so it ends when
 * the daemon ends, however it ends (even SIGKILL). Then, unless the file says "done":
 * SIGTERM to everything recorded, after KILL_WAIT seconds SIGKILL, repeated every 100 ms
 * until nothing is left (at least three rounds: a process forking while its group is killed
 * leaves a child) or 10 s have passed; cgroup.kill for each cgroup, then its directory and
 * its job and node levels removed when empty. The registry's directory is removed at the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KILL_ROUNDS_MS 10000

struct list {
  char **items;
  size_t len, cap;
};

struct recorded {
  int done;
  struct list groups, cgroups, marks;
};

static void list_add(struct list *l, const char *item) {
  for (size_t i = 0; i < l->len; i++)
    if (strcmp(l->items[i], item) == 0) return;
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->items = realloc(l->items, l->cap * sizeof *l->items);
    if (!l->items) _exit(1);
  }
  l->items[l->len++] = strdup(item);
}

static void list_remove(struct list *l, const char *item) {
  for (size_t i = 0; i < l->len; i++) {
    if (strcmp(l->items[i], item) != 0) continue;
    free(l->items[i]);
    l->items[i] = l->items[--l->len];
    return;
  }
}

/* The whole of a file (NUL-terminated; its length in *len), or NULL. */
static char *slurp(const char *file, size_t *len) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
    if (!buf) _exit(1);
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    n += (size_t)got;
  }
  close(fd);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

/* Reads the registry; a missing one means nothing was recorded: nothing to end. */
static void read_registry(const char *registry, struct recorded *r) {
  memset(r, 0, sizeof *r);
  char *text = slurp(registry, NULL);
  if (!text) {
    r->done = 1;
    return;
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strcmp(line, "done") == 0) r->done = 1;
    char sign = line[0];
    if (sign != '+' && sign != '-') continue;
    const char *rest = line + 1;
    struct list *set;
    if (strncmp(rest, "cgroup ", 7) == 0) {
      set = &r->cgroups;
      rest += 7;
    } else if (strncmp(rest, "environ ", 8) == 0) {
      set = &r->marks;
      rest += 8;
    } else {
      char number[32];
      long pgid = strtol(rest, NULL, 10);
      if (pgid <= 1) continue;
      snprintf(number, sizeof number, "%ld", pgid);
      if (sign == '+') list_add(&r->groups, number);
      else list_remove(&r->groups, number);
      continue;
    }
    if (sign == '+') list_add(set, rest);
    else list_remove(set, rest);
  }
  free(text);
}

/* Alive and not a zombie (a zombie is already dead; only its parent can clear it). */
static int live(long pid) {
  char file[64];
  snprintf(file, sizeof file, "/proc/%ld/stat", pid);
  char *stat = slurp(file, NULL);
  if (!stat) return 0;
  char *paren = strrchr(stat, ')');
  int alive = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X' && paren[2] != '\0';
  free(stat);
  return alive;
}

static int has_mark(const struct recorded *r, const char *environ, size_t len) {
  for (size_t at = 0; at < len; at += strlen(environ + at) + 1)
    for (size_t i = 0; i < r->marks.len; i++)
      if (strcmp(environ + at, r->marks.items[i]) == 0) return 1;
  return 0;
}

/*
 * Calls each(pid) for every live process of the recorded cgroups and marks (never this one);
 * returns how many there were. A pid found both ways is visited twice: harmless for kill.
 */
static size_t members(const struct recorded *r, void (*each)(long pid, int signal), int signal) {
  size_t count = 0;
  long self = (long)getpid();
  for (size_t i = 0; i < r->cgroups.len; i++) {
    char file[4096];
    snprintf(file, sizeof file, "%s/cgroup.procs", r->cgroups.items[i]);
    char *procs = slurp(file, NULL);
    if (!procs) continue; /* gone */
    for (char *line = strtok(procs, "\n"); line; line = strtok(NULL, "\n")) {
      long pid = strtol(line, NULL, 10);
      if (pid <= 0 || pid == self || !live(pid)) continue;
      count++;
      if (each) each(pid, signal);
    }
    free(procs);
  }
  if (r->marks.len == 0) return count;
  DIR *proc = opendir("/proc");
  if (!proc) return count;
  for (struct dirent *entry; (entry = readdir(proc));) {
    char *end;
    long pid = strtol(entry->d_name, &end, 10);
    if (*end != '\0' || pid <= 0 || pid == self) continue;
    char file[64];
    size_t len;
    snprintf(file, sizeof file, "/proc/%ld/environ", pid);
    char *environ = slurp(file, &len); /* gone, or not ours to read: skipped */
    if (!environ) continue;
    int marked = has_mark(r, environ, len);
    free(environ);
    if (!marked || !live(pid)) continue;
    count++;
    if (each) each(pid, signal);
  }
  closedir(proc);
  return count;
}

static void kill_one(long pid, int signal) { kill((pid_t)pid, signal); }

static void signal_all(const struct recorded *r, int signal) {
  for (size_t i = 0; i < r->groups.len; i++) kill(-(pid_t)strtol(r->groups.items[i], NULL, 10), signal);
  if (signal == SIGKILL) {
    for (size_t i = 0; i < r->cgroups.len; i++) {
      char file[4096];
      snprintf(file, sizeof file, "%s/cgroup.kill", r->cgroups.items[i]);
      /* no cgroup.kill (older kernel) or gone: the members are killed one by one below */
      int fd = open(file, O_WRONLY | O_CLOEXEC);
      if (fd < 0) continue;
      if (write(fd, "1", 1) < 0) { /* the same */ }
      close(fd);
    }
  }
  members(r, kill_one, signal);
}

/* The step's directory, then its job and node levels once no other step uses them. */
static void remove_cgroups(const struct recorded *r) {
  for (size_t i = 0; i < r->cgroups.len; i++) {
    char level[4096];
    snprintf(level, sizeof level, "%s", r->cgroups.items[i]);
    for (int depth = 0; depth < 3; depth++) {
      if (rmdir(level) != 0) break;
      char *slash = strrchr(level, '/');
      if (!slash || slash == level) break;
      *slash = '\0';
    }
  }
}

/* The registry's own directory (made for it alone by the daemon) and what is in it. */
static void forget(const char *registry) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", registry);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) return;
  *slash = '\0';
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *entry; (entry = readdir(d));) {
      if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
      unlinkat(dirfd(d), entry->d_name, 0);
    }
    closedir(d);
  }
  rmdir(dir);
}

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(long long ms) {
  struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

int main(int argc, char **argv) {
  double wait_seconds = argc > 1 ? strtod(argv[1], NULL) : 30;
  if (!(wait_seconds >= 0)) wait_seconds = 0;
  const char *registry = argc > 2 ? argv[2] : "";
  /* The daemon's terminal signals are not ours to act on: only the end of stdin is. */
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);

  char sink[512];
  for (;;) {
    ssize_t got = read(0, sink, sizeof sink);
    if (got == 0 || (got < 0 && errno != EINTR)) break;
  }

  struct recorded r;
  read_registry(registry, &r);
  if (r.done || r.groups.len + r.cgroups.len + r.marks.len == 0) {
    if (*registry) forget(registry);
    return 0;
  }
  signal_all(&r, SIGTERM);
  sleep_ms((long long)(wait_seconds * 1000));
  long long until = now_ms() + KILL_ROUNDS_MS;
  for (int rounds = 1;; rounds++) {
    signal_all(&r, SIGKILL);
    if ((rounds >= 3 && members(&r, NULL, 0) == 0) || now_ms() > until) break;
    sleep_ms(100);
  }
  remove_cgroups(&r);
  if (*registry) forget(registry);
  return 0;
}
