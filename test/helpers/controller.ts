// A private controller for a test: its own state directory and work directory, commands run
// against it with runBin, and stop() ending the tsctld the commands started on demand.
import { mkdirSync, mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBin, type RunOptions } from './run-bin.js';

export interface TestController {
  stateDir: string;
  workDir: string;
  env: Record<string, string>;
  run(bin: string, args: readonly string[], options?: RunOptions): ReturnType<typeof runBin>;
  /** Reads a file of the work directory. */
  read(name: string): string;
  /** Polls until `check` holds (or throws after `ms`). */
  until(check: () => Promise<boolean> | boolean, ms?: number): Promise<void>;
  /** The state of a job as `tsqueue`-free tests read it: tscontrol show job's JobState=. */
  jobField(id: number | string, field: string): Promise<string>;
  stop(): Promise<void>;
}

/** `parent`: where its directories go (outside /tmp for jobs whose tasks get a private /tmp). */
export function testController(extraEnv: Record<string, string> = {}, parent = tmpdir()): TestController {
  const root = mkdtempSync(path.join(parent, 'tslurm-ctld-'));
  const stateDir = path.join(root, 'state');
  const workDir = path.join(root, 'work');
  mkdirSync(workDir, { recursive: true });
  const env = { TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '120', TSLURM_STEPD_IDLE_EXIT: '10', TSLURM_KILL_WAIT: '2', ...extraEnv };
  const controller: TestController = {
    stateDir,
    workDir,
    env,
    run: (bin, args, options = {}) => {
      return runBin(bin, args, { cwd: workDir, ...options, env: { ...env, ...options.env } });
    },
    read: (name) => readFileSync(path.join(workDir, name), 'utf8'),
    until: async (check, ms = 20_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not reached in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    jobField: async (id, field) => {
      const shown = await controller.run('tscontrol', ['-o', 'show', 'job', String(id)]);
      return new RegExp(`(?:^| )${field.replace('/', '\\/')}=(\\S*)`).exec(shown.stdout)?.[1] ?? `<no ${field} in: ${shown.stdout}${shown.stderr}>`;
    },
    stop: async () => {
      const pidFile = path.join(stateDir, 'tsctld.pid');
      if (!existsSync(pidFile)) return;
      const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        return;
      }
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return controller;
}
