// The Resource Selection API page's call flow, proved through the real controller with a
// third-party select plugin that records every call (fixtures/plugins/select-recorder):
// node_init → state_restore → job_init at start; job_test(RUN_NOW, available nodes) →
// job_test(TEST_ONLY, all configured) → pending, or job_begin → job_ready → job_fini; TEST_ONLY
// → reject at submit; job_signal on tscancel; state_save at shutdown, restore at restart.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

interface Call {
  hook: string;
  pid: number;
  job?: number;
  mode?: string;
  rc?: number;
  signal?: number;
  found?: boolean;
  jobs?: number[];
  node?: string;
  node_count?: number;
  step?: number;
  killing_step?: boolean;
  indf_susp?: boolean;
}

const cluster = fixture('clusters', 'select-recorder.yaml'); // node[1-2], 4 CPUs each
const START = ['init', 'select_p_node_ranking', 'select_p_node_init', 'select_p_ba_init', 'select_p_state_restore', 'select_p_job_init'];

describe('select plugin calls from the controller (select/recorder)', () => {
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-selrec-')), 'select.jsonl');
  const ctl = testController({ TSLURM_PLUGIN_DIR: fixture('plugins', 'select-recorder'), SELECT_RECORDER_LOG: log });
  afterAll(() => ctl.stop());
  const sbatch = (args: string[]) => ctl.run('tsbatch', ['--cluster', cluster, ...args]);
  const calls = (): Call[] => readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Call);
  const short = (c: Call) => (c.mode ? `${c.hook.replace('select_p_', '')} ${c.mode}` : c.hook.replace('select_p_', ''));
  // The calls about one job, in order (job 0 is the probe of a submission's TEST_ONLY).
  const about = (id: number) => calls().filter((c) => c.job === id).map(short);
  const state = (id: number) => ctl.jobField(id, 'JobState');

  it('starts with node_init → state_restore → job_init; a job that fits: TEST_ONLY at submit, RUN_NOW → job_begin → job_ready → job_fini', async () => {
    const result = await sbatch(['--parsable', '--wait', '--wrap', 'true']);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const id = Number(result.stdout.trim());
    const all = calls();
    expect(all.slice(0, START.length).map((c) => c.hook)).toEqual(START);
    expect(all[START.length - 1]!.jobs).toEqual([]);
    const afterStart = all.slice(START.length).filter((c) => c.job === 0 || c.job === id).map(short);
    expect(afterStart).toEqual(['job_test TEST_ONLY', 'job_test RUN_NOW', 'job_begin', 'select_nodeinfo_set', 'job_ready', 'job_fini']);
  });

  it('a job that cannot run now: RUN_NOW fails → TEST_ONLY succeeds → pending; it starts once the nodes are free', async () => {
    // Long enough that the next submission, slow on a loaded machine, still finds the nodes taken.
    const big = Number((await sbatch(['--parsable', '-N2', '--wrap', 'sleep 8'])).stdout.trim());
    await ctl.until(async () => (await state(big)) === 'RUNNING');
    const small = Number((await sbatch(['--parsable', '--wrap', 'true'])).stdout.trim());
    expect(await state(small)).toBe('PENDING');
    await ctl.until(async () => (await state(small)) === 'COMPLETED');
    const seen = about(small);
    expect(seen.slice(0, 2)).toEqual(['job_test RUN_NOW', 'job_test TEST_ONLY']);
    expect(seen.slice(-5)).toEqual(['job_test RUN_NOW', 'job_begin', 'select_nodeinfo_set', 'job_ready', 'job_fini']);
    const all = calls();
    const bigFini = all.findIndex((c) => c.job === big && c.hook === 'select_p_job_fini');
    const smallBegin = all.findIndex((c) => c.job === small && c.hook === 'select_p_job_begin');
    expect(bigFini).toBeGreaterThan(0);
    expect(smallBegin).toBeGreaterThan(bigFini);
    // While it waited, every failed RUN_NOW was followed by a TEST_ONLY, never by job_begin;
    // a WILL_RUN (the start estimate of `tsqueue --start`) only ever follows a TEST_ONLY.
    seen.forEach((call, i) => {
      if (call === 'job_test WILL_RUN') expect(seen[i - 1]).toBe('job_test TEST_ONLY');
    });
    const waiting = seen.slice(0, -5).filter((call) => call !== 'job_test WILL_RUN');
    expect(waiting.length % 2, seen.join(' | ')).toBe(0);
    for (let i = 0; i < waiting.length; i += 2) expect(waiting.slice(i, i + 2)).toEqual(['job_test RUN_NOW', 'job_test TEST_ONLY']);
  });

  it('a job that can never run is refused at submit after TEST_ONLY, and nothing begins', async () => {
    const before = calls().length;
    const result = await sbatch(['-N3', '--wrap', 'true']);
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbatch: error: Batch job submission failed: Requested node configuration is not available\n',
    });
    const made = calls().slice(before);
    expect(made.map(short)).toEqual(['job_test TEST_ONLY']);
    expect(made[0]).toMatchObject({ job: 0, rc: 2014 });
  });

  it('tscancel -s sends select_p_job_signal with the signal; tscancel with SIGKILL, then job_fini', async () => {
    const id = Number((await sbatch(['--parsable', '--wrap', "trap '' USR1; sleep 30"])).stdout.trim());
    await ctl.until(async () => (await state(id)) === 'RUNNING');
    expect((await ctl.run('tscancel', ['-s', 'USR1', String(id)])).exitCode).toBe(0);
    expect((await ctl.run('tscancel', [String(id)])).exitCode).toBe(0);
    await ctl.until(async () => (await state(id)) === 'CANCELLED');
    const signals = calls().filter((c) => c.job === id && c.hook === 'select_p_job_signal').map((c) => c.signal);
    expect(signals).toEqual([10, 9]);
    expect(about(id).slice(-2)).toEqual(['job_signal', 'job_fini']);
  });

  it('a step, suspend/resume, a NumNodes shrink and node information reach the plugin at their moments', async () => {
    const tsrun = `${process.execPath} ${path.resolve('bin', 'tsrun.js')}`;
    const script = `${tsrun} --cluster ${cluster} -N1 true; touch step-done; sleep 30`;
    const id = Number((await sbatch(['--parsable', '-N2', '--wrap', script])).stdout.trim());
    await ctl.until(() => calls().some((c) => c.job === id && c.hook === 'select_p_step_finish'));
    const step = calls().filter((c) => c.job === id && /step_/.test(c.hook));
    expect(step.map((c) => c.hook)).toEqual(['select_p_step_pick_nodes', 'select_p_step_finish']);
    expect(step[0]).toMatchObject({ node_count: 1 });
    expect(step[1]).toMatchObject({ step: 0, killing_step: false });

    expect((await ctl.run('tscontrol', ['suspend', String(id)])).exitCode).toBe(0);
    expect(about(id).at(-1)).toBe('job_suspend');
    expect(calls().filter((c) => c.hook === 'select_p_job_suspend').at(-1)).toMatchObject({ job: id, indf_susp: true });
    expect((await ctl.run('tscontrol', ['resume', String(id)])).exitCode).toBe(0);
    expect(about(id).at(-1)).toBe('job_resume');

    expect((await ctl.run('tscontrol', ['update', `JobId=${id}`, 'NumNodes=1'])).exitCode).toBe(0);
    expect(calls().filter((c) => c.hook === 'select_p_job_resized').at(-1)).toMatchObject({ job: id, node: 'node2' });
    expect(await ctl.jobField(id, 'NodeList')).toBe('node1');
    const before = calls().length;
    expect((await ctl.run('tscontrol', ['update', `JobId=${id}`, 'NumNodes=2'])).exitCode).toBe(1);
    expect(calls().slice(before).map((c) => c.hook)).toEqual(['select_p_job_expand_allow']);

    // Node information is refreshed through the plugin before it is answered, once per change.
    const infoBefore = calls().length;
    await ctl.run('tsinfo', ['--cluster', cluster]);
    await ctl.run('tsinfo', ['--cluster', cluster]);
    expect(calls().slice(infoBefore).map((c) => c.hook)).toEqual(['select_p_select_nodeinfo_set_all']);
    await ctl.run('tscancel', [String(id)]);
    await ctl.until(async () => (await state(id)) === 'CANCELLED');
  });

  it('saves its state at shutdown; a new controller restores it and takes over the running job', async () => {
    // Long enough to outlast the restart on a loaded machine; ended by tscancel below.
    const id = Number((await sbatch(['--parsable', '--wrap', 'sleep 30'])).stdout.trim());
    await ctl.until(async () => (await state(id)) === 'RUNNING');
    const firstPid = calls()[0]!.pid;
    await ctl.stop();
    const ended = calls();
    expect(ended.slice(-2).map((c) => c.hook)).toEqual(['select_p_state_save', 'fini']);
    expect(ended.every((c) => c.pid === firstPid)).toBe(true);
    // The next submission starts a new controller.
    const held = (await sbatch(['--parsable', '--hold', '--wrap', 'true'])).stdout.trim();
    expect(await state(id)).toBe('RUNNING');
    await ctl.run('tscancel', [held]);
    const restarted = calls().filter((c) => c.pid !== firstPid);
    expect(restarted.slice(0, START.length).map((c) => c.hook)).toEqual(START);
    expect(restarted[4]).toMatchObject({ hook: 'select_p_state_restore', found: true });
    expect(restarted[5]!.jobs).toContain(id);
    expect(restarted[6]).toMatchObject({ hook: 'select_p_select_nodeinfo_set', job: id });
    await ctl.run('tscancel', [String(id)]);
    await ctl.until(async () => (await state(id)) === 'CANCELLED');
    expect(about(id).at(-1)).toBe('job_fini');
    expect(calls().filter((c) => c.job === id && c.hook === 'select_p_job_fini').every((c) => c.pid !== firstPid)).toBe(true);
  });
});
