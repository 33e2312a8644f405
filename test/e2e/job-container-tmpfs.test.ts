// job_container/tmpfs with the real bins: each job's tasks share a private /tmp (a mount
// namespace where root and unshare allow it, else $TMPDIR), two jobs never see each other's,
// and the job's directory is gone once the job ends.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';

function namespacesWork(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const NAMESPACES = namespacesWork();

/** The fixture cluster with its base_path moved to a fresh directory (and more options). */
function cluster(extra = ''): { file: string; base: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-tmpfs-'));
  const base = path.join(dir, 'base');
  const yaml = readFileSync(fixture('clusters', 'job-container-tmpfs.yaml'), 'utf8').replace(/base_path: \S+/, `base_path: ${base}${extra}`);
  const file = path.join(dir, 'cluster.yaml');
  writeFileSync(file, yaml);
  return { file, base };
}

// Writes a file named after the job into its /tmp (or $TMPDIR), waits, then lists what it sees.
const task = `d=\${TMPDIR:-/tmp}; echo $SLURM_JOB_ID > $d/job-$SLURM_JOB_ID-$SLURM_PROCID; sleep 1; echo "$d"; ls $d | grep '^job-' | tr '\\n' ' '`;

describe(`job_container/tmpfs (${NAMESPACES ? 'mount namespaces: running as root' : 'TMPDIR: no root or no unshare here'})`, () => {
  it('two concurrent jobs each see only their own /tmp, and both directories are gone afterwards', async () => {
    const { file, base } = cluster();
    const state = mkdtempSync(path.join(tmpdir(), 'tslurm-state-'));
    const run = () => runBin('tsrun', ['--cluster', file, '-N2', '-n2', '-l', 'sh', '-c', task], { env: { TSLURM_STATE_DIR: state } });
    const [a, b] = await Promise.all([run(), run()]);
    for (const r of [a, b]) expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    // Tasks of a step write concurrently: compare their lines in task order.
    const seen = [a, b].map((r) => r.stdout.split('\n').filter((l) => l.startsWith('0: job-') || l.startsWith('1: job-')).sort());
    const jobs = seen.map((lines) => /job-(\d+)-/.exec(lines[0]!)![1]!).sort();
    expect(jobs).toEqual(['1', '2']);
    for (const lines of seen) {
      const job = /job-(\d+)-/.exec(lines[0]!)![1];
      // Both tasks (on two nodes) share the job's directory and see nothing of the other job.
      expect(lines).toEqual([`0: job-${job}-0 job-${job}-1 `, `1: job-${job}-0 job-${job}-1 `]);
    }
    const dirs = [a, b].map((r) => /^0: (\/\S+)$/m.exec(r.stdout)![1]!);
    if (NAMESPACES) {
      expect(dirs).toEqual(['/tmp', '/tmp']);
      // Written to /tmp inside the namespace, so not to the host's /tmp.
      expect(readdirSync('/tmp').filter((f) => /^job-[12]-[01]$/.test(f))).toEqual([]);
    } else {
      expect(dirs.sort()).toEqual([path.join(base, '1', '.1'), path.join(base, '2', '.2')]);
    }
    expect(readdirSync(base)).toEqual([]);
  });

  it('mode: tmpdir exports the job\'s directory as TMPDIR, for users without root', async () => {
    const { file, base } = cluster('\n    mode: tmpdir');
    const r = await runBin('tsrun', ['--cluster', file, '-n1', 'sh', '-c', 'echo "$TMPDIR"; touch "$TMPDIR/x" && ls "$TMPDIR"']);
    expect(r).toEqual({ exitCode: 0, stdout: `${path.join(base, '1', '.1')}\nx\n`, stderr: '' });
    expect(existsSync(path.join(base, '1'))).toBe(false);
  });

  it.runIf(NAMESPACES)('namespace mode also gives the job a private /dev/shm', async () => {
    const { file } = cluster();
    const r = await runBin('tsrun', ['--cluster', file, '-n1', 'sh', '-c', 'touch /dev/shm/tslurm-jc-probe && ls /dev/shm']);
    expect(r).toEqual({ exitCode: 0, stdout: 'tslurm-jc-probe\n', stderr: '' });
    expect(existsSync('/dev/shm/tslurm-jc-probe')).toBe(false);
  });

  it('refuses a base_path that is not absolute, at load time', async () => {
    const { file } = cluster();
    writeFileSync(file, readFileSync(file, 'utf8').replace(/base_path: \S+/, 'base_path: relative/dir'));
    const r = await runBin('tsrun', ['--cluster', file, '-n1', 'true']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('job_container/tmpfs: base_path must be an absolute path');
  });
});
