// A partition's OverSubscribe as Slurm documents it for select/cons_tres: FORCE shares every
// job's cores with up to 4 jobs (FORCE's default count), YES only those of jobs that ask
// --oversubscribe, NO none, EXCLUSIVE gives each job whole nodes. Before, only the cluster file
// recorded the setting: a FORCE partition ran one job per core like NO.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

// node1 (4 CPUs) in `shared` (FORCE, default), `yes` (YES) and `plain` (NO); node2 (4 CPUs) in
// `whole` (EXCLUSIVE); node3 (2 CPUs) in `pair` (FORCE:2).
const ctl = testController({ TSLURM_CONF: fixture('clusters', 'oversubscribe.yaml') });
afterAll(() => ctl.stop());

async function submit(args: string[]): Promise<string> {
  const r = await ctl.run('tsbatch', ['--parsable', ...args, '--wrap', 'sleep 300']);
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

const state = (id: string) => ctl.jobField(id, 'JobState');

describe('OverSubscribe', () => {
  it('FORCE runs up to 4 jobs on the same cores; NO and YES without --oversubscribe wait for free ones; EXCLUSIVE takes whole nodes', async () => {
    const shared: string[] = [];
    for (let k = 0; k < 4; k++) shared.push(await submit(['-p', 'shared', '-n4']));
    await ctl.until(async () => (await Promise.all(shared.map(state))).every((s) => s === 'RUNNING'), 30_000);
    // Each holds all four CPUs of node1.
    for (const id of shared) expect(await ctl.jobField(id, 'NumCPUs')).toBe('4');
    const fifth = await submit(['-p', 'shared', '-n4']);
    const plain = await submit(['-p', 'plain', '-n1']);
    const yesAlone = await submit(['-p', 'yes', '-n1']);
    const whole = await submit(['-p', 'whole', '-n1']);
    await ctl.until(async () => (await state(whole)) === 'RUNNING', 30_000);
    // EXCLUSIVE: one task, the whole node.
    expect(await ctl.jobField(whole, 'NumCPUs')).toBe('4');
    for (const id of [fifth, plain, yesAlone]) {
      expect(await state(id)).toBe('PENDING');
      expect(await ctl.jobField(id, 'Reason')).toMatch(/^(Resources|Priority)$/);
    }
    // The node counts its CPUs taken once, however many jobs share them.
    const node = (await ctl.run('tscontrol', ['show', 'node', 'node1'])).stdout;
    expect(node).toContain('CPUAlloc=4 ');
    expect(node).toContain('State=ALLOCATED ');
    // YES: a job that asks --oversubscribe shares... once a core is held by fewer than 4 jobs.
    // (The pending FORCE job would take the freed place first: it goes.)
    expect((await ctl.run('tscancel', [fifth, shared[0]!])).exitCode).toBe(0);
    const yesShared = await submit(['-p', 'yes', '-n1', '--oversubscribe']);
    await ctl.until(async () => (await state(yesShared)) === 'RUNNING', 30_000);
    expect(await state(yesAlone)).toBe('PENDING');
    expect(await state(plain)).toBe('PENDING');
    expect((await ctl.run('tscancel', ['-u', process.env['USER'] ?? 'root'])).exitCode).toBe(0);
  }, 90_000);

  it('FORCE:N shares each core among N jobs; shown as scontrol and sinfo show it; tscontrol update changes it for waiting jobs too', async () => {
    expect((await ctl.run('tscontrol', ['-o', 'show', 'partition', 'pair'])).stdout).toContain(' OverSubscribe=FORCE:2 ');
    expect((await ctl.run('tscontrol', ['-o', 'show', 'partition', 'shared'])).stdout).toContain(' OverSubscribe=FORCE:4 ');
    expect((await ctl.run('tsinfo', ['-h', '-p', 'pair,yes', '-o', '%P %h'])).stdout).toBe('yes YES:4\npair FORCE:2\n');
    const pair = [await submit(['-p', 'pair', '-n2']), await submit(['-p', 'pair', '-n2'])];
    await ctl.until(async () => (await Promise.all(pair.map(state))).every((s) => s === 'RUNNING'), 30_000);
    const third = await submit(['-p', 'pair', '-n2']);
    await ctl.until(async () => (await ctl.jobField(third, 'Reason')) === 'Resources', 30_000);
    expect(await state(third)).toBe('PENDING');
    // scontrol's own reading of the value (observed on 22.05): FORCE:abc is EXCLUSIVE, and a bad word is refused.
    expect(await ctl.run('tscontrol', ['update', 'PartitionName=pair', 'OverSubscribe=MAYBE'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tscontrol: error: Invalid input: OverSubscribe=MAYBE\ntscontrol: error: Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#\nslurm_update error: No error\n',
    });
    expect((await ctl.run('tscontrol', ['update', 'PartitionName=pair', 'OverSubscribe=FORCE:3'])).exitCode).toBe(0);
    expect((await ctl.run('tscontrol', ['-o', 'show', 'partition', 'pair'])).stdout).toContain(' OverSubscribe=FORCE:3 ');
    // The waiting job now fits as the third on the same cores.
    await ctl.until(async () => (await state(third)) === 'RUNNING', 30_000);
    expect((await ctl.run('tscontrol', ['update', 'PartitionName=pair', 'Shared=FORCE:abc'])).exitCode).toBe(0);
    expect((await ctl.run('tscontrol', ['-o', 'show', 'partition', 'pair'])).stdout).toContain(' OverSubscribe=EXCLUSIVE ');
    expect((await ctl.run('tscancel', ['-u', process.env['USER'] ?? 'root'])).exitCode).toBe(0);
  }, 90_000);
});
