// --mem enforced by proctrack/cgroup with constrain_ram_space (Slurm's ConstrainRAMSpace): a
// task beyond its step's memory is ended by the kernel's oom killer and the step ends as
// Slurm 22.05 reports it (slurmstepd's "Detected N oom-kill event(s)" line, srun's "Out Of
// Memory", exit 253; a batch job OUT_OF_MEMORY with ExitCode 0:125). The cases need a writable
// memory controller (cgroup v2's, else cgroup v1's): without one they fail under CI and are
// skipped elsewhere, with the reason in their title.
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const LIMITED = fixture('clusters', 'proctrack-cgroup-memory.yaml');
const UNLIMITED = fixture('clusters', 'proctrack-cgroup.yaml');
const HOG = fixture('programs', 'memory-hog.js');
const node = process.execPath;

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// What the plugin looks for: a writable cgroup v2 hierarchy, and memory in it or in cgroup v1.
const v2Root = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(`${dir}/cgroup.controllers`) && writable(dir));
const v2Memory = v2Root !== undefined && readFileSync(`${v2Root}/cgroup.controllers`, 'utf8').split(/\s+/).includes('memory');
const v1Memory = existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') && writable('/sys/fs/cgroup/memory');
const memoryRoot = v2Root === undefined ? undefined : v2Memory ? v2Root : v1Memory ? '/sys/fs/cgroup/memory' : undefined;
const runnable = memoryRoot !== undefined || Boolean(process.env.CI);
const note = memoryRoot
  ? `memory controller at ${memoryRoot}`
  : `SKIPPED: ${v2Root ? `no memory controller in cgroup v2 ${v2Root} nor a writable cgroup v1 /sys/fs/cgroup/memory` : 'no writable cgroup v2 hierarchy'}`;
if (!memoryRoot) console.warn(`mem-oom e2e: ${note}`);

const OOM_LINE = /^tsstepd-node1: error: Detected [1-9]\d* oom-kill event\(s\) in StepId=\d+\.0\. Some of your processes may have been killed by the cgroup out-of-memory handler\.$/;

describe(`--mem under proctrack/cgroup (${note})`, () => {
  it.skipIf(!runnable)('a task beyond --mem is ended by the oom killer: Out Of Memory, exit 253', async () => {
    const r = await runBin('tsrun', ['--cluster', LIMITED, '--mem=50M', node, HOG, '200'], { timeout: 30_000 });
    expect(r.exitCode).toBe(253);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(OOM_LINE);
    expect(lines[1]).toBe('tsrun: error: node1: task 0: Out Of Memory');
    // No memory cgroup is left behind (under each step host's level, stepd_<pid>_<start>).
    const owners = readdirSync(`${memoryRoot}/tslurm`).filter((d) => d.startsWith('stepd_'));
    expect(owners.flatMap((o) => readdirSync(`${memoryRoot}/tslurm/${o}`).filter((d) => d.startsWith('node_node')))).toEqual([]);
  });

  it.skipIf(!runnable)('a task within its limit runs as usual', async () => {
    const r = await runBin('tsrun', ['--cluster', LIMITED, '--mem=300M', node, HOG, '20'], { timeout: 30_000 });
    expect(r).toEqual({ exitCode: 0, stdout: 'allocated 20 MB\n', stderr: '' });
  });

  it.skipIf(!runnable)('--mem-per-cpu times the CPUs on the node is the limit; only the node that ran out says so', async () => {
    // Two nodes, one task each with 2 CPUs: 40 MB per CPU is 80 MB per node; task 1 needs more.
    const script = `if [ $SLURM_PROCID = 1 ]; then exec ${node} ${HOG} 200; else exec ${node} ${HOG} 10; fi`;
    const r = await runBin('tsrun', ['--cluster', LIMITED, '-N2', '-n2', '-c2', '--mem-per-cpu=40M', 'sh', '-c', script], { timeout: 30_000 });
    expect(r.exitCode).toBe(253);
    expect(r.stdout).toBe('allocated 10 MB\n');
    expect(r.stderr).toMatch(/^tsstepd-node2: error: Detected [1-9]\d* oom-kill event\(s\) in StepId=\d+\.0\. /);
    expect(r.stderr).toContain('tsrun: error: node2: task 1: Out Of Memory\n');
    expect(r.stderr).not.toContain('node1');
  });

  it.skipIf(!runnable)('without constrain_ram_space --mem is not enforced, as Slurm without ConstrainRAMSpace', async () => {
    const r = await runBin('tsrun', ['--cluster', UNLIMITED, '--mem=50M', node, HOG, '200'], { timeout: 30_000 });
    expect(r).toEqual({ exitCode: 0, stdout: 'allocated 200 MB\n', stderr: '' });
  });

  it.skipIf(!runnable)('a batch job whose script runs out of memory ends OUT_OF_MEMORY, ExitCode 0:125', async () => {
    const ctl = testController();
    try {
      const sub = await ctl.run('tsbatch', ['--cluster', LIMITED, '--parsable', '--mem=50M', '-o', 'out.txt', '--wrap', `${node} ${HOG} 200; echo after`]);
      expect(sub.exitCode).toBe(0);
      const id = sub.stdout.trim();
      await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'OUT_OF_MEMORY', 30_000);
      expect(await ctl.jobField(id, 'ExitCode')).toBe('0:125');
      expect(await ctl.jobField(id, 'Reason')).toBe('OutOfMemory');
      const queue = await ctl.run('tsqueue', ['--cluster', LIMITED, '-t', 'all', '-h', '-o', '%i %t %T']);
      expect(queue.stdout).toBe(`${id} OOM OUT_OF_MEMORY\n`);
      const output = ctl.read('out.txt').split('\n');
      expect(output).toContain('after');
      expect(output).toContain(
        `slurmstepd: error: Detected 1 oom-kill event(s) in StepId=${id}.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.`,
      );
    } finally {
      await ctl.stop();
    }
  });

  it.skipIf(!runnable)('a batch job within its limit completes', async () => {
    const ctl = testController();
    try {
      const sub = await ctl.run('tsbatch', ['--cluster', LIMITED, '--parsable', '--mem=300M', '-o', 'out.txt', '--wrap', `${node} ${HOG} 20`]);
      const id = sub.stdout.trim();
      await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED', 30_000);
      expect(await ctl.jobField(id, 'ExitCode')).toBe('0:0');
      expect(ctl.read('out.txt')).toBe('allocated 20 MB\n');
    } finally {
      await ctl.stop();
    }
  });
});

