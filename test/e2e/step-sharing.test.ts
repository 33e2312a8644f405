// Steps of one allocation share its CPUs as in Slurm 22.05 (observed: /work/ref/steps-overlap-
// exact.txt, steps-multi-node.txt): a step takes every CPU of the job on its nodes unless
// --exact; one that does not fit beside the running steps waits ("step creation temporarily
// disabled", then "Step created"); --overlap steps neither wait nor make others wait; a step
// the job can never hold is refused; `scontrol show step` shows the CPUs a step holds.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs each

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(process.env)) if (name.startsWith('SLURM_')) env[name] = undefined;
  return { ...env, ...extra } as Record<string, string>;
}

const node = process.execPath;
const bin = (name: string): string => `${node} ${path.join(repoRoot, 'bin', `${name}.js`)}`;
/** Polls (up to a minute) until a file exists or a file holds a text. */
const waitFile = 'w() { i=0; until [ -f "$1" ]; do sleep 0.1; i=$((i+1)); [ $i -gt 600 ] && exit 9; done; }';
const waitText = 'wt() { i=0; until grep -q "$2" "$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); [ $i -gt 600 ] && exit 9; done; }';

describe('steps sharing an allocation', () => {
  const ctl = testController(cleanEnv({ TSLURM_CONF: small }));
  afterAll(() => ctl.stop());

  it('gives a step the job\'s CPUs, --exact only its own; a second step waits for the first (ts names)', async () => {
    const srun = bin('tsrun');
    const script = [
      waitFile,
      waitText,
      `${srun} -n1 printenv SLURM_CPUS_ON_NODE > default.txt`,
      `${srun} -n1 --exact printenv SLURM_CPUS_ON_NODE > exact.txt`,
      `${srun} -n1 -c2 --exact printenv SLURM_CPUS_ON_NODE SLURM_STEP_NUM_TASKS > exact-c2.txt`,
      // A holds the node; B needs it too: B waits until A is released.
      `${srun} -n1 sh -c 'touch a-started; until [ -f release ]; do sleep 0.1; done; touch a-ended' &`,
      'w a-started',
      `${srun} -n1 sh -c 'test -f a-ended && echo after-a > b.txt' 2> b.err &`,
      "wt b.err 'temporarily disabled'",
      // An --overlap step runs beside A at once; so does A's status in scontrol.
      `${srun} --overlap -n1 printenv SLURM_CPUS_ON_NODE > overlap.txt 2> overlap.err`,
      `${bin('tscontrol')} -o show steps $SLURM_JOB_ID > show.txt`,
      'test -f b.txt && echo "B ran early" >> show.txt',
      'touch release',
      'wait',
      `${srun} -n5 true 2> never.err; echo "rc=$?" >> never.err`,
      `${srun} -n5 --overlap -s true 2>> never.err; echo "rc=$?" >> never.err`,
    ].join('\n');
    const result = await ctl.run('tsalloc', ['-n4', 'sh', '-c', script], { timeout: 120_000 });
    expect(result.exitCode).toBe(0);
    const id = /Granted job allocation (\d+)/.exec(result.stderr)![1]!;
    expect(ctl.read('default.txt')).toBe('4\n');
    expect(ctl.read('exact.txt')).toBe('1\n');
    expect(ctl.read('exact-c2.txt')).toBe('2\n1\n');
    expect(ctl.read('b.err')).toBe(`tsrun: Job ${id} step creation temporarily disabled, retrying (Requested nodes are busy)\ntsrun: Step created for job ${id}\n`);
    expect(ctl.read('b.txt')).toBe('after-a\n');
    expect(ctl.read('overlap.txt')).toBe('4\n');
    expect(ctl.read('overlap.err')).toBe('');
    const shown = ctl.read('show.txt');
    expect(shown).not.toContain('B ran early');
    // A (step 3) holds the node's 4 CPUs; B (step 4) is not created yet; the overlap step has ended.
    expect(shown).toMatch(new RegExp(`^StepId=${id}\\.3 .* Nodes=1 CPUs=4 Tasks=1 Name=sh .*TRES=cpu=4,mem=0,node=1 `, 'm'));
    expect(shown).not.toContain(`StepId=${id}.4 `);
    const never = `tsrun: error: Unable to create step for job ${id}: More processors requested than permitted\nrc=1\n`;
    expect(ctl.read('never.err')).toBe(never + never);
  }, 120_000);

  it('places parallel steps on the nodes no step uses, in the job\'s order; --exact steps side by side (drop-in srun)', async () => {
    const srun = `${node} ${path.join(repoRoot, 'bin', 'slurm-name.js')} srun`;
    const script = [
      waitFile,
      'rm -f release',
      `${srun} -N1 -n1 sh -c 'echo $SLURMD_NODENAME $SLURM_CPUS_ON_NODE $SLURM_JOB_NODELIST $SLURM_JOB_CPUS_PER_NODE > first.txt; until [ -f release ]; do sleep 0.1; done' &`,
      'w first.txt',
      `${srun} -N1 -n1 sh -c 'echo $SLURMD_NODENAME $SLURM_CPUS_ON_NODE > second.txt; until [ -f release ]; do sleep 0.1; done' &`,
      'w second.txt',
      // Both nodes are busy with whole-node steps; an --overlap step runs at once all the same.
      `${srun} -N1 -n1 --overlap sh -c 'echo $SLURMD_NODENAME $SLURM_CPUS_ON_NODE' > overlap.txt`,
      'touch release',
      'wait',
      `${srun} -n2 --exact sh -c 'echo $SLURMD_NODENAME $SLURM_CPUS_ON_NODE $SLURM_STEP_NODELIST' 2> exact.err | sort > exact.txt`,
    ].join('\n');
    // -N2 -n4 holds 3 CPUs on node1 and 1 on node2, as on Slurm (steps-multi-node.txt).
    const result = await ctl.run('tsalloc', ['-N2', '-n4', 'sh', '-c', script], { timeout: 120_000 });
    expect(result.exitCode).toBe(0);
    expect(ctl.read('first.txt')).toBe('node1 3 node[1-2] 3,1\n');
    expect(ctl.read('second.txt')).toBe('node2 1\n');
    expect(ctl.read('overlap.txt')).toBe('node1 3\n');
    expect(ctl.read('exact.txt')).toBe('node1 1 node[1-2]\nnode2 1 node[1-2]\n');
    expect(ctl.read('exact.err')).toBe('');
  }, 120_000);

  it('refuses a waiting step once its job is cancelled, as srun does (1)', async () => {
    const srun = bin('tsrun');
    const script = [
      waitFile,
      waitText,
      `${srun} -n1 sh -c 'touch held; sleep 60' 2> /dev/null & held=$!`,
      'w held',
      `${srun} -n1 true 2> late.err & late=$!`,
      "wt late.err 'temporarily disabled'",
      `${bin('tscancel')} $SLURM_JOB_ID`,
      'wait $late; echo "rc=$?" >> late.err',
      'kill $held; wait',
    ].join('\n');
    const result = await ctl.run('tsalloc', ['-n1', 'sh', '-c', script], { timeout: 120_000 });
    const id = /Granted job allocation (\d+)/.exec(result.stderr)![1]!;
    expect(ctl.read('late.err')).toBe(
      `tsrun: Job ${id} step creation temporarily disabled, retrying (Requested nodes are busy)\n` +
        `tsrun: error: Unable to create step for job ${id}: Job/step already completing or completed\nrc=1\n`,
    );
  }, 120_000);
});
