// The example plugins (fixtures/plugins/examples), one per plugin type, written only against
// `tslurm/plugin-api`, run as a third party runs them: copied to a directory outside the
// repository whose node_modules/tslurm is this package, found through the cluster file's
// plugins.plugin_dirs, and driven through the built bins — tsrun on its own, and tsbatch
// through a controller that authenticates every message with auth/digest.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';

const EXAMPLES = ['auth/digest', 'job_container/tagged', 'jobcomp/jsonl', 'mpi/mapping', 'proctrack/pidlist', 'sched/smallfirst', 'select/lastfit'];

// A plugin author's directory: the example plugins and cluster file, and tslurm installed.
function authorDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-examples-'));
  cpSync(fixture('plugins', 'examples'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "my-plugins", "private": true, "type": "module" }\n');
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(repoRoot, path.join(dir, 'node_modules', 'tslurm'), 'dir');
  return dir;
}

describe('example plugins of every type, outside the repository', () => {
  const dir = authorDir();
  const cluster = path.join(dir, 'cluster.yaml');

  it('tslurm/plugin-api resolves from the author directory to this package, the same module the bins load', async () => {
    const script = [
      "const api = await import('tslurm/plugin-api');",
      `const own = await import(${JSON.stringify(path.join(repoRoot, 'dist', 'plugin-api', 'index.js'))});`,
      'console.log(api.Bitstr === own.Bitstr, api.Buf === own.Buf, new api.Bitstr(8).set(3).nextSet(0));',
    ].join('\n');
    const result = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, reject: false });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'true true 3', stderr: '' });
  });

  it('each loads from the plugin directory and is the active plugin of its type', async () => {
    const result = await runBin('tscontrol', ['--cluster', cluster, 'show', 'plugins']);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const active = result.stdout
      .split('\n')
      .filter((line) => line.endsWith(' active'))
      .map((line) => line.split(/\s+/)[0])
      .sort();
    expect(active).toEqual(EXAMPLES);
    for (const type of EXAMPLES) expect(result.stdout).toContain(path.join(dir, `${type.replace('/', '_')}.js`));
  });

  it('tsrun: select/lastfit places from the last node down, mpi/mapping, job_container/tagged and proctrack/pidlist reach every task', async () => {
    const show = 'echo "$SLURM_JOB_ID $SLURM_JOB_NODELIST $MAPPING_VECTOR $MAPPING_NODES $MAPPING_RANK $CONTAINER_TAG $PROCTRACK_CONT"';
    const result = await runBin('tsrun', ['--cluster', cluster, '-N2', '-n3', '-l', 'sh', '-c', show]);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = result.stdout.trim().split('\n').sort();
    expect(lines).toHaveLength(3);
    const fields = lines.map((line) => line.split(' '));
    for (const [i, f] of fields.entries()) {
      // Block distribution of 3 tasks on 2 nodes: ranks 0,1 on the first node, 2 on the second.
      expect(f.slice(0, 6)).toEqual([`${i}:`, f[1], 'node[2-3]', '(vector,(0,1,2),(1,1,1))', '2', `${i}/3@${i < 2 ? 0 : 1}`]);
      expect(f[6]).toBe(`job${f[1]}`);
      expect(Number(f[7])).toBeGreaterThan(1000);
    }
    // A constraint: the last node with the feature, not node3 (which lacks it).
    const fast = await runBin('tsrun', ['--cluster', cluster, '-C', 'fast', 'printenv', 'SLURM_JOB_NODELIST']);
    expect(fast).toMatchObject({ exitCode: 0, stdout: 'node2\n', stderr: '' });
  });

  describe('through a controller', () => {
    const ctl = testController();
    afterAll(() => ctl.stop());
    const tsbatch = (args: string[]) => ctl.run('tsbatch', ['--cluster', cluster, '--parsable', ...args]);
    const field = (id: number, name: string) => ctl.jobField(id, name);

    it('a batch job: sched/smallfirst priority, select/lastfit nodes, the container tag, and a step inside it', async () => {
      const step = `"${process.execPath}" "${path.join(repoRoot, 'bin', 'tsrun.js')}" -n2 sh -c 'echo "step $MAPPING_RANK $CONTAINER_TAG"'`;
      // The tsrun jobs above were logged too (their own controller, ids from 1): start the file anew.
      expect(readFileSync(path.join(dir, 'jobs.jsonl'), 'utf8')).toMatch(/"name":"sh","job_state":"COMPLETED"/);
      rmSync(path.join(dir, 'jobs.jsonl'));
      const result = await tsbatch(['--wait', '-o', 'out.txt', '--wrap', `echo "batch $SLURM_JOB_NODELIST $CONTAINER_TAG"; ${step}`]);
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      const id = Number(result.stdout.trim());
      expect(await field(id, 'Priority')).toBe('4242');
      const out = ctl.read('out.txt').trim().split('\n').sort();
      expect(out).toEqual([`batch node3 job${id}`, `step 0/2@0 job${id}`, `step 1/2@0 job${id}`]);
      // jobcomp/jsonl: the job's line, with the fields its options block names.
      const logged = () => readFileSync(path.join(dir, 'jobs.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { job_id: number });
      await ctl.until(() => existsSync(path.join(dir, 'jobs.jsonl')) && logged().some((job) => job.job_id === id));
      expect(logged().find((job) => job.job_id === id)).toEqual({ job_id: id, name: 'wrap', job_state: 'COMPLETED', exit_code: 0, nodes: 'node3' });
    });

    it('sched/smallfirst starts the job asking for fewer nodes first, whatever the submit order', async () => {
      const big = Number((await tsbatch(['-N3', '--wrap', 'sleep 6'])).stdout.trim());
      await ctl.until(async () => (await field(big, 'JobState')) === 'RUNNING');
      const wide = Number((await tsbatch(['-N3', '--wrap', 'true'])).stdout.trim());
      const narrow = Number((await tsbatch(['-N1', '--wrap', 'sleep 2'])).stdout.trim());
      expect(await field(wide, 'JobState')).toBe('PENDING');
      await ctl.until(async () => (await field(wide, 'JobState')) === 'COMPLETED', 60_000);
      expect(await field(narrow, 'JobState')).toBe('COMPLETED');
      // The narrow job ran first; the wide one needed its node back.
      const seconds = async (id: number, name: string) => Date.parse(await field(id, name));
      expect(await seconds(wide, 'StartTime')).toBeGreaterThanOrEqual(await seconds(narrow, 'EndTime'));
    });
  });
});
