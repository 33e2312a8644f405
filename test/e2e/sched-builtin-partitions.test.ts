// sched/builtin blocks only the partition of a job that waits for resources, as slurmctld's
// schedule() does with failed_parts (job_scheduler.c, 22.05): later jobs of that partition wait
// with reason Priority, jobs of other partitions still start — but not on the blocked
// partition's nodes, which its first waiting job is owed.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

describe('sched/builtin with two partitions', () => {
  // small.yaml: debug = node[1-4] (the default), small = node[1-2]; 4 CPUs a node.
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', String(process.getuid?.() ?? 0)]);
    await ctl.stop();
  });
  const submit = async (args: string[]): Promise<string> => {
    const r = await ctl.run('tsbatch', ['--parsable', ...args, '--wrap', 'sleep 300']);
    expect(r.stderr).toBe('');
    return r.stdout.trim();
  };
  const stateAndReason = async (id: string) => `${await ctl.jobField(id, 'JobState')} ${await ctl.jobField(id, 'Reason')}`;

  it("a job waiting in one partition holds back only that partition's later jobs", async () => {
    const holder = await submit(['-p', 'small', '-N2', '--exclusive']);
    await ctl.until(async () => (await ctl.jobField(holder, 'JobState')) === 'RUNNING');
    // Submitted in this order, each below the one before in priority.
    const waiting = await submit(['-p', 'small', '-N1']);
    const behind = await submit(['-p', 'small', '-N1']);
    const other = await submit(['-p', 'debug', '-N2']);
    // Fits only on node1 or node2, which the waiting small job is owed: it waits too.
    const onBlockedNodes = await submit(['-p', 'debug', '-N1', '-w', 'node1']);
    await ctl.until(async () => (await ctl.jobField(other, 'JobState')) !== 'PENDING', 30_000);
    expect(await stateAndReason(other)).toBe('RUNNING None');
    expect(await ctl.jobField(other, 'NodeList')).toBe('node[3-4]');
    expect(await stateAndReason(waiting)).toBe('PENDING Resources');
    expect(await stateAndReason(behind)).toBe('PENDING Priority');
    expect(await ctl.jobField(onBlockedNodes, 'JobState')).toBe('PENDING');
  });
});
