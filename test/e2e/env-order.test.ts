// The SLURM_* variables of tasks and batch scripts, by name and in the order `env` prints them,
// against literal lists printed by Slurm 22.05 on the real Slurm (../shared/real-slurm, default
// mode; the captures are in /work/ref/env.txt): srun's own job, srun inside salloc, a batch
// script, srun inside a batch script. Values that map are checked too; live ones (ports, pids)
// only for their form.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

// proctrack/pgid here; proctrack/cgroup (the default as root) and job_container/tmpfs's
// namespace are checked below, where a join could come between the step daemon and the task.
const small = fixture('clusters', 'proctrack-pgid.yaml'); // node[1-2], 2 CPUs each

/** `srun -N1 -n2 -l env | sort -s -k1,1`, task 0's variables (SLURM_*, SLURMD_*, TMPDIR). */
const SRUN_TASK = [
  'SLURM_CONF', 'SLURM_PRIO_PROCESS', 'SLURM_UMASK', 'SLURM_CLUSTER_NAME', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST',
  'SLURM_JOB_NAME', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_NTASKS', 'SLURM_NPROCS', 'SLURM_LABELIO', 'SLURM_JOB_ID',
  'SLURM_JOBID', 'SLURM_STEP_ID', 'SLURM_STEPID', 'SLURM_NNODES', 'SLURM_JOB_NUM_NODES', 'SLURM_NODELIST',
  'SLURM_JOB_PARTITION', 'SLURM_TASKS_PER_NODE', 'SLURM_JOB_UID', 'SLURM_JOB_USER', 'SLURM_WORKING_CLUSTER',
  'SLURM_JOB_NODELIST', 'SLURM_STEP_NODELIST', 'SLURM_STEP_NUM_NODES', 'SLURM_STEP_NUM_TASKS',
  'SLURM_STEP_TASKS_PER_NODE', 'SLURM_STEP_LAUNCHER_PORT', 'SLURM_SRUN_COMM_PORT', 'SLURM_SRUN_COMM_HOST',
  'SLURM_TOPOLOGY_ADDR', 'SLURM_TOPOLOGY_ADDR_PATTERN', 'SLURM_CPUS_ON_NODE', 'SLURM_TASK_PID', 'SLURM_NODEID',
  'SLURM_PROCID', 'SLURM_LOCALID', 'SLURM_LAUNCH_NODE_IPADDR', 'SLURM_GTIDS', 'SLURM_JOB_GID', 'SLURMD_NODENAME', 'TMPDIR',
];

/** `salloc -N1 srun -l env`, task 0 (salloc's variables first, where salloc put them). */
const SRUN_IN_SALLOC = [
  'SLURM_CONF', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST', 'SLURM_JOB_ID', 'SLURM_JOB_NAME', 'SLURM_JOB_NUM_NODES',
  'SLURM_JOB_NODELIST', 'SLURM_NODE_ALIASES', 'SLURM_JOB_PARTITION', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOBID',
  'SLURM_NNODES', 'SLURM_NODELIST', 'SLURM_TASKS_PER_NODE', 'SLURM_CLUSTER_NAME', 'SLURM_PRIO_PROCESS', 'SLURM_UMASK',
  'SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0', 'SLURM_NTASKS', 'SLURM_NPROCS', 'SLURM_DISTRIBUTION', 'SLURM_LABELIO',
  'SLURM_STEP_ID', 'SLURM_STEPID', 'SLURM_JOB_UID', 'SLURM_JOB_USER', 'SLURM_WORKING_CLUSTER', 'SLURM_STEP_NODELIST',
  'SLURM_STEP_NUM_NODES', 'SLURM_STEP_NUM_TASKS', 'SLURM_STEP_TASKS_PER_NODE', 'SLURM_STEP_LAUNCHER_PORT',
  'SLURM_SRUN_COMM_PORT', 'SLURM_SRUN_COMM_HOST', 'SLURM_TOPOLOGY_ADDR', 'SLURM_TOPOLOGY_ADDR_PATTERN',
  'SLURM_CPUS_ON_NODE', 'SLURM_TASK_PID', 'SLURM_NODEID', 'SLURM_PROCID', 'SLURM_LOCALID', 'SLURM_LAUNCH_NODE_IPADDR',
  'SLURM_GTIDS', 'SLURM_JOB_GID', 'SLURMD_NODENAME', 'TMPDIR',
];

/** `sbatch --wrap env` (the script's shell orders them; also ENVIRONMENT). */
const BATCH_SCRIPT = [
  'SLURM_JOBID', 'SLURM_JOB_USER', 'SLURM_JOB_NUM_NODES', 'SLURM_TASKS_PER_NODE', 'ENVIRONMENT',
  'SLURM_TOPOLOGY_ADDR_PATTERN', 'SLURM_PRIO_PROCESS', 'SLURM_WORKING_CLUSTER', 'SLURM_JOB_NAME',
  'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOB_GID', 'SLURM_CPUS_ON_NODE', 'SLURM_PROCID', 'SLURM_CONF', 'TMPDIR',
  'SLURM_SUBMIT_HOST', 'SLURM_NODELIST', 'SLURM_JOB_ID', 'SLURM_NNODES', 'SLURM_JOB_NODELIST', 'SLURMD_NODENAME',
  'SLURM_GTIDS', 'SLURM_CLUSTER_NAME', 'SLURM_JOB_UID', 'SLURM_LOCALID', 'SLURM_JOB_PARTITION', 'SLURM_TASK_PID',
  'SLURM_TOPOLOGY_ADDR', 'SLURM_SUBMIT_DIR', 'SLURM_NODE_ALIASES', 'SLURM_NODEID',
];

/** `sbatch --wrap 'srun env | grep ^SLURM | cut -d= -f1'`. */
const SRUN_IN_BATCH = [
  'SLURM_JOBID', 'SLURM_JOB_USER', 'SLURM_JOB_NUM_NODES', 'SLURM_TASKS_PER_NODE', 'SLURM_TOPOLOGY_ADDR_PATTERN',
  'SLURM_PRIO_PROCESS', 'SLURM_WORKING_CLUSTER', 'SLURM_JOB_NAME', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOB_GID',
  'SLURM_CPUS_ON_NODE', 'SLURM_PROCID', 'SLURM_CONF', 'SLURM_SUBMIT_HOST', 'SLURM_NODELIST', 'SLURM_JOB_ID',
  'SLURM_NNODES', 'SLURM_JOB_NODELIST', 'SLURMD_NODENAME', 'SLURM_GTIDS', 'SLURM_CLUSTER_NAME', 'SLURM_JOB_UID',
  'SLURM_LOCALID', 'SLURM_JOB_PARTITION', 'SLURM_TASK_PID', 'SLURM_TOPOLOGY_ADDR', 'SLURM_SUBMIT_DIR',
  'SLURM_NODE_ALIASES', 'SLURM_NODEID', 'SLURM_UMASK', 'SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0', 'SLURM_NTASKS',
  'SLURM_NPROCS', 'SLURM_DISTRIBUTION', 'SLURM_STEP_ID', 'SLURM_STEPID', 'SLURM_STEP_NODELIST',
  'SLURM_STEP_NUM_NODES', 'SLURM_STEP_NUM_TASKS', 'SLURM_STEP_TASKS_PER_NODE', 'SLURM_STEP_LAUNCHER_PORT',
  'SLURM_SRUN_COMM_PORT', 'SLURM_SRUN_COMM_HOST', 'SLURM_LAUNCH_NODE_IPADDR',
];

const wanted = /^(SLURM_|SLURMD_|TMPDIR=|ENVIRONMENT=)/;
/** The names of `env` output lines (after an optional `N: ` label) in order. */
const names = (lines: readonly string[]): string[] => lines.filter((l) => wanted.test(l)).map((l) => l.slice(0, l.indexOf('=')));
/** Task 0's lines of a labelled output, in its order. */
const task0 = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('0: ')).map((l) => l.slice(3));

/** A caller's environment without SLURM_* and TMPDIR (the captures had neither). */
function callerEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(process.env)) if (name.startsWith('SLURM_') || name === 'TMPDIR') env[name] = undefined;
  return { ...env, ...extra } as Record<string, string>;
}

describe('environment of tasks and batch scripts, in Slurm 22.05 order', () => {
  const ctl = testController(callerEnv({ TSLURM_CONF: small }));
  afterAll(() => ctl.stop());
  const dropin = path.join(repoRoot, 'bin', 'tslurm-dropin.js');
  /** A shell line with the drop-in names first on PATH. */
  const sh = (line: string) =>
    execa('sh', ['-c', `PATH=$(node ${dropin} slurm-bin):$PATH; ${line}`], {
      cwd: ctl.workDir,
      reject: false,
      stripFinalNewline: false,
      timeout: 60_000,
      env: { ...ctl.env, NO_COLOR: '1' },
    });

  it("srun's own job: task 0 of -N1 -n2 -l env, ts and drop-in names", async () => {
    for (const run of [() => ctl.run('tsrun', ['-N1', '-n2', '-l', 'env']), () => sh('srun -N1 -n2 -l env')]) {
      const result = await run();
      expect(result.exitCode).toBe(0);
      const lines = task0(result.stdout);
      expect(names(lines)).toEqual(SRUN_TASK);
      expect(lines).toContain(`SLURM_CONF=${small}`);
      expect(lines).toContain('SLURM_WORKING_CLUSTER=pgid:127.0.0.1:6817:9728:109');
      expect(lines).toContain('TMPDIR=/tmp');
      expect(lines).toContain(`SLURM_JOB_UID=${process.getuid!()}`);
      expect(lines).toContain(`SLURM_JOB_GID=${process.getgid!()}`);
      expect(lines.find((l) => l.startsWith('SLURM_TASK_PID='))).toMatch(/^SLURM_TASK_PID=[1-9]\d*$/);
    }
  });

  // Real Slurm without accounting storage has no QOS for a job and sets no SLURM_JOB_QOS;
  // tslurm records --qos on the job and exports it where Slurm's env_array_for_job puts it.
  it('-A and --qos: SLURM_JOB_ACCOUNT (and SLURM_JOB_QOS) after SLURM_JOB_USER, in the batch script after SLURM_JOB_GID', async () => {
    const withAccount = (list: readonly string[], after: string, qos: boolean) => {
      const at = list.indexOf(after) + 1;
      return [...list.slice(0, at), 'SLURM_JOB_ACCOUNT', ...(qos ? ['SLURM_JOB_QOS'] : []), ...list.slice(at)];
    };
    for (const run of [() => ctl.run('tsrun', ['-A', 'acct', '--qos=normal', '-N1', '-n2', '-l', 'env']), () => sh('srun -A acct --qos=normal -N1 -n2 -l env')]) {
      const result = await run();
      expect(result.exitCode).toBe(0);
      const lines = task0(result.stdout);
      expect(names(lines)).toEqual(withAccount(SRUN_TASK, 'SLURM_JOB_USER', true));
      expect(lines).toContain('SLURM_JOB_ACCOUNT=acct');
      expect(lines).toContain('SLURM_JOB_QOS=normal');
    }
    const batch = await sh('sbatch --wait -A acct --qos=normal -o acct.out --wrap env && cat acct.out');
    expect(batch.exitCode).toBe(0);
    const lines = batch.stdout.split('\n');
    expect(names(lines).filter((n) => n !== 'SLURM_JOB_QOS')).toEqual(withAccount(BATCH_SCRIPT, 'SLURM_JOB_GID', false));
    expect(lines).toContain('SLURM_JOB_ACCOUNT=acct');
    expect(lines).toContain('SLURM_JOB_QOS=normal');
  });

  it("SLURM_TASK_PID is the task's own pid", async () => {
    const result = await ctl.run('tsrun', ['-n1', 'sh', '-c', 'echo "$$ $SLURM_TASK_PID"']);
    const [shell, task] = result.stdout.trim().split(' ');
    expect(task).toBe(shell);
  });

  it('srun inside salloc: salloc\'s variables in place, then the step\'s', async () => {
    const result = await sh('salloc -N1 srun -l env');
    expect(result.exitCode).toBe(0);
    const lines = task0(result.stdout);
    expect(names(lines)).toEqual(SRUN_IN_SALLOC);
    expect(lines).toContain('SLURM_DISTRIBUTION=cyclic');
    expect(lines).toContain('SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0=1');
    expect(lines).toContain('SLURM_STEP_ID=0');
  });

  it('a batch script, and srun inside one (the script shell\'s order)', async () => {
    const batch = await sh('sbatch --wait -o batch.out --wrap env && cat batch.out');
    expect(batch.exitCode).toBe(0);
    expect(names(batch.stdout.split('\n'))).toEqual(BATCH_SCRIPT);
    const inner = await ctl.run('tsbatch', ['--wait', '-o', 'inner.out', '--wrap', `node ${path.join(repoRoot, 'bin', 'tsrun.js')} env`]);
    expect(inner.exitCode).toBe(0);
    expect(names(ctl.read('inner.out').split('\n')).filter((n) => n.startsWith('SLURM'))).toEqual(SRUN_IN_BATCH);
  });
});

// As root the tasks join proctrack/cgroup's cgroup and job_container/tmpfs's mount namespace in
// their own process before they exec (the task exec helper, tstask_exec); the order the step
// daemon made must survive it (a shell there re-exported the environment in dash's order).
describe.skipIf(process.getuid?.() !== 0)('the same order under proctrack/cgroup and job_container/tmpfs (root)', () => {
  // Outside /tmp: the jobs' private /tmp would hide the work directory.
  const ctl = testController(callerEnv({}), '/var/tmp');
  afterAll(() => ctl.stop());
  const cluster = (name: string, plugins: string) => {
    const file = path.join(ctl.workDir, `${name}.yaml`);
    writeFileSync(
      file,
      `cluster: ${name}\nplugins:\n${plugins}nodes:\n  - name: node[1-2]\n    cpus: 2\n    memory: 1000\n` +
        `partitions:\n  - name: debug\n    nodes: ALL\n    default: true\n` +
        `options:\n  job_container_tmpfs:\n    base_path: ${path.join(ctl.workDir, 'jc')}\n    auto_base_path: true\n    mode: namespace\n`,
    );
    return file;
  };
  const cases = [
    { name: 'cgroup', plugins: '  proctrack: proctrack/cgroup\n' },
    { name: 'tmpfs', plugins: '  proctrack: proctrack/cgroup\n  job_container: job_container/tmpfs\n' },
  ];

  for (const { name, plugins } of cases) {
    it(`${name}: task 0 of tsrun -N1 -n2 -l env, a batch script and tsrun inside it`, async () => {
      const env = { TSLURM_CONF: cluster(name, plugins) };
      const result = await ctl.run('tsrun', ['-N1', '-n2', '-l', 'env'], { env });
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      const lines = task0(result.stdout);
      expect(names(lines)).toEqual(SRUN_TASK);
      // The helper is the task: its pid is the program's.
      const pid = await ctl.run('tsrun', ['-n1', 'sh', '-c', 'echo "$$ $SLURM_TASK_PID $PWD"'], { env });
      expect(pid.stdout.trim().split(' ')).toEqual([pid.stdout.split(' ')[0], pid.stdout.split(' ')[0], ctl.workDir]);
      const batch = await ctl.run('tsbatch', ['--wait', '-o', `${name}.out`, '--wrap', `env; node ${path.join(repoRoot, 'bin', 'tsrun.js')} env`], { env });
      expect(batch.exitCode).toBe(0);
      const out = ctl.read(`${name}.out`).split('\n');
      // The script's env, then the step's: each starts its SLURM_* with SLURM_JOBID.
      const second = out.findLastIndex((l) => l.startsWith('SLURM_JOBID='));
      expect(names(out.slice(0, second))).toEqual(BATCH_SCRIPT);
      expect(names(out.slice(second)).filter((n) => n.startsWith('SLURM'))).toEqual(SRUN_IN_BATCH);
    });
  }
});
