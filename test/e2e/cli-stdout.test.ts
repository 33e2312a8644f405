// The CLI boundary's stdout (src/cli/run-cli.ts): a reader that went away ends a command quietly
// with the shell's status for SIGPIPE, though the boundary only hangs its handler on the stream
// once the command first writes to it; a command that writes nothing there never makes it.
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, repoRoot } from '../helpers/run-bin.js';

/** Runs a bin whose stdout is a pipe nobody reads: the read end is closed before the bin starts. */
async function withClosedStdout(bin: string, args: string[]): Promise<{ exitCode: number | undefined; stderr: string }> {
  const child = execa(process.execPath, [path.join(repoRoot, 'bin', `${bin}.js`), ...args], {
    reject: false,
    stdin: 'ignore',
    stdout: 'pipe',
    env: {
      NO_COLOR: '1',
      TSLURM_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'tslurm-test-')),
      TSLURM_CTLD_IDLE_EXIT: '2',
      TSLURM_STEPD_IDLE_EXIT: '2',
      TSLURM_CONF: undefined,
      SLURM_CONF: undefined,
    },
    timeout: 30_000,
  });
  child.stdout!.destroy();
  const result = await child;
  return { exitCode: result.exitCode, stderr: String(result.stderr) };
}

describe('stdout at the CLI boundary', () => {
  it('a command printing to a reader that went away exits 141, silently (tsrun --version)', async () => {
    const result = await withClosedStdout('tsrun', ['--version']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(141);
  });

  it("a step's output to a reader that went away ends tsrun the same way", async () => {
    const result = await withClosedStdout('tsrun', ['--cluster', fixture('clusters', 'small.yaml'), '-n1', 'sh', '-c', 'echo out; sleep 1; echo more']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(141);
  });
});
