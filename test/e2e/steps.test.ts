// Steps inside a batch job known to the controller: tsrun registers its step, `tscontrol show
// steps` and `tsqueue -s` list it in scontrol's and squeue's layouts, `tscancel N.S` ends it as
// scancel ends a step (the batch script goes on), and an ended step is no longer listed —
// expectations observed on Slurm 22.05 (`srun sleep 100` inside an sbatch job).
import { afterAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');
const stamp = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/g;

describe('job steps known to the controller', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('lists a batch job\'s tsrun step, cancels it alone, and forgets it once ended', async () => {
    const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
    const script = `#!/bin/sh\n#SBATCH -o steps.out\n${tsrun} sleep 30\necho "after rc=$?"\nexit 0\n`;
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable'], { input: script })).stdout.trim();
    const shown = async (): Promise<string> => (await ctl.run('tscontrol', ['show', 'steps'])).stdout;
    await ctl.until(async () => (await shown()).includes(`StepId=${id}.0 `));

    const uid = process.getuid?.() ?? 0;
    const host = os.hostname().split('.')[0]!;
    const listed = await shown();
    const pid = /SrunHost:Pid=[^(]\S*:(\d+)/.exec(listed)![1];
    expect(listed.replace(stamp, '<T>')).toBe(
      `StepId=${id}.batch UserId=${uid} StartTime=<T> TimeLimit=UNLIMITED\n` +
        '   State=RUNNING Partition=debug NodeList=node1\n' +
        '   Nodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)\n' +
        '   TRES=(null)\n' +
        '   ResvPorts=(null)\n' +
        '   CPUFreqReq=Default\n' +
        '   SrunHost:Pid=(null):0\n' +
        '\n' +
        `StepId=${id}.0 UserId=${uid} StartTime=<T> TimeLimit=UNLIMITED\n` +
        '   State=RUNNING Partition=debug NodeList=node1\n' +
        '   Nodes=1 CPUs=1 Tasks=1 Name=sleep Network=(null)\n' +
        '   TRES=cpu=1,mem=0,node=1\n' +
        '   ResvPorts=(null)\n' +
        '   CPUFreqReq=Default Dist=Cyclic\n' +
        `   SrunHost:Pid=${host}:${pid}\n` +
        '\n',
    );
    const one = await ctl.run('tscontrol', ['-o', 'show', 'step', `${id}.0`]);
    expect(one.stdout.replace(stamp, '<T>')).toBe(
      `StepId=${id}.0 UserId=${uid} StartTime=<T> TimeLimit=UNLIMITED State=RUNNING Partition=debug NodeList=node1 ` +
        'Nodes=1 CPUs=1 Tasks=1 Name=sleep Network=(null) TRES=cpu=1,mem=0,node=1 ResvPorts=(null) ' +
        `CPUFreqReq=Default Dist=Cyclic SrunHost:Pid=${host}:${pid}\n`,
    );
    const queue = await ctl.run('tsqueue', ['-s']);
    expect(queue.stdout.replace(/ +\d+:\d\d /g, ' <M> ')).toBe(
      '         STEPID     NAME PARTITION     USER      TIME NODELIST\n' +
        `${`${id}.0`.padStart(15)}    sleep     debug ${os.userInfo().username.slice(0, 8).padStart(8)} <M> node1\n` +
        `${`${id}.batch`.padStart(15)}    batch     debug ${os.userInfo().username.slice(0, 8).padStart(8)} <M> node1\n`,
    );

    expect(await ctl.run('tscancel', [`${id}.0`])).toMatchObject({ exitCode: 0, stderr: '' });
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read('steps.out')).toMatch(
      new RegExp(
        `^tsstepd-node1: error: \\*\\*\\* STEP ${id}\\.0 ON node1 CANCELLED AT ${stamp.source} \\*\\*\\*\\n` +
          'tsrun: Job step aborted: Waiting up to 4 seconds for job step to finish\\.\\n' +
          'tsrun: error: node1: task 0: Killed\\n' +
          'after rc=137\\n$',
      ),
    );
    expect(await ctl.run('tscontrol', ['show', 'steps'])).toMatchObject({ exitCode: 0, stdout: 'No job steps in the system\n' });
    expect(await ctl.run('tscontrol', ['show', 'step', `${id}.0`])).toMatchObject({ exitCode: 1, stdout: `Job step ${id}.0 not found\n` });
    expect(await ctl.run('tscancel', [`${id}.0`])).toMatchObject({
      exitCode: 1,
      stderr: `tscancel: error: Kill job error on job step id ${id}.0: Invalid job id specified\n`,
    });
  });
});
