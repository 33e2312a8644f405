// srun's line for a task that failed is printed when that task ends, not when the step does
// (observed on Slurm 22.05: `srun -n2 bash -c 'if [ $SLURM_PROCID = 0 ]; then exit 3; fi;
// sleep 3'` prints `task 0: Exited with exit code 3` at once): here task 1 waits until the test
// has seen task 0's line, which it would never see before the step's end on the old code.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

/** Task 0 ends as `first` says; the others wait (30 s at most) for the file `go`. */
const script = (first: string) =>
  `if [ $SLURM_PROCID = 0 ]; then ${first}; fi; i=0; while [ ! -e go ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; [ -e go ] && exit 0; exit 9`;

describe('task error lines as each task ends', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'proctrack-pgid.yaml') });
  afterAll(() => ctl.stop());
  const dropin = path.join(repoRoot, 'bin', 'tslurm-dropin.js');

  /** Runs a step and resolves with its stderr once `line` showed up on it mid-step, then lets it end. */
  async function lineBeforeEnd(command: string[], line: string, go: string) {
    const child = execa(command[0]!, command.slice(1), { cwd: ctl.workDir, env: { ...ctl.env, NO_COLOR: '1' }, reject: false, timeout: 60_000 });
    let stderr = '';
    let seenMidStep = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!seenMidStep && stderr.includes(line)) {
        seenMidStep = true;
        writeFileSync(go, '');
      }
    });
    const result = await child;
    return { seenMidStep, stderr, exitCode: result.exitCode, released: existsSync(go) };
  }

  it("an exit code: the line comes while the other task still runs (tsrun and srun)", async () => {
    const runs: Array<[string, string[]]> = [
      ['tsrun', [process.execPath, path.join(repoRoot, 'bin', 'tsrun.js'), '-n2', 'sh', '-c', script('exit 3')]],
      ['srun', ['sh', '-c', `PATH=$(node ${dropin} slurm-bin):$PATH; exec srun -n2 sh -c '${script('exit 3')}'`]],
    ];
    for (const [name, command] of runs) {
      const go = path.join(ctl.workDir, 'go');
      const r = await lineBeforeEnd(command, `${name}: error: node1: task 0: Exited with exit code 3`, go);
      expect({ name, seenMidStep: r.seenMidStep, exitCode: r.exitCode }).toEqual({ name, seenMidStep: true, exitCode: 3 });
      // Printed once: the step's end does not repeat it.
      expect(r.stderr).toBe(`${name}: error: node1: task 0: Exited with exit code 3\n`);
      await execa('rm', ['-f', go]);
    }
  });

  it('a signal: Killed while the other task runs; Force Terminated at the end', async () => {
    const go = path.join(ctl.workDir, 'go');
    const r = await lineBeforeEnd(
      [process.execPath, path.join(repoRoot, 'bin', 'tsrun.js'), '-n2', 'sh', '-c', script('kill -9 $$')],
      'tsrun: error: node1: task 0: Killed',
      go,
    );
    expect(r.seenMidStep).toBe(true);
    expect(r.exitCode).toBe(137);
    expect(r.stderr).toMatch(/^tsrun: error: node1: task 0: Killed\ntsrun: Force Terminated StepId=\d+\.0\n$/);
    await execa('rm', ['-f', go]);
  });
});
