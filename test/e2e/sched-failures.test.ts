// What the controller does when its sched plugin fails (README "Writing a plugin"): at load,
// the controller does not start and the command says why; at run time, the failure is one log
// line naming the plugin and the hook, the job is accepted and stays pending, and scheduling
// goes on with the next pass. fixtures/plugins/sched-fails fails as its options say.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { fixture } from '../helpers/run-bin.js';

function clusterWith(mode: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-sched-fails-')), 'cluster.yaml');
  writeFileSync(
    file,
    [
      'cluster: schedfails',
      'plugins:',
      `  plugin_dirs: [${JSON.stringify(fixture('plugins', 'sched-fails'))}]`,
      '  sched: sched/fails',
      `options: { sched_fails: { mode: ${mode} } }`,
      'nodes: [{ name: "node[1-2]", cpus: 2 }]',
      'partitions: [{ name: debug, nodes: ALL, default: true }]',
      '',
    ].join('\n'),
  );
  return file;
}

describe('a sched plugin that fails', () => {
  it('at load: the controller does not start, and the command says why in one line', async () => {
    const ctl = testController();
    const result = await ctl.run('tsbatch', ['--cluster', clusterWith('init-fails'), '--wrap', 'true']);
    await ctl.stop();
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('sched/fails: cannot reach the fair-share database');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('at run time, throwing', () => {
    const ctl = testController();
    afterAll(() => ctl.stop());
    const log = () => readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');

    it('the job is accepted with the default priority and stays pending; each failure is one log line', async () => {
      const cluster = clusterWith('throw');
      const first = await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wrap', 'true']);
      expect(first).toMatchObject({ exitCode: 0, stderr: '' });
      const id = Number(first.stdout.trim());
      const second = Number((await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wrap', 'true'])).stdout.trim());
      // Default priorities: each job one below the last.
      expect(Number(await ctl.jobField(second, 'Priority'))).toBe(Number(await ctl.jobField(id, 'Priority')) - 1);
      await ctl.until(() => /slurm_sched_p_schedule: crashed/.test(log()));
      expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
      expect(log()).toContain(`error: sched/fails: slurm_sched_p_initial_priority: crashed: no priority today; job ${id} gets priority`);
      expect(log()).toMatch(/error: sched\/fails: slurm_sched_p_schedule: crashed: pass \d+ fell over; the pass ends, its pending jobs stay pending/);
      // One line each: no stack trace in the log.
      expect(log()).not.toMatch(/^\s+at /m);
    });
  });

  describe('at run time, hanging', () => {
    const ctl = testController({ TSLURM_PLUGIN_TIMEOUT: '1' });
    afterAll(() => ctl.stop());
    const log = () => readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');

    it('the pass is given up after the timeout, and the passes after it schedule as usual', async () => {
      const cluster = clusterWith('hang-once');
      const first = Number((await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wrap', 'true'])).stdout.trim());
      await ctl.until(() => /error: sched\/fails: slurm_sched_p_schedule: did not return within 1 s; the pass ends/.test(log()));
      const second = Number((await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wrap', 'true'])).stdout.trim());
      await ctl.until(async () => (await ctl.jobField(first, 'JobState')) === 'COMPLETED' && (await ctl.jobField(second, 'JobState')) === 'COMPLETED');
    });
  });
});
