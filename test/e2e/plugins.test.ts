// Third-party plugins as users drop them in: one fixture directory per behaviour, loaded by
// the real bins through TSLURM_PLUGIN_DIR (DESIGN.md §4, the Plugin API pages).
import { describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';

const dir = (name: string): string => fixture('plugins', name);
const file = (name: string, base: string): string => path.join(dir(name), base);

async function tsrunWith(plugins: string, mpi: string, extra: Record<string, string> = {}) {
  return runBin('tsrun', [`--mpi=${mpi}`, '-n1', 'true'], { env: { TSLURM_PLUGIN_DIR: dir(plugins), ...extra } });
}

describe('refused plugins', () => {
  it('missing symbols: every missing name at once', async () => {
    const r = await tsrunWith('missing-symbol', 'incomplete');
    expect(r).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `tsrun: error: mpi/incomplete: Plugin missing required symbol or function: p_mpi_hook_slurmstepd_task, p_mpi_hook_client_fini (${file('missing-symbol', 'mpi_incomplete.js')})\n`,
    });
  });

  it('wrong major type', async () => {
    const r = await tsrunWith('wrong-type', 'wrongtype');
    expect(r.stderr).toBe(
      `tsrun: error: mpi/wrongtype: Plugin has invalid format or unable to be loaded: plugin_type is "select/wrongtype", expected "mpi/wrongtype" (${file('wrong-type', 'mpi_wrongtype.js')})\n`,
    );
    expect(r.exitCode).toBe(1);
  });

  it('built for another toolkit release', async () => {
    const r = await tsrunWith('bad-version', 'newer');
    expect(r.stderr).toBe(
      `tsrun: error: mpi/newer: Incompatible plugin version: plugin built for tslurm 9.9.0, this is tslurm 0.1.0 (${file('bad-version', 'mpi_newer.js')})\n`,
    );
    expect(r.exitCode).toBe(1);
  });

  it('speaking no API version tslurm speaks (older scheme)', async () => {
    const r = await tsrunWith('bad-version', 'futureapi');
    expect(r.stderr).toBe(
      `tsrun: error: mpi/futureapi: Incompatible plugin version: plugin speaks API 3, tslurm speaks API 0 (${file('bad-version', 'mpi_futureapi.js')})\n`,
    );
  });

  it('init fails: one line, with the reason it logged and the errno it set', async () => {
    const r = await tsrunWith('init-fails', 'initfails');
    expect(r.stderr).toBe("tsrun: error: mpi/initfails: cannot find the fabric (MPI plugin's pre-launch setup failed)\n");
    expect(r.exitCode).toBe(1);
  });

  it('init hangs: a timeout, not a hang', async () => {
    const r = await tsrunWith('init-hangs', 'inithangs', { TSLURM_PLUGIN_TIMEOUT: '1' });
    expect(r.stderr).toBe(
      `tsrun: error: mpi/inithangs: Plugin init() callback failed: init() did not return within 1 s (${file('init-hangs', 'mpi_inithangs.js')})\n`,
    );
    expect(r.exitCode).toBe(1);
  });

  it('a hook that throws is reported with the plugin type and the hook', async () => {
    const r = await tsrunWith('throws-in-hook', 'throws');
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: mpi/throws: p_mpi_hook_client_prelaunch: crashed: fabric exploded\n' });
  });

  it('an unknown type gets srun\'s message', async () => {
    const r = await runBin('tsrun', ['--mpi=nosuch', '-n1', 'true']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n').at(-2)).toBe("tsrun: error: Invalid MPI type 'nosuch', --mpi=list for acceptable types");
  });
});

describe('accepted plugins', () => {
  it('the highest minor revision wins among modules of one type', async () => {
    const r = await runBin('tscontrol', ['show', 'plugins', '--json'], { env: { TSLURM_PLUGIN_DIR: dir('two-revisions') } });
    const rows = (JSON.parse(r.stdout) as { plugins: Array<{ type: string; file: string; status: string; revision: number }> }).plugins;
    const revisions = rows.filter((p) => p.type === 'mpi/revision');
    expect(revisions.map((p) => [path.basename(p.file), p.status, p.revision])).toEqual([
      ['mpi_revision@2.js', 'superseded', 2],
      ['mpi_revision@5.js', 'superseded', 5],
      ['mpi_revision@7.js', 'ok', 7],
    ]);
    const run = await runBin('tsrun', ['--mpi=revision', '-v', '-n1', 'true'], { env: { TSLURM_PLUGIN_DIR: dir('two-revisions') } });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(`mpi/revision: using ${file('two-revisions', 'mpi_revision@7.js')} (revision 7)`);
  });

  it('API negotiation picks the highest common version', async () => {
    const r = await runBin('tsrun', ['--mpi=wide', '-n1', 'true'], { env: { TSLURM_PLUGIN_DIR: dir('api-negotiation') } });
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('a good third-party mpi plugin runs its hooks in Slurm\'s order, and its env edits reach the tasks', async () => {
    const log = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-rec-')), 'hooks.jsonl');
    const r = await runBin(
      'tsrun',
      ['--mpi=recorder', '-N2', '-n3', '-l', 'sh', '-c', 'echo $RECORDER_CLIENT $RECORDER_PREFORK $RECORDER_TASK $SLURM_MPI_TYPE'],
      { env: { TSLURM_PLUGIN_DIR: dir('good'), MPI_RECORDER_LOG: log } },
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual([
      '0: prelaunch node1 0 recorder',
      '1: prelaunch node1 1 recorder',
      '2: prelaunch node2 2 recorder',
    ]);
    const calls = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { hook: string; pid: number; step?: { node_name: string }; task?: { gtaskid: number; node_name: string } });
    const hooks = calls.map((c) => c.hook);
    expect(hooks[0]).toBe('init');
    expect(hooks[1]).toBe('p_mpi_hook_client_prelaunch');
    expect(hooks.filter((h) => h === 'p_mpi_hook_slurmstepd_prefork')).toHaveLength(2);
    expect(hooks.filter((h) => h === 'p_mpi_hook_slurmstepd_task')).toHaveLength(3);
    expect(hooks.slice(-2)).toEqual(['p_mpi_hook_client_fini', 'fini']);
    // Per node, prefork comes before that node's tasks.
    for (const node of ['node1', 'node2']) {
      const prefork = calls.findIndex((c) => c.step?.node_name === node);
      const firstTask = calls.findIndex((c) => c.task?.node_name === node);
      expect(prefork).toBeGreaterThan(0);
      expect(firstTask).toBeGreaterThan(prefork);
    }
    expect(calls.filter((c) => c.task).map((c) => c.task!.gtaskid).sort()).toEqual([0, 1, 2]);
  });

  it('tsrun ends with its step even when an mpi plugin left a timer running in it, as srun exits', async () => {
    const r = await runBin('tsrun', ['--mpi=lingers', '-n1', 'sh', '-c', 'exit 3'], { env: { TSLURM_PLUGIN_DIR: dir('lingers') }, timeout: 20_000 });
    expect(r).toMatchObject({ exitCode: 3, stdout: '' });
  });
});

describe('tscontrol show plugins', () => {
  it('lists the built-in plugins and marks the active ones', async () => {
    const r = await runBin('tscontrol', ['show', 'plugins']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TYPE\s+NAME\s+VERSION\s+FILE\s+STATUS$/);
    expect(lines.find((l) => l.startsWith('select/cons_tres'))).toMatch(/active$/);
    expect(lines.find((l) => l.startsWith('select/linear'))).toMatch(/ ok$/);
    expect(lines.find((l) => l.startsWith('mpi/none'))).toMatch(/active$/);
  });

  it('says why each refused module was refused', async () => {
    const dirs = ['missing-symbol', 'wrong-type', 'bad-version'].map(dir).join(':');
    const r = await runBin('tscontrol', ['show', 'plugins', '--json'], { env: { TSLURM_PLUGIN_DIR: dirs } });
    expect(r.exitCode).toBe(0);
    const rows = (JSON.parse(r.stdout) as { plugins: Array<{ type: string; status: string; refused: string | null }> }).plugins;
    const refused = Object.fromEntries(rows.filter((p) => p.status === 'refused').map((p) => [p.type, p.refused]));
    expect(refused).toEqual({
      'mpi/incomplete': 'Plugin missing required symbol or function: p_mpi_hook_slurmstepd_task, p_mpi_hook_client_fini',
      'select/wrongtype': 'Plugin missing required symbol or function: select_p_node_init, select_p_job_init, select_p_job_test, select_p_job_begin, select_p_job_ready, select_p_job_fini, select_p_step_finish',
      'mpi/newer': 'Incompatible plugin version: plugin built for tslurm 9.9.0, this is tslurm 0.1.0',
      'mpi/futureapi': 'Incompatible plugin version: plugin speaks API 3, tslurm speaks API 0',
    });
  });

  it('fails when a plugin the cluster is configured to use cannot load', async () => {
    const cluster = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-cl-')), 'c.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      cluster,
      `cluster: c\nplugins:\n  mpi_default: mpi/initfails\n  plugin_dirs: [${dir('init-fails')}]\nnodes:\n  - name: n1\n    cpus: 1\npartitions:\n  - name: p\n    nodes: ALL\n`,
    );
    const r = await runBin('tscontrol', ['show', 'plugins', '--cluster', cluster]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('mpi/initfails');
    expect(r.stderr).toContain("tscontrol: error: mpi/initfails: cannot find the fabric (MPI plugin's pre-launch setup failed)");
  });

  it('auth/hmac reads the key named by auth.key_file (relative to the cluster file) and refuses a loose one', async () => {
    const { chmodSync, rmSync, writeFileSync } = await import('node:fs');
    const { randomBytes } = await import('node:crypto');
    const home = mkdtempSync(path.join(tmpdir(), 'tslurm-hmac-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const cluster = path.join(home, 'c.yaml');
    writeFileSync(path.join(home, 'key'), randomBytes(32));
    chmodSync(path.join(home, 'key'), 0o644);
    writeFileSync(cluster, 'cluster: c\nauth: {type: auth/hmac, key_file: key}\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: ALL}]\n');
    const loose = await runBin('tscontrol', ['show', 'plugins', '--cluster', cluster]);
    expect(loose.exitCode).toBe(1);
    expect(loose.stderr.split('\n')[0]).toBe(
      `tscontrol: error: auth/hmac: key file ${path.join(home, 'key')} is readable by others (mode 0644); chmod 600 it`,
    );
    chmodSync(path.join(home, 'key'), 0o600);
    const tight = await runBin('tscontrol', ['show', 'plugins', '--cluster', cluster]);
    expect(tight.stderr).toBe('');
    expect(tight.stdout.split('\n').find((l) => l.startsWith('auth/hmac'))).toMatch(/active$/);
  });
});
