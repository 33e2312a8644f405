// `tscontrol reconfigure` reads the controller's cluster file again, as `scontrol reconfigure`
// makes slurmctld re-read slurm.conf (observed on 22.05: /work/ref/reconfigure.txt): a changed
// partition limit and TaskProlog hold from then on, a partition update gives way to the file,
// a drained node stays drained; a file that cannot be read, or a change of nodes, is refused
// with the file, line and column, and the controller goes on with what it had.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

describe('tscontrol reconfigure', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  const file = path.join(ctl.workDir, 'cluster.yaml');
  const good = path.join(ctl.workDir, 'good.yaml');
  copyFileSync(fixture('clusters', 'small.yaml'), file);
  const original = readFileSync(file, 'utf8');
  const prolog = path.join(ctl.workDir, 'prolog.sh');
  writeFileSync(prolog, '#!/bin/sh\necho "print prolog says hi"\n');
  chmodSync(prolog, 0o755);
  const scontrol = (args: string[], cluster = file) => ctl.run('tscontrol', ['--cluster', cluster, ...args]);
  const maxTime = async (cluster = file) => /MaxTime=(\S+)/.exec((await scontrol(['show', 'partition', 'small'], cluster)).stdout)?.[1];
  const batchOutput = async (name: string) => {
    const submitted = await ctl.run('tsbatch', ['--cluster', file, '--parsable', '-o', name, '--wrap', 'echo script ran']);
    expect(submitted.stderr).toBe('');
    const id = submitted.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    return ctl.read(name);
  };

  it('takes a changed partition limit and TaskProlog; a partition update gives way to the file, a drain stays', async () => {
    expect(await batchOutput('before.out')).toBe('script ran\n');
    expect(await maxTime()).toBe('00:10:00');
    expect((await scontrol(['update', 'PartitionName=small', 'State=DOWN'])).exitCode).toBe(0);
    expect((await scontrol(['update', 'NodeName=node4', 'State=DRAIN', 'Reason=kept'])).exitCode).toBe(0);
    writeFileSync(file, `task_prolog: ${prolog}\n${original.replace('max_time: 10', 'max_time: 30')}`);
    // Not read until told.
    expect(await maxTime()).toBe('00:10:00');
    const done = await scontrol(['reconfigure']);
    expect({ stderr: done.stderr, exitCode: done.exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const shown = (await scontrol(['show', 'partition', 'small'])).stdout;
    expect(shown).toMatch(/MaxTime=00:30:00 /);
    expect(shown).toMatch(/State=UP /);
    expect((await scontrol(['show', 'node', 'node4'])).stdout).toMatch(/Reason=kept /);
    expect(await batchOutput('after.out')).toBe('prolog says hi\nscript ran\n');
    // A job beyond the old limit is taken now.
    const long = await ctl.run('tsbatch', ['--cluster', file, '-p', 'small', '--time=20', '--hold', '--wrap=true']);
    expect(long.stderr).toBe('');
    expect(long.exitCode).toBe(0);
  });

  it('refuses a broken file with its line and column, and keeps the configuration it had', async () => {
    const before = readFileSync(file, 'utf8');
    copyFileSync(file, good);
    writeFileSync(file, before.replace('max_time: 30', 'max_time: [45'));
    // The command reads the file itself first, as scontrol does: the same error, nothing sent.
    const own = await scontrol(['reconfigure']);
    expect(own.exitCode).toBe(1);
    expect(own.stderr).toMatch(new RegExp(`^(tscontrol: error: ${file}:\\d+:\\d+: .+\\n)+$`));
    // Through a good copy naming the same controller: the controller reads its own file.
    const refused = await scontrol(['reconfigure'], good);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(own.stderr);
    expect(await maxTime(good)).toBe('00:30:00');
    // Nodes change only with a restart: refused, nothing taken (not even the new limit).
    writeFileSync(file, before.replace('max_time: 30', 'max_time: 45').replace('node[1-4]', 'node[1-5]'));
    const nodes = await scontrol(['reconfigure'], good);
    expect(nodes.stderr).toBe(
      `tscontrol: error: ${file}: nodes node5 added: the controller must be restarted to take a change of nodes (as slurmctld must); the configuration is unchanged\n`,
    );
    expect(nodes.exitCode).toBe(1);
    expect(await maxTime(good)).toBe('00:30:00');
    // A partition gone while a job waits in it (the held one of the test above): refused.
    writeFileSync(file, before.replace(/  - name: small[\s\S]*$/, ''));
    const gone = await scontrol(['reconfigure'], good);
    expect(gone.stderr).toMatch(
      new RegExp(`^tscontrol: error: ${file}: partition small is gone but jobs \\d+ are in it: cancel them or keep the partition; the configuration is unchanged\\n$`),
    );
    expect(gone.exitCode).toBe(1);
    expect(await maxTime(good)).toBe('00:30:00');
    // A restart-only setting is named, and the rest is taken.
    writeFileSync(file, `${before.replace('max_time: 30', 'max_time: 45')}plugins:\n  select: select/linear\n`);
    const later = await scontrol(['reconfigure'], good);
    expect(later.stderr).toBe(`tscontrol: warning: ${file}: plugins.select changed: it takes effect when the controller restarts\n`);
    expect(later.exitCode).toBe(0);
    expect(await maxTime(good)).toBe('00:45:00');
    // Under Slurm's name the warning speaks as scontrol.
    const dropin = await ctl.run('slurm-name', ['scontrol', '--cluster', good, 'reconfigure']);
    expect(dropin).toMatchObject({ exitCode: 0, stderr: `scontrol: warning: ${file}: plugins.select changed: it takes effect when the controller restarts\n` });
  });
});
