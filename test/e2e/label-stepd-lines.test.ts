// srun -l labels what slurmstepd prints for a task as it labels the task's own output: the
// lines of the task's forked process (an exec failure, a failing or cancelled prolog) with the
// task's number, slurmstepd's own (a chdir failure, an epilog's failure, the CANCELLED line)
// with the node's first task's, since its stderr is that task's. As Slurm 22.05 prints them:
// /work/ref/srun-label-stepd-lines.txt, task-prolog-cancel.txt, task-prolog-conf-more.txt.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');
const lines = (text: string): string[] => text.split('\n').filter(Boolean);

describe("srun -l and slurmstepd's lines for a task", () => {
  const ctl = testController({ TSLURM_CONF: small, TSLURM_KILL_WAIT: '2' });
  afterAll(() => ctl.stop());
  const script = (name: string, body: string): string => {
    const file = path.join(ctl.workDir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const srun = (args: string[]) => ctl.run('slurm-name', ['srun', ...args]);

  it("labels an exec failure with each task's number, and leaves it unlabelled without -l", async () => {
    const r = await srun(['-n2', '-l', '/nonexistent/prog']);
    expect(r.exitCode).toBe(2);
    expect(lines(r.stderr).sort()).toEqual([
      '0: tsstepd-node1: error: execve(): /nonexistent/prog: No such file or directory',
      '1: tsstepd-node1: error: execve(): /nonexistent/prog: No such file or directory',
      'srun: error: node1: tasks 0-1: Exited with exit code 2',
    ]);
    const plain = await srun(['-n1', '/nonexistent/prog']);
    expect(lines(plain.stderr)).toEqual(['tsstepd-node1: error: execve(): /nonexistent/prog: No such file or directory', 'srun: error: node1: task 0: Exited with exit code 2']);
  });

  it("labels a failing or missing --task-prolog's lines with its task, a failing --task-epilog's and a chdir failure with the node's first task", async () => {
    const failing = script('fail.sh', 'echo "print before failing"; exit 3');
    const r = await srun(['-n3', '-l', `--task-prolog=${failing}`, 'sh', '-c', 'echo ran']);
    expect(r.exitCode).toBe(3);
    expect(lines(r.stdout).sort()).toEqual(['0: before failing', '1: before failing', '2: before failing']);
    expect(lines(r.stderr).sort()).toEqual([
      '0: tsstepd-node1: error: --task-prolog failed status=3',
      '1: tsstepd-node1: error: --task-prolog failed status=3',
      '2: tsstepd-node1: error: --task-prolog failed status=3',
      'srun: error: node1: tasks 0-2: Exited with exit code 3',
    ]);

    const missing = path.join(ctl.workDir, 'nonexist.sh');
    const m = await srun(['-n2', '-l', `--task-prolog=${missing}`, 'true']);
    expect(m.exitCode).toBe(1);
    const missingLines = (task: number) => [
      `${task}: tsstepd-node1: error: run_command: user task_prolog can not be executed (${missing}) No such file or directory`,
      `${task}: tsstepd-node1: error: user task_prolog did not exit normally. reason: Run command failed - configuration error`,
      `${task}: tsstepd-node1: error: --task-prolog failed status=1`,
    ];
    expect(lines(m.stderr).sort()).toEqual([...missingLines(0), ...missingLines(1), 'srun: error: node1: tasks 0-1: Exited with exit code 1'].sort());

    const epilog = script('efail.sh', 'exit 3');
    const e = await srun(['-n2', '-l', `--task-epilog=${epilog}`, 'true']);
    expect(e.exitCode).toBe(0);
    // 22.05's words for a failing --task-epilog (see task-scripts.ts), on slurmstepd's stderr.
    expect(lines(e.stderr)).toEqual(['0: tsstepd-node1: error: TaskEpilog failed status=768', '0: tsstepd-node1: error: TaskEpilog failed status=768']);

    // slurmstepd's line once for the node and once in each task's forked child, all on its own
    // stderr (/work/ref/srun-chdir-missing.txt); the tasks' exit code is theirs.
    const chdirLine = "0: tsstepd-node1: error: couldn't chdir to `/nonexistent/dir': No such file or directory: going to /tmp instead";
    const d = await srun(['-n2', '-l', '-D', '/nonexistent/dir', 'pwd']);
    expect(d.exitCode).toBe(0);
    expect(lines(d.stdout).sort()).toEqual(['0: /tmp', '1: /tmp']);
    expect(lines(d.stderr)).toEqual([chdirLine, chdirLine, chdirLine]);
    const d3 = await srun(['-n3', '-l', '-D', '/nonexistent/dir', 'sh', '-c', 'exit 3']);
    expect(d3.exitCode).toBe(3);
    expect(lines(d3.stderr)).toEqual([chdirLine, chdirLine, chdirLine, chdirLine, 'srun: error: node1: tasks 0-2: Exited with exit code 3']);
  });

  it("labels the lines of prologs that scancel ended with their tasks, and the step's CANCELLED line with task 0", async () => {
    const started = path.join(ctl.workDir, 'prolog.started');
    const hang = script('hang.sh', `echo "$SLURM_PROCID" >> ${started}; sleep 300`);
    const run = srun(['-n2', '-l', `--task-prolog=${hang}`, 'sh', '-c', 'echo ran']);
    await ctl.until(() => existsSync(started) && readFileSync(started, 'utf8') !== '');
    const id = (await ctl.run('slurm-name', ['squeue', '-h', '-t', 'R', '-o', '%i'])).stdout.trim();
    expect(await ctl.run('slurm-name', ['scancel', id])).toMatchObject({ exitCode: 0, stderr: '' });
    const r = await run;
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    const killed = (task: number) => [`${task}: tsstepd-node1: error: user task_prolog did not exit normally. reason: `, `${task}: tsstepd-node1: error: --task-prolog failed status=1`];
    const got = lines(r.stderr);
    expect(got[0]).toMatch(new RegExp(`^0: tsstepd-node1: error: \\*\\*\\* STEP ${id}\\.0 ON node1 CANCELLED AT \\S+ \\*\\*\\*$`));
    expect(got.slice(1).sort()).toEqual(
      [...killed(0), ...killed(1), 'srun: Job step aborted: Waiting up to 4 seconds for job step to finish.', 'srun: error: node1: tasks 0-1: Exited with exit code 1'].sort(),
    );
  });
});
