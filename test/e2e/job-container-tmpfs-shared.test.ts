// job_container/tmpfs in namespace mode, as Slurm's (/work/ref/tmpfs.txt): one mount namespace
// per job on a node, shared by every task and step (the batch script too), nothing of tslurm's
// own in the job's /tmp, TMPDIR=/tmp unless the user set one, and a working directory the job's
// /tmp hides replaced by /tmp with slurmstepd's line. Needs root (mount namespaces).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';

function namespacesWork(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore' });
    execFileSync('nsenter', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const NAMESPACES = namespacesWork();

/**
 * The fixture cluster, its state directory and base path all outside /tmp: a job's private /tmp
 * hides the host's, so a batch script (in the state directory) and a tsrun inside the job (which
 * reads the cluster file and the controller's socket) must find them elsewhere, as Slurm's spool
 * and slurm.conf are.
 */
function cluster(): { file: string; base: string; state: string; dir: string } {
  const dir = mkdtempSync('/var/tmp/tslurm-tmpfs-');
  const base = path.join(dir, 'base');
  const state = path.join(dir, 'state');
  mkdirSync(state);
  const yaml = readFileSync(fixture('clusters', 'job-container-tmpfs.yaml'), 'utf8').replace(/^(\s*)base_path: \S+/m, `$1base_path: ${base}`);
  const file = path.join(dir, 'cluster.yaml');
  writeFileSync(file, yaml);
  return { file, base, state, dir };
}

describe.skipIf(!NAMESPACES)('job_container/tmpfs: one namespace per job (needs root for mount namespaces)', () => {
  it('the tasks of a step share one mount namespace: the same /tmp and /dev/shm', async () => {
    const { file, base, dir } = cluster();
    const task = 'touch /tmp/t$SLURM_PROCID /dev/shm/s$SLURM_PROCID; sleep 1; readlink /proc/self/ns/mnt; ls /tmp /dev/shm | tr "\\n" " "; echo';
    const r = await runBin('tsrun', ['--cluster', file, '-n2', '-l', 'sh', '-c', task]);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = r.stdout.split('\n').filter(Boolean).map((l) => l.trimEnd()).sort();
    const ns = lines.filter((l) => l.includes('mnt:['));
    expect(ns).toHaveLength(2);
    expect(ns[0]!.slice(3)).toBe(ns[1]!.slice(3));
    expect(ns[0]!.slice(3)).not.toBe(execFileSync('readlink', ['/proc/self/ns/mnt'], { encoding: 'utf8' }).trim());
    expect(lines.filter((l) => !l.includes('mnt:['))).toEqual(['0: /dev/shm: s0 s1  /tmp: t0 t1', '1: /dev/shm: s0 s1  /tmp: t0 t1']);
    // The namespace is unmounted and the job's directory removed when the job ends.
    expect(readdirSync(base)).toEqual([]);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(base);
    rmSync(dir, { recursive: true, force: true });
  });

  it('TMPDIR is /tmp unless the user set one, as slurmstepd sets it', async () => {
    const { file, dir } = cluster();
    const a = await runBin('tsrun', ['--cluster', file, '-n1', 'sh', '-c', 'echo "$TMPDIR"'], { env: { TMPDIR: undefined } });
    expect(a).toEqual({ exitCode: 0, stdout: '/tmp\n', stderr: '' });
    const b = await runBin('tsrun', ['--cluster', file, '-n1', '--export=NONE', '/usr/bin/env'], { env: { TMPDIR: undefined } });
    expect(b.stdout).toContain('TMPDIR=/tmp\n');
    const c = await runBin('tsrun', ['--cluster', file, '-n1', 'sh', '-c', 'echo "$TMPDIR"'], { env: { TMPDIR: '/var/tmp' } });
    expect(c).toEqual({ exitCode: 0, stdout: '/var/tmp\n', stderr: '' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a working directory the job\'s /tmp hides falls back to /tmp with slurmstepd\'s line', async () => {
    const { file, dir } = cluster();
    const r = await runBin('tsrun', ['--cluster', file, '-n1', '-D', '/tmp/tslurm-no-such-dir', 'pwd']);
    // Missing on the host too: the node's line and the task's (Slurm's `-D /tmp/xyz`, /work/ref/tmpfs.txt).
    expect(r).toEqual({ exitCode: 0, stdout: '/tmp\n', stderr: "tsstepd-node1: error: couldn't chdir to `/tmp/tslurm-no-such-dir': No such file or directory: going to /tmp instead\n".repeat(2) });
    // A directory of the host's /tmp is not the job's either (Slurm: cd /tmp/aa && srun pwd).
    const hostDir = mkdtempSync(path.join(tmpdir(), 'tslurm-cwd-'));
    const s = await runBin('tsrun', ['--cluster', file, '-n2', 'pwd'], { cwd: hostDir });
    // Only the tasks' children, inside the namespace, fail: one line a task.
    expect(s).toEqual({ exitCode: 0, stdout: '/tmp\n/tmp\n', stderr: `tsstepd-node1: error: couldn't chdir to \`${hostDir}': No such file or directory: going to /tmp instead\n`.repeat(2) });
    // /tmp itself is the job's /tmp.
    const t = await runBin('tsrun', ['--cluster', file, '-n1', '-D', '/tmp', 'pwd']);
    expect(t).toEqual({ exitCode: 0, stdout: '/tmp\n', stderr: '' });
    rmSync(hostDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a batch script and the steps it runs share the job\'s /tmp and namespace; nothing of tslurm\'s is in it', async () => {
    const { file, base, state, dir } = cluster();
    const out = path.join(dir, 'out');
    const script = [
      'echo from-batch > /tmp/batchfile',
      "tsrun -n2 -l sh -c 'cat /tmp/batchfile; touch /tmp/step$SLURM_PROCID; readlink /proc/self/ns/mnt; sleep 1; ls -A /tmp | tr \"\\n\" \" \"; echo'",
      'readlink /proc/self/ns/mnt',
      'ls -A /tmp | tr "\\n" " "; echo',
      'echo "TMPDIR=$TMPDIR"',
    ].join('\n');
    const env = { TSLURM_STATE_DIR: state, PATH: `${path.resolve('bin')}:${process.env.PATH}`, TMPDIR: undefined };
    // The ts names as bin/*.js: a tsrun shim on PATH for the script.
    const shims = path.join(dir, 'bin');
    mkdirSync(shims);
    writeFileSync(path.join(shims, 'tsrun'), `#!/bin/sh\nexec ${process.execPath} ${path.resolve('bin/tsrun.js')} "$@"\n`, { mode: 0o755 });
    env.PATH = `${shims}:${process.env.PATH}`;
    const r = await runBin('tsbatch', ['--cluster', file, '-n2', '-o', out, '--wait', '--wrap', script], { env, timeout: 60_000 });
    expect(r.exitCode).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const nsLines = lines.filter((l) => l.includes('mnt:['));
    expect(nsLines).toHaveLength(3);
    expect(new Set(nsLines.map((l) => l.replace(/^\d: /, ''))).size).toBe(1);
    expect(lines.filter((l) => /^\d: from-batch$/.test(l)).sort()).toEqual(['0: from-batch', '1: from-batch']);
    expect(lines.filter((l) => /^\d: batchfile/.test(l)).sort()).toEqual(['0: batchfile step0 step1 ', '1: batchfile step0 step1 ']);
    expect(lines.slice(-2)).toEqual(['batchfile step0 step1 ', 'TMPDIR=/tmp']);
    expect(readdirSync(base)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a batch job whose working directory the job\'s /tmp hides starts in /tmp with slurmstepd\'s line', async () => {
    const { file, state, dir } = cluster();
    const out = path.join(dir, 'out');
    const r = await runBin('tsbatch', ['--cluster', file, '-D', '/tmp/tslurm-xyzq', '-o', out, '--wait', '--wrap', 'pwd'], { env: { TSLURM_STATE_DIR: state } });
    expect(r.exitCode).toBe(0);
    // Twice, as Slurm's `sbatch -W -D /tmp/xyzq` (/work/ref/tmpfs.txt): for the node and the script's child.
    expect(readFileSync(out, 'utf8')).toBe("slurmstepd-node1: error: couldn't chdir to `/tmp/tslurm-xyzq': No such file or directory: going to /tmp instead\n".repeat(2) + '/tmp\n');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('job_container/tmpfs: its files stay out of /tmp', () => {
  it('the default base_path is not under /tmp, where a job (or everyone) would see it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-tmpfs-default-'));
    const file = path.join(dir, 'cluster.yaml');
    writeFileSync(file, 'cluster: jcdefault\nplugins:\n  job_container: job_container/tmpfs\noptions:\n  job_container_tmpfs: { mode: tmpdir }\nnodes:\n  - name: n1\n    cpus: 2\npartitions:\n  - name: debug\n    nodes: n1\n');
    const r = await runBin('tsrun', ['--cluster', file, '-n1', 'sh', '-c', 'echo "$TMPDIR"']);
    expect(r.exitCode).toBe(0);
    const uid = process.getuid?.() ?? 0;
    expect(r.stdout).toBe(`${uid === 0 ? '/var/tmp/tslurm-job_container' : `/var/tmp/tslurm-job_container-${uid}`}/1/.1\n`);
    expect(existsSync(path.join(tmpdir(), 'tslurm-job_container', '1'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
