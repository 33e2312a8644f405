// DerivedExitCode is Slurm's derived_ec: the highest wait status of a job's steps, whatever the
// batch script itself exited with (observed on 22.05, /work/ref/nice-timemin.txt and
// json-exit-code.txt): `scontrol -d show job` prints it as code:signal, squeue --json as the raw
// status; a job tsrun created keeps 0; scontrol 22.05 cannot update it.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const ctl = testController({ TSLURM_CONF: fixture('clusters', 'one-node.yaml') });
// The batch scripts' steps: tsrun as built here (the scripts do not see the test's PATH).
const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
afterAll(() => ctl.stop());

async function finished(script: string): Promise<string> {
  const r = await ctl.run('tsbatch', ['--parsable', '-o', '/dev/null', '--wrap', script]);
  expect(r.stderr).toBe('');
  const id = r.stdout.trim();
  await ctl.until(async () => ['COMPLETED', 'FAILED'].includes(await ctl.jobField(id, 'JobState')), 60_000);
  return id;
}

async function jsonCodes(id: string): Promise<{ exit: number; derived: number }> {
  const r = await ctl.run('tsqueue', ['-t', 'all', '--json']);
  const job = (JSON.parse(r.stdout) as { jobs: Array<{ job_id: number; exit_code: number; derived_exit_code: number }> }).jobs.find((j) => j.job_id === Number(id))!;
  return { exit: job.exit_code, derived: job.derived_exit_code };
}

describe('DerivedExitCode', () => {
  it('is the highest wait status of the batch job\'s steps, in scontrol -d show job and tsqueue --json', async () => {
    const id = await finished(`${tsrun} sh -c "exit 4"; ${tsrun} sh -c 'kill -9 $$'; ${tsrun} sh -c "exit 2"; exit 1`);
    const detailed = (await ctl.run('tscontrol', ['-d', 'show', 'job', id])).stdout;
    expect(detailed).toContain(' ExitCode=1:0\n   DerivedExitCode=4:0\n');
    expect((await ctl.run('tscontrol', ['show', 'job', id])).stdout).not.toContain('DerivedExitCode');
    expect(await jsonCodes(id)).toEqual({ exit: 256, derived: 1024 });
  }, 90_000);

  it('carries a step\'s signal as 0:SIG, and is 0:0 for a job without steps', async () => {
    const signalled = await finished(`${tsrun} sh -c 'kill -9 $$'; exit 0`);
    expect(await ctl.jobField(signalled, 'ExitCode')).toBe('0:0');
    expect((await ctl.run('tscontrol', ['-d', 'show', 'job', signalled])).stdout).toContain('   DerivedExitCode=0:9\n');
    expect(await jsonCodes(signalled)).toEqual({ exit: 0, derived: 9 });
    const plain = await finished('exit 3');
    expect(await jsonCodes(plain)).toEqual({ exit: 768, derived: 0 });
  }, 90_000);

  it('stays 0 for a job tsrun created, and cannot be updated (scontrol 22.05\'s refusal)', async () => {
    const step = await ctl.run('tsrun', ['sh', '-c', 'exit 5']);
    expect(step.exitCode).toBe(5);
    const id = (await ctl.run('tsqueue', ['-h', '-t', 'all', '-n', 'sh', '-o', '%i'])).stdout.trim();
    expect(await jsonCodes(id)).toEqual({ exit: 1280, derived: 0 });
    const update = await ctl.run('tscontrol', ['update', `JobId=${id}`, 'DerivedExitCode=3']);
    expect({ exit: update.exitCode, stderr: update.stderr }).toEqual({ exit: 1, stderr: 'Update of this parameter is not supported: DerivedExitCode=3\nRequest aborted\n' });
  }, 60_000);
});
