// tsrun and tsbatch when -o/-e name a file that cannot be opened or -D a directory that cannot
// be entered: the messages are Slurm 22.05's (/work/ref/cli-errors.txt), and no output is lost
// silently. Before, `-o /nonexistent/x/%t` ran the task, lost its output and exited 0, and
// `-D /nonexistent/dir` blamed execve().
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { fixture, runBin } from '../helpers/run-bin.js';

const oneNode = fixture('clusters', 'one-node.yaml'); // node1

function scratch(): string {
  return mkdtempSync(path.join(tmpdir(), 'tslurm-io-'));
}

describe('tsrun -o/-e with a file that cannot be opened', () => {
  it('a per-task file: the task is not launched, slurmstepd\'s line, exit 1', async () => {
    const marker = path.join(scratch(), 'ran');
    const r = await runBin('tsrun', ['--cluster', oneNode, '-o', '/nonexistent/x/%t', 'touch', marker]);
    expect(r.stderr).toBe('tsrun: error: task 0 launch failed: Slurmd could not connect IO\n');
    expect(r.exitCode).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });

  it('one line per task that cannot have its file', async () => {
    const r = await runBin('tsrun', ['--cluster', oneNode, '-n2', '-e', '/nonexistent/x/err-%t', 'true']);
    expect(r.stderr).toBe(
      'tsrun: error: task 0 launch failed: Slurmd could not connect IO\n' + 'tsrun: error: task 1 launch failed: Slurmd could not connect IO\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it.each([
    ['-o', '/nonexistent/x/out-%j', 'Could not open stdout file: No such file or directory'],
    ['-e', '/nonexistent/x/err', 'Could not open stderr file: No such file or directory'],
    ['-o', '/tmp', 'Could not open stdout file: Is a directory'],
  ])('a file for the whole step (%s %s): srun\'s line, exit 1', async (flag, value, message) => {
    const r = await runBin('tsrun', ['--cluster', oneNode, flag, value, 'echo', 'hi']);
    expect(r.stderr).toBe(`tsrun: error: ${message}\n`);
    expect(r.exitCode).toBe(1);
  });

  it('a file that can be opened still gets the output', async () => {
    const dir = scratch();
    const r = await runBin('tsrun', ['--cluster', oneNode, '-o', path.join(dir, 'out-%t'), 'echo', 'hi']);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(readFileSync(path.join(dir, 'out-0'), 'utf8')).toBe('hi\n');
  });
});

describe('-D with a directory that cannot be entered', () => {
  const line = (dir: string, why: string) => `couldn't chdir to \`${dir}': ${why}: going to /tmp instead`;

  it.each([
    ['/nonexistent/dir', 'No such file or directory'],
    ['/etc/hostname', 'Not a directory'],
  ])('tsrun -D %s: slurmstepd\'s line, and the task runs in /tmp', async (dir, why) => {
    const r = await runBin('tsrun', ['--cluster', oneNode, '-D', dir, '/bin/pwd']);
    // Once for the node, once in the task's forked child (/work/ref/srun-chdir-missing.txt).
    expect(r.stderr).toBe(`tsstepd-node1: error: ${line(dir, why)}\n`.repeat(2));
    expect(r.stdout).toBe('/tmp\n');
    expect(r.exitCode).toBe(0);
  });

  it('tsbatch -D: the same line in the job\'s output, and the script runs in /tmp', async () => {
    const out = path.join(scratch(), 'job.out');
    const r = await runBin('tsbatch', ['--cluster', oneNode, '--wait', '-D', '/nonexistent/dir', '-o', out, '--wrap', 'pwd']);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`slurmstepd-node1: error: ${line('/nonexistent/dir', 'No such file or directory')}\n`.repeat(2) + '/tmp\n');
  });
});

describe('an output file that fails while the step runs', () => {
  it('is reported under the name the command was called by (srun: error:), and the step goes on', async () => {
    const dir = scratch();
    expect((await runBin('tslurm-dropin', [dir])).exitCode).toBe(0);
    // A state directory of its own, as runBin gives: the default one (~/.local/state/tslurm/one)
    // is shared with every other run on this account, and its controller stays 300 s.
    const env = { NO_COLOR: '1', TSLURM_STATE_DIR: path.join(dir, 'state'), TSLURM_CTLD_IDLE_EXIT: '2', TSLURM_STEPD_IDLE_EXIT: '2' };
    const r = await execa(path.join(dir, 'srun'), ['--cluster', oneNode, '-o', '/dev/full', 'echo', 'hi'], { reject: false, env });
    expect(r.stderr).toMatch(/^srun: error: \/dev\/full: ENOSPC: no space left on device/m);
    expect(r.stderr).not.toMatch(/tsrun:/);
  });
});
