// tsbcast (sbcast): a file copied to every node of a running job, written inside the job's
// container. Messages and exit codes are sbcast's, as observed on Slurm 22.05 (missing job id
// 1, job lookup and source errors 255, a node's failure its errno). Under job_container/tmpfs
// as root the copy lands in the job's private /tmp, where the job's tasks read it and from
// which it is gone with the job; elsewhere that case is skipped with the reason in its title.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

function namespacesWork(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
// The job's private /tmp hides a checkout that lies under /tmp (tsrun, tsbcast), as Slurm's
// job_container/tmpfs hides binaries there.
const UNDER_TMP = path.resolve(repoRoot).startsWith('/tmp/');
const NAMESPACES = namespacesWork() && !UNDER_TMP;
// The job's tasks get a private /tmp: everything they must see (state, script, cluster file) lives outside it.
const OUTSIDE_TMP = '/var/tmp';
const tsbcast = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsbcast.js')}`;
const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;

/** The tmpfs fixture cluster with its base_path moved to a fresh directory outside /tmp. */
function tmpfsCluster(): { file: string; base: string; dir: string } {
  const dir = mkdtempSync(path.join(OUTSIDE_TMP, 'tslurm-bcast-'));
  const base = path.join(dir, 'base');
  const yaml = readFileSync(fixture('clusters', 'job-container-tmpfs.yaml'), 'utf8').replace(/^( +base_path:) \S+/m, `$1 ${base}`);
  const file = path.join(dir, 'cluster.yaml');
  writeFileSync(file, yaml);
  return { file, base, dir };
}

describe('tsbcast: what it refuses before copying anything', () => {
  it('needs a job: sbcast\'s message, exit 1', async () => {
    const r = await runBin('tsbcast', ['/etc/hostname', '/tmp/x'], { env: { SLURM_JOB_ID: undefined, SLURM_JOBID: undefined } });
    expect(r).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbcast: error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.\n',
    });
  });

  it('needs SOURCE and DEST', async () => {
    const r = await runBin('tsbcast', ['/etc/hostname']);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'tsbcast: error: Need two file names, have 1 names\n' });
  });

  it('an unknown job is a lookup error, exit 255', async () => {
    const r = await runBin('tsbcast', ['-j', '99', '/etc/hostname', '/tmp/x']);
    expect(r).toEqual({ exitCode: 255, stdout: '', stderr: 'tsbcast: error: Slurm job 99 lookup error: Invalid job id specified\n' });
  });

  it('a pending job is a lookup error, and so is an ended one', async () => {
    const ctl = testController();
    try {
      const held = (await ctl.run('tsbatch', ['--parsable', '-H', '--wrap', 'true'])).stdout.trim();
      const pending = await ctl.run('tsbcast', ['-j', held, '/etc/hostname', '/tmp/x']);
      expect(pending).toEqual({ exitCode: 255, stdout: '', stderr: `tsbcast: error: Slurm job ${held} lookup error: Job is pending execution\n` });
      const done = (await ctl.run('tsbatch', ['--parsable', '--wrap', 'true'])).stdout.trim();
      await ctl.until(async () => (await ctl.jobField(done, 'JobState')) === 'COMPLETED');
      const ended = await ctl.run('tsbcast', ['-j', done, '/etc/hostname', '/tmp/x']);
      expect(ended).toEqual({ exitCode: 255, stdout: '', stderr: `tsbcast: error: Slurm job ${done} lookup error: Job/step already completing or completed\n` });
    } finally {
      await ctl.stop();
    }
  });

  it('answers to sbcast under the drop-in name, in sbcast\'s words', async () => {
    expect(await runBin('slurm-name', ['sbcast', '--version'])).toEqual({ exitCode: 0, stdout: 'slurm 22.05.8\n', stderr: '' });
    const r = await runBin('slurm-name', ['sbcast', '/etc/hostname', '/tmp/x'], { env: { SLURM_JOB_ID: undefined, SLURM_JOBID: undefined } });
    expect(r.stderr).toBe('sbcast: error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.\n');
  });
});

const SKIPPED = UNDER_TMP ? 'SKIPPED: the checkout lies under /tmp, which the job cannot see' : 'SKIPPED: needs root and unshare --mount';
describe(`tsbcast into a job under job_container/tmpfs (${NAMESPACES ? 'mount namespaces: running as root' : SKIPPED})`, () => {
  it.skipIf(!NAMESPACES)('copies to the job\'s private /tmp on every node; -f replaces; errors per node; gone after the job', async () => {
    const { file: cluster, base, dir } = tmpfsCluster();
    const ctl = testController({ TSLURM_CONF: cluster }, OUTSIDE_TMP);
    const name = `tslurm-bcast-${path.basename(dir)}.txt`;
    const source = path.join(dir, 'source.txt');
    writeFileSync(source, 'broadcast payload\n', { mode: 0o640 });
    const script = [
      `${tsbcast} ${source} /tmp/${name}; echo "first=$?"`,
      `${tsbcast} ${source} /tmp/${name}; echo "again=$?"`,
      `${tsbcast} -f -p ${source} /tmp/${name}; echo "forced=$?"`,
      `${tsbcast} ${source} /tmp/no-such-dir/${name}; echo "nodir=$?"`,
      `${tsbcast} ${dir}/missing /tmp/x; echo "missing=$?"`,
      `${tsbcast} ${source} /tmp/; echo "dirdest=$?"`,
      `${tsrun} -N2 -l cat /tmp/${name} | sort`,
      `stat -c '%a %Y' /tmp/${name}`,
    ].join('\n');
    try {
      const sub = await ctl.run('tsbatch', ['--parsable', '-N2', '-o', 'out.txt', '--wrap', script]);
      expect(sub.exitCode).toBe(0);
      const id = sub.stdout.trim();
      // Seven commands, each a Node start-up: on a loaded machine this takes a while.
      await ctl.until(async () => !['PENDING', 'RUNNING', 'COMPLETING'].includes(await ctl.jobField(id, 'JobState')), 90_000);
      expect(await ctl.jobField(id, 'JobState')).toBe('COMPLETED');
      const lines = ctl.read('out.txt').split('\n');
      const mtime = Math.floor(Number(execFileSync('stat', ['-c', '%Y', source], { encoding: 'utf8' })));
      expect(lines).toEqual([
        'first=0',
        'tsbcast: error: REQUEST_FILE_BCAST(node1): File exists',
        'tsbcast: error: REQUEST_FILE_BCAST(node2): File exists',
        'again=17',
        'forced=0',
        'tsbcast: error: REQUEST_FILE_BCAST(node1): No such file or directory',
        'tsbcast: error: REQUEST_FILE_BCAST(node2): No such file or directory',
        'nodir=2',
        `tsbcast: error: Can't open \`${dir}/missing\`: No such file or directory`,
        'missing=255',
        'tsbcast: error: Target filename cannot be a directory.',
        'dirdest=1',
        '0: broadcast payload',
        '1: broadcast payload',
        `640 ${mtime}`,
        '',
      ]);
      // Only in the job's /tmp, which went with the job.
      expect(existsSync(`/tmp/${name}`)).toBe(false);
      expect(existsSync(base) ? readdirSync(base) : []).toEqual([]);
    } finally {
      await ctl.stop();
    }
  }, 120_000);
});
