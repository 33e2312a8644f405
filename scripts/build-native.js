// Builds the native helpers into dist/native/ when their toolchain is present: the task exec
// helper (native/task-exec, see stepd/task-pid.ts), the step guard (native/step-guard, see
// stepd/reaper.ts; without it the Node reaper is used), the spawn server (native/spawn-server,
// see os/spawn-server.ts; without it the step host forks with Node's spawn) and the PMIx
// server helper of mpi/pmix (native/pmix-server), which needs libpmix-dev (found through
// pkg-config) and a C compiler. Anything missing is not a build failure: the helper is simply
// not built, and `tsrun --mpi=pmix` says so.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Compiles tstask_exec and tspmix_server into `<root>/dist/native/`; returns a line saying what
 * happened when something was not built.
 */
export function buildNative(root) {
  const cc = process.env.CC || ['cc', 'gcc', 'clang'].find((c) => run(c, ['--version']) !== undefined);
  if (!cc) return 'native: no C compiler found, task exec, step guard, spawn server, pty and mpi/pmix helpers not built';
  const taskNote = buildTaskExec(cc, root);
  const guardNote = buildPlain(cc, root, 'step-guard/tsstep_guard.c', 'tsstep_guard', 'step guard not built (the Node reaper guards steps)');
  const pmixNote = buildPmixServer(cc, root);
  const ptyNote = buildPty(cc, root);
  const peerNote = buildPlain(cc, root, 'peer-cred/tspeercred.c', 'tspeercred', "tsrestd's local socket needs a token (no peer uid)");
  const spawnNote = buildPlain(cc, root, 'spawn-server/tsspawn_server.c', 'tsspawn_server', "spawn server not built (the step host forks its tasks with Node's spawn)");
  return [taskNote, guardNote, pmixNote, ptyNote, peerNote, spawnNote].filter(Boolean).join('\n') || undefined;
}

// A helper in plain C with no library.
function buildPlain(cc, root, source, name, missing) {
  const out = path.join(root, 'dist', 'native');
  mkdirSync(out, { recursive: true });
  try {
    execFileSync(cc, ['-O2', '-Wall', '-o', path.join(out, name), path.join(root, 'native', source)], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    return `native: ${cc} failed on native/${source}, ${missing}`;
  }
  return undefined;
}

// The helper that puts a task's own pid into SLURM_TASK_PID at slurmstepd's position (plain C,
// no library): without it tasks start directly and lack SLURM_TASK_PID.
function buildTaskExec(cc, root) {
  const out = path.join(root, 'dist', 'native');
  mkdirSync(out, { recursive: true });
  const source = path.join(root, 'native', 'task-exec', 'tstask_exec.c');
  try {
    execFileSync(cc, ['-O2', '-Wall', '-o', path.join(out, 'tstask_exec'), source], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    return `native: ${cc} failed on ${path.relative(root, source)}, task exec helper not built (tasks lack SLURM_TASK_PID)`;
  }
  return undefined;
}

function buildPmixServer(cc, root) {
  const flags = run('pkg-config', ['--cflags', '--libs', 'pmix']);
  if (flags === undefined) return 'native: pmix not found by pkg-config (apt-get install libpmix-dev pkg-config), mpi/pmix helper not built';
  const out = path.join(root, 'dist', 'native');
  mkdirSync(out, { recursive: true });
  const source = path.join(root, 'native', 'pmix-server', 'tspmix_server.c');
  try {
    execFileSync(cc, ['-O2', '-Wall', '-o', path.join(out, 'tspmix_server'), source, ...flags.split(/\s+/).filter(Boolean), '-lpthread'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch {
    return `native: ${cc} failed on ${path.relative(root, source)}, mpi/pmix helper not built`;
  }
  return undefined;
}

// The helper that runs task 0 of an `srun --pty` step on a pseudo-terminal (openpty, plain C
// and libutil): without it tsrun refuses --pty and says why.
function buildPty(cc, root) {
  const out = path.join(root, 'dist', 'native');
  mkdirSync(out, { recursive: true });
  const source = path.join(root, 'native', 'pty', 'tspty.c');
  try {
    execFileSync(cc, ['-O2', '-Wall', '-o', path.join(out, 'tspty'), source, '-lutil'], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    return `native: ${cc} failed on ${path.relative(root, source)}, pty helper not built (tsrun --pty unavailable)`;
  }
  return undefined;
}
