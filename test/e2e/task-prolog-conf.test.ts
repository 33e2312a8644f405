// slurm.conf's TaskProlog and TaskEpilog (fixtures/slurm-conf/task-scripts/), through the drop-in
// srun and sbatch, against what Slurm 22.05.8 does with the same scripts
// (/work/ref/task-prolog-conf.txt, task-prolog-conf-more.txt): slurm.conf's prolog runs first and
// its exports reach the task and the user's --task-prolog; the user's --task-epilog runs before
// slurm.conf's epilog, both with the environment from before the prologs; the batch script has
// them too; a failing or missing prolog ends the task in slurmstepd's words, and the epilog
// still runs. In daemon mode (a cluster YAML's task_prolog/task_epilog) the launch carries
// them to each node's tsstepd.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testController, type TestController } from '../helpers/controller.js';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';
import { fixture, repoRoot, type RunOptions } from '../helpers/run-bin.js';

const scripts = fixture('slurm-conf', 'task-scripts');
const script = (name: string): string => path.join(scripts, name);

/** A controller whose cluster is a slurm.conf with these TaskProlog and TaskEpilog lines. */
function clusterWith(settings: string): { ctl: TestController; log: string; srun(args: string[], options?: RunOptions): ReturnType<TestController['run']>; readLog(): string[] } {
  const ctl = testController();
  const conf = path.join(ctl.workDir, 'slurm.conf');
  writeFileSync(conf, `Include ${script('cluster.conf')}\n${settings}\n`);
  Object.assign(ctl.env, { SLURM_CONF: conf });
  const log = path.join(ctl.workDir, 'scripts.log');
  Object.assign(ctl.env, { TASK_SCRIPTS_LOG: log });
  return {
    ctl,
    log,
    srun: (args, options) => ctl.run('slurm-name', ['srun', ...args], options),
    readLog: () => {
      const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      rmSync(log);
      return lines;
    },
  };
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean);
const tsrun = `node ${path.join(repoRoot, 'bin', 'tsrun.js')}`;

describe("slurm.conf's TaskProlog and TaskEpilog", () => {
  const ok = clusterWith(`TaskProlog=${script('prolog.sh')}\nTaskEpilog=${script('epilog.sh')}`);
  const failing = clusterWith(`TaskProlog=${script('failing-prolog.sh')}\nTaskEpilog=${script('epilog.sh')}`);
  const missing = clusterWith(`TaskProlog=${script('nonexist.sh')}\nTaskEpilog=${script('failing-epilog.sh')}`);
  const unexecutable = clusterWith(`TaskProlog=${script('not-executable.sh')}\nTaskEpilog=${script('failing-epilog.sh')}`);
  afterAll(() => Promise.all([ok, failing, missing, unexecutable].map(({ ctl }) => ctl.stop())));

  it("the prolog's exports reach each task and its print lines its output; the epilog's stderr is the step daemon's", async () => {
    const r = await ok.srun(['-n2', '-l', 'sh', '-c', 'echo "task CONF_TP=${CONF_TP-unset}"']);
    expect(r.exitCode).toBe(0);
    for (const task of [0, 1]) {
      expect(lines(r.stdout).filter((l) => l.startsWith(`${task}: `))).toEqual([`${task}: conf prolog of task ${task} ctx=prolog_task`, `${task}: task CONF_TP=conf_${task}`]);
    }
    // The prolog's stderr and the epilog's stdout are shown nowhere; the epilog writes on
    // slurmstepd's own stderr, which is the node's first task's (labelled 0 for task 1's too).
    expect(lines(r.stderr).sort()).toEqual(['0: conf epilog stderr 0 ctx=epilog_task', '0: conf epilog stderr 1 ctx=epilog_task']);
    expect(ok.readLog().sort()).toEqual(['conf epilog 0 CONF_TP=unset', 'conf epilog 1 CONF_TP=unset', 'conf prolog 0', 'conf prolog 1']);
  });

  it("slurm.conf's prolog runs before --task-prolog, which sees its exports; --task-epilog runs before slurm.conf's epilog", async () => {
    const r = await ok.srun([
      '-n1',
      `--task-prolog=${script('user-prolog.sh')}`,
      `--task-epilog=${script('user-epilog.sh')}`,
      'sh',
      '-c',
      'echo "task CONF_TP=${CONF_TP-unset} USER_TP=${USER_TP-unset}"',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('conf prolog of task 0 ctx=prolog_task\nuser prolog sees CONF_TP=conf_0\ntask CONF_TP=conf_0 USER_TP=user_0\n');
    expect(r.stderr).toBe('conf epilog stderr 0 ctx=epilog_task\n');
    expect(ok.readLog()).toEqual(['conf prolog 0', 'user prolog 0 CONF_TP=conf_0', 'user epilog 0 CONF_TP=unset', 'conf epilog 0 CONF_TP=unset']);
  });

  it('the batch script has the prolog and epilog too, and so has each step it runs', async () => {
    const { ctl } = ok;
    const submitted = await ctl.run('slurm-name', [
      'sbatch',
      '--parsable',
      '-o',
      'batch.out',
      '--wrap',
      `echo "batch CONF_TP=\${CONF_TP-unset} ctx=\${SLURM_SCRIPT_CONTEXT-unset}"; ${tsrun} -n1 sh -c 'echo "step CONF_TP=\${CONF_TP-unset}"'`,
    ]);
    expect(submitted.stderr).toBe('');
    const id = submitted.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read('batch.out')).toBe(
      [
        'conf prolog of task 0 ctx=prolog_task',
        // The script sees SLURM_SCRIPT_CONTEXT as the prolog left it, as on Slurm.
        'batch CONF_TP=conf_0 ctx=prolog_task',
        'conf prolog of task 0 ctx=prolog_task',
        'step CONF_TP=conf_0',
        'conf epilog stderr 0 ctx=epilog_task',
        'conf epilog stderr 0 ctx=epilog_task',
        '',
      ].join('\n'),
    );
    // The step's epilog sees the batch script's environment (its prolog's export), the batch
    // script's own epilog the environment from before its prolog.
    expect(ok.readLog()).toEqual(['conf prolog 0', 'conf prolog 0', 'conf epilog 0 CONF_TP=conf_0', 'conf epilog 0 CONF_TP=unset']);
  });

  it('scancel ends a batch job whose prolog hangs: the script never runs', async () => {
    const { ctl } = ok;
    const submitted = await ctl.run('slurm-name', ['sbatch', '--parsable', '-o', 'hung.out', '--wrap', 'echo batch ran'], { env: { PROLOG_SLEEP: '300' } });
    const id = submitted.stdout.trim();
    await ctl.until(() => existsSync(ok.log) && readFileSync(ok.log, 'utf8').includes('conf prolog 0'));
    const started = Date.now();
    expect((await ctl.run('slurm-name', ['scancel', id])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
    expect(Date.now() - started).toBeLessThan(15_000);
    // As Slurm 22.05 (/work/ref/task-prolog-cancel.txt): the kill order's line, then the
    // prolog ended by its SIGTERM, in run_command's words; the epilog still runs.
    expect(lines(ctl.read('hung.out'))).toEqual([
      expect.stringMatching(new RegExp(`^slurmstepd-node1: error: \\*\\*\\* JOB ${id} ON node1 CANCELLED AT \\S+ \\*\\*\\*$`)),
      'slurmstepd-node1: error: slurm task_prolog did not exit normally. reason: ',
      'slurmstepd-node1: error: TaskProlog failed status=1',
      'conf epilog stderr 0 ctx=epilog_task',
    ]);
    rmSync(ok.log);
  });

  it("scancel ends a step whose tasks' prologs hang: each task ends with status 1, in slurmstepd's words", async () => {
    const { ctl } = ok;
    const run = ok.srun(['-n2', 'sh', '-c', 'echo task ran'], { env: { PROLOG_SLEEP: '300' } });
    await ctl.until(() => existsSync(ok.log) && readFileSync(ok.log, 'utf8').includes('conf prolog 0'));
    const id = (await ctl.run('slurm-name', ['squeue', '-h', '-t', 'R', '-o', '%i'])).stdout.trim();
    const started = Date.now();
    expect(await ctl.run('slurm-name', ['scancel', id])).toMatchObject({ exitCode: 0, stderr: '' });
    const r = await run;
    // Well within KillWait: the prologs end by the step's SIGTERM, as slurmstepd's do.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    const killed = ['tsstepd-node1: error: slurm task_prolog did not exit normally. reason: ', 'tsstepd-node1: error: TaskProlog failed status=1'];
    expect(lines(r.stderr).filter((l) => !/CANCELLED AT|Job step aborted/.test(l)).sort()).toEqual(
      [...killed, ...killed, 'conf epilog stderr 0 ctx=epilog_task', 'conf epilog stderr 1 ctx=epilog_task', 'srun: error: node1: tasks 0-1: Exited with exit code 1'].sort(),
    );
    expect(ok.readLog().sort()).toEqual(['conf epilog 0 CONF_TP=unset', 'conf epilog 1 CONF_TP=unset', 'conf prolog 0']);
  });

  it('scontrol show config names them', async () => {
    const r = await ok.ctl.run('slurm-name', ['scontrol', 'show', 'config']);
    expect(lines(r.stdout).filter((l) => /^Task(Prolog|Epilog) /.test(l))).toEqual([
      `TaskEpilog              = ${script('epilog.sh')}`,
      `TaskProlog              = ${script('prolog.sh')}`,
    ]);
  });

  it('a failing prolog ends the task with its status (TaskProlog failed), its print lines shown, and the epilogs still run', async () => {
    const r = await failing.srun(['-n1', `--task-prolog=${script('user-prolog.sh')}`, `--task-epilog=${script('user-epilog.sh')}`, 'sh', '-c', 'echo ran NEVER=$NEVER']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('before failing\n');
    expect(lines(r.stderr).sort()).toEqual(['conf epilog stderr 0 ctx=epilog_task', 'srun: error: node1: task 0: Exited with exit code 3', 'tsstepd-node1: error: TaskProlog failed status=3']);
    // --task-prolog never ran; both epilogs did.
    expect(failing.readLog()).toEqual(['user epilog 0 CONF_TP=unset', 'conf epilog 0 CONF_TP=unset']);
  });

  it("a failing prolog fails the batch job with its status, in the job's output", async () => {
    const { ctl } = failing;
    const submitted = await ctl.run('slurm-name', ['sbatch', '--parsable', '-o', 'failed.out', '--wrap', 'echo batch ran']);
    const id = submitted.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'FAILED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('3:0');
    expect(ctl.read('failed.out')).toBe('before failing\nslurmstepd-node1: error: TaskProlog failed status=3\nconf epilog stderr 0 ctx=epilog_task\n');
  });

  it("a prolog that cannot be executed is run_command's error and status 1; a failing slurm.conf epilog says --task-epilog", async () => {
    for (const [cluster, file, why] of [
      [missing, script('nonexist.sh'), 'No such file or directory'],
      [unexecutable, script('not-executable.sh'), 'Permission denied'],
    ] as const) {
      const r = await cluster.srun(['-n1', 'sh', '-c', 'echo ran']);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(lines(r.stderr)).toEqual([
        `tsstepd-node1: error: run_command: slurm task_prolog can not be executed (${file}) ${why}`,
        'tsstepd-node1: error: slurm task_prolog did not exit normally. reason: Run command failed - configuration error',
        'tsstepd-node1: error: TaskProlog failed status=1',
        // 22.05.8 words a failing slurm.conf TaskEpilog as --task-epilog's (and the reverse).
        'tsstepd-node1: error: --task-epilog failed status=768',
        'srun: error: node1: task 0: Exited with exit code 1',
      ]);
      expect(cluster.readLog()).toEqual(['failing epilog 0']);
    }
  });

  it('a batch job whose prolog cannot be executed fails with status 1', async () => {
    const { ctl } = missing;
    const submitted = await ctl.run('slurm-name', ['sbatch', '--parsable', '-o', 'missing.out', '--wrap', 'echo batch ran']);
    const id = submitted.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'FAILED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('1:0');
    expect(ctl.read('missing.out')).toBe(
      [
        `slurmstepd-node1: error: run_command: slurm task_prolog can not be executed (${script('nonexist.sh')}) No such file or directory`,
        'slurmstepd-node1: error: slurm task_prolog did not exit normally. reason: Run command failed - configuration error',
        'slurmstepd-node1: error: TaskProlog failed status=1',
        'slurmstepd-node1: error: --task-epilog failed status=768',
        '',
      ].join('\n'),
    );
    expect(missing.readLog()).toEqual(['failing epilog 0']);
  });
});

describe('task_prolog and task_epilog in daemon mode: the launch carries them to each tsstepd', () => {
  let c: DaemonCluster;
  let log: string;
  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 2, extraYaml: `task_prolog: ${script('prolog.sh')}\ntask_epilog: ${script('epilog.sh')}` });
    log = path.join(c.root, 'work', 'scripts.log');
  }, 60_000);
  afterAll(() => c?.stop());
  const readLog = (): string[] => {
    const read = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    rmSync(log);
    return read;
  };

  it("a step over both daemons: each node runs its tasks' prolog and epilog", async () => {
    const r = await c.run('tsrun', ['-N2', '-n2', '-l', 'sh', '-c', 'echo "task on $SLURMD_NODENAME CONF_TP=${CONF_TP-unset}"'], { env: { TASK_SCRIPTS_LOG: log } });
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout).sort()).toEqual(['0: conf prolog of task 0 ctx=prolog_task', '0: task on dn1 CONF_TP=conf_0', '1: conf prolog of task 1 ctx=prolog_task', '1: task on dn2 CONF_TP=conf_1']);
    // Each node's step daemon writes on its own first task's stderr.
    expect(lines(r.stderr).sort()).toEqual(['0: conf epilog stderr 0 ctx=epilog_task', '1: conf epilog stderr 1 ctx=epilog_task']);
    expect(readLog().sort()).toEqual(['conf epilog 0 CONF_TP=unset', 'conf epilog 1 CONF_TP=unset', 'conf prolog 0', 'conf prolog 1']);
  });

  it('scontrol show config and write config name them', async () => {
    const shown = await c.run('tscontrol', ['show', 'config']);
    expect(lines(shown.stdout).filter((l) => /^Task(Prolog|Epilog) /.test(l))).toEqual([
      `TaskEpilog              = ${script('epilog.sh')}`,
      `TaskProlog              = ${script('prolog.sh')}`,
    ]);
    const written = await c.run('tscontrol', ['write', 'config', '-']);
    expect(lines(written.stdout).filter((l) => /^Task(Prolog|Epilog)=/.test(l))).toEqual([`TaskProlog=${script('prolog.sh')}`, `TaskEpilog=${script('epilog.sh')}`]);
  });

  it("a batch job on its first node's daemon", async () => {
    const submitted = await c.run('tsbatch', ['--parsable', '--wait', '-o', 'batch.out', '--wrap', 'echo "batch on $SLURMD_NODENAME CONF_TP=${CONF_TP-unset}"'], {
      env: { TASK_SCRIPTS_LOG: log },
    });
    expect(submitted.exitCode).toBe(0);
    expect(readFileSync(path.join(c.root, 'work', 'batch.out'), 'utf8')).toBe('conf prolog of task 0 ctx=prolog_task\nbatch on dn1 CONF_TP=conf_0\nconf epilog stderr 0 ctx=epilog_task\n');
    expect(readLog()).toEqual(['conf prolog 0', 'conf epilog 0 CONF_TP=unset']);
  });
});
