// Spawns a built bin the way a user runs it: no colour, a private state dir, reject: false,
// so every test asserts on the exit code, stdout and stderr it really got.
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function fixture(...parts: string[]): string {
  return path.join(repoRoot, 'fixtures', ...parts);
}

export interface BinResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  timeout?: number;
  /** Most bytes kept of stdout and of stderr (execa's maxBuffer): past it the bin is killed. */
  maxBuffer?: number;
}

/** A user's environment without our own settings, plus a private state directory. */
function binEnv(options: RunOptions): Record<string, string | undefined> {
  return {
    NO_COLOR: '1',
    TSLURM_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'tslurm-test-')),
    TSLURM_CONF: undefined,
    SLURM_CONF: undefined,
    TSLURM_PLUGIN_DIR: undefined,
    TSLURM_DEBUG: undefined,
    // tsrun and tsbatch start a controller on their state directory: one per fresh directory
    // goes soon after its last command instead of staying the default five minutes.
    TSLURM_CTLD_IDLE_EXIT: '2',
    // So do the step host they start (tsrun's steps and batch scripts run there).
    TSLURM_STEPD_IDLE_EXIT: '2',
    ...options.env,
  };
}

export async function runBin(bin: string, args: readonly string[], options: RunOptions = {}): Promise<BinResult> {
  const result = await execa(process.execPath, [path.join(repoRoot, 'bin', `${bin}.js`), ...args], {
    reject: false,
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? '',
    timeout: options.timeout ?? 30_000,
    ...(options.maxBuffer !== undefined && { maxBuffer: options.maxBuffer }),
    stripFinalNewline: false,
    env: binEnv(options),
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Starts a bin without waiting for it, for tests that signal it while it runs. */
export function startBin(bin: string, args: readonly string[], options: RunOptions = {}) {
  return execa(process.execPath, [path.join(repoRoot, 'bin', `${bin}.js`), ...args], {
    reject: false,
    cwd: options.cwd ?? repoRoot,
    stdin: 'ignore',
    timeout: options.timeout ?? 30_000,
    stripFinalNewline: false,
    env: binEnv(options),
  });
}
