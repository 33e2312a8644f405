// srun's --task-prolog and --task-epilog, through tsrun and the drop-in srun, against what
// Slurm 22.05 does with the same scripts (/work/ref/task-prolog.txt, task-prolog-conf-more.txt):
// the prolog's export, unset and print lines, its failures (the task ends with its status,
// slurmstepd's lines), the epilog's stderr and its failures; as root also inside the job's
// cgroup and namespace. slurm.conf's TaskProlog/TaskEpilog: task-prolog-conf.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const pgid = fixture('clusters', 'proctrack-pgid.yaml');

describe('--task-prolog and --task-epilog', () => {
  // Outside /tmp: the namespace case gives the job a private /tmp.
  const ctl = testController({ TSLURM_CONF: pgid }, '/var/tmp');
  afterAll(() => ctl.stop());
  const script = (name: string, body: string): string => {
    const file = path.join(ctl.workDir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const prolog = script(
    'tp.sh',
    [
      'echo "export TP_VAR=hello_$SLURM_PROCID"',
      'echo "export TP_SPACE=a b c"',
      'echo "unset HOME"',
      'echo "export SLURM_NODEID=99"',
      'echo "print   line from prolog of task $SLURM_PROCID"',
      'echo "export BAD"',
      'echo "ignored line"',
      'echo "prolog stderr" >&2',
    ].join('\n'),
  );
  const epilog = script('te.sh', 'echo "epilog stdout $SLURM_PROCID"; echo "epilog stderr $SLURM_PROCID $SLURM_SCRIPT_CONTEXT ${TP_VAR-none}" >&2');
  const failing = script('tfail.sh', 'echo "export X=1"; echo "print before failing"; exit 3');
  const killed = script('tsig.sh', 'kill -9 $$');
  const dropin = path.join(repoRoot, 'bin', 'tslurm-dropin.js');
  const srun = (args: string) =>
    execa('sh', ['-c', `PATH=$(node ${dropin} slurm-bin):$PATH; srun ${args}`], {
      cwd: ctl.workDir,
      reject: false,
      timeout: 60_000,
      env: { ...ctl.env, NO_COLOR: '1' },
    });
  const show = 'sh -c \'echo "TP_VAR=$TP_VAR TP_SPACE=$TP_SPACE HOME=${HOME-unset}"\'';

  it('the prolog exports, unsets and prints for each task; the epilog\'s stderr is the task\'s', async () => {
    for (const run of [
      () => ctl.run('tsrun', ['-n2', '-l', `--task-prolog=${prolog}`, `--task-epilog=${epilog}`, 'sh', '-c', 'echo "TP_VAR=$TP_VAR TP_SPACE=$TP_SPACE HOME=${HOME-unset}"']),
      () => srun(`-n2 -l --task-prolog=${prolog} --task-epilog=${epilog} ${show}`),
    ]) {
      const r = await run();
      expect(r.exitCode).toBe(0);
      for (const task of [0, 1]) {
        const out = r.stdout.split('\n').filter((l) => l.startsWith(`${task}: `));
        expect(out).toEqual([`${task}: line from prolog of task ${task}`, `${task}: TP_VAR=hello_${task} TP_SPACE=a b c HOME=unset`]);
      }
      // The epilog sees the task's variables from before the prolog, and its own context.
      expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual(['0: epilog stderr 0 epilog_task none', '1: epilog stderr 1 epilog_task none']);
    }
  });

  it("the prolog's variables come after SLURM_SCRIPT_CONTEXT, before TMPDIR, as slurmstepd places them", async () => {
    const r = await ctl.run('tsrun', ['-n1', `--task-prolog=${prolog}`, 'env']);
    const names = r.stdout.split('\n').map((l) => l.split('=')[0]);
    expect(names.slice(names.indexOf('SLURMD_NODENAME'))).toEqual(['SLURMD_NODENAME', 'SLURM_SCRIPT_CONTEXT', 'TP_VAR', 'TP_SPACE', 'TMPDIR', '']);
    expect(r.stdout).toContain('SLURM_NODEID=99\n');
    expect(r.stdout).toContain('SLURM_SCRIPT_CONTEXT=prolog_task\n');
  });

  it("a failing prolog ends the task with its status, in slurmstepd's words (what it printed still shows)", async () => {
    const cases: Array<[string, number, string[]]> = [
      [failing, 3, ['--task-prolog failed status=3']],
      [killed, 1, ['user task_prolog did not exit normally. reason: ', '--task-prolog failed status=1']],
      [
        path.join(ctl.workDir, 'nonexist.sh'),
        1,
        [
          `run_command: user task_prolog can not be executed (${path.join(ctl.workDir, 'nonexist.sh')}) No such file or directory`,
          'user task_prolog did not exit normally. reason: Run command failed - configuration error',
          '--task-prolog failed status=1',
        ],
      ],
      [
        'tp.sh',
        1,
        [
          'run_command: user task_prolog is not fully qualified pathname (tp.sh)',
          'user task_prolog did not exit normally. reason: Run command failed - configuration error',
          '--task-prolog failed status=1',
        ],
      ],
    ];
    for (const [file, status, lines] of cases) {
      const r = await srun(`-n1 --task-prolog=${file} sh -c 'echo ran'`);
      expect(r.exitCode).toBe(status);
      expect(r.stdout).toBe(file === failing ? 'before failing' : '');
      expect(r.stderr).toBe([...lines.map((l) => `tsstepd-node1: error: ${l}`), `srun: error: node1: task 0: Exited with exit code ${status}`].join('\n'));
    }
  });

  it('a node whose only task never starts still reports to tsrun, run after run (not a node failure)', async () => {
    // Its launch is answered at once, before tsrun has taken the node's I/O connection from the
    // listener's backlog; closing the listener then reset it, and tsrun took the node for lost
    // after 10 s (one run in about six did so under load).
    for (let run = 0; run < 10; run++) {
      const r = await ctl.run('tsrun', ['-n1', `--task-prolog=${path.join(ctl.workDir, 'nonexist.sh')}`, 'true']);
      expect({ run, code: r.exitCode, lost: r.stderr.includes('Node failure') }).toEqual({ run, code: 1, lost: false });
    }
  });

  it("a failing epilog is reported with the raw status; the task's exit code stands", async () => {
    const r = await srun(`-n1 --task-epilog=${failing} sh -c 'echo ran; exit 2'`);
    expect({ code: r.exitCode, out: r.stdout }).toEqual({ code: 2, out: 'ran' });
    expect(r.stderr).toBe('tsstepd-node1: error: TaskEpilog failed status=768\nsrun: error: node1: task 0: Exited with exit code 2');
    const missing = await srun(`-n1 --task-epilog=te.sh true`);
    expect(missing.exitCode).toBe(0);
    expect(missing.stderr).toBe('tsstepd-node1: error: Could not run user task_epilog [te.sh]: access denied\ntsstepd-node1: error: TaskEpilog failed status=-1');
  });

  it('an epilog still running after 5 s is killed (TaskEpilog failed status=9), as slurmstepd does', async () => {
    const slow = script('slow.sh', 'echo "slow epilog start $SLURM_PROCID" >&2; sleep 60 & sleep 60; echo "slow epilog end" >&2');
    const started = Date.now();
    const r = await srun(`-n1 --task-epilog=${slow} sh -c 'echo ran'`);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect({ code: r.exitCode, out: r.stdout }).toEqual({ code: 0, out: 'ran' });
    expect(r.stderr).toBe('slow epilog start 0\ntsstepd-node1: error: TaskEpilog failed status=9');
  });

  it.skipIf(process.getuid?.() !== 0)('as root under proctrack/cgroup and job_container/tmpfs: the prolog runs in the task\'s cgroup and the job\'s /tmp', async () => {
    const cluster = path.join(ctl.workDir, 'tmpfs.yaml');
    writeFileSync(
      cluster,
      'cluster: tp\nplugins:\n  proctrack: proctrack/cgroup\n  job_container: job_container/tmpfs\n' +
        'nodes:\n  - name: node1\n    cpus: 2\n    memory: 1000\npartitions:\n  - name: debug\n    nodes: ALL\n    default: true\n' +
        `options:\n  job_container_tmpfs:\n    base_path: ${path.join(ctl.workDir, 'jc')}\n    auto_base_path: true\n    mode: namespace\n`,
    );
    const inside = script('inside.sh', 'echo "export PROLOG_CGROUP=$(tail -n1 /proc/self/cgroup)"; echo marker > /tmp/prolog-marker');
    const r = await ctl.run('tsrun', ['-n1', `--task-prolog=${inside}`, 'sh', '-c', 'cat /tmp/prolog-marker; echo "$PROLOG_CGROUP"; tail -n1 /proc/self/cgroup'], {
      env: { TSLURM_CONF: cluster },
    });
    expect(r.stderr).toBe('');
    const [marker, prologCgroup, taskCgroup] = r.stdout.trim().split('\n');
    expect(marker).toBe('marker');
    expect(prologCgroup).toBe(taskCgroup);
    expect(taskCgroup).toMatch(/job_\d+\/step_0/);
  });
});
