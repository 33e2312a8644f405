// The README's example commands run as written: every line of its ```sh blocks that starts with
// a ts command and needs nothing the reader must supply (their own programs or scripts, job ids
// of their queue, a cluster file of their own, a change to a running cluster) is run on the
// built-in or fixture cluster it names, and must succeed. So an example cannot drift from the
// code again (the gpu.yaml one once asked for GPUs in a partition that has none).
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/run-bin.js';

const COMMANDS = ['tsrun', 'tsbatch', 'tsqueue', 'tsinfo', 'tscontrol', 'tscancel', 'tsbcast', 'tsacct'];

/** Why an example cannot run as written here, or undefined when it can. */
function needsTheReader(command: string): string | undefined {
  if (/\.\/|\.sh\b|\$|\/tmp\/|\/root/.test(command)) return 'a program, script or file of the reader';
  if (/\b(lab|cluster)\.yaml\b/.test(command)) return "the reader's cluster file";
  if (/--mpi=pmi/.test(command)) return 'an MPI program';
  if (jobIdIn(command) || /\s-j\s*\d/.test(command)) return 'a job id of the reader';
  if (/^tscancel|tscontrol (update|create|delete|requeue|suspend|resume|hold|release|reconfigure|write)/.test(command)) return 'changes a cluster';
  if (/\s\[/.test(command)) return 'a placeholder: an optional argument in brackets';
  if (/\s-i\s/.test(command) || /--reservation/.test(command)) return 'a repeat or a reservation of the reader';
  return undefined;
}

/** A bare number (42, 43_2, 42.0) that is no option's value is a job id. */
function jobIdIn(command: string): boolean {
  const words = command.split(/\s+/);
  return words.some((word, i) => /^\d+([_.]\d+)?;?$/.test(word) && !words[i - 1]!.startsWith('-'));
}

/** The example lines of the README's ```sh blocks that start with a ts command, comments cut. */
function examples(): string[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const found: string[] = [];
  for (const block of readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/^\s*\$ /, '').replace(/\s+#.*$/, '').trim();
      if (COMMANDS.includes(line.split(/\s/)[0]!)) found.push(line);
    }
  }
  return found;
}

describe('README examples', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-readme-'));
  const work = path.join(root, 'work');
  const shims = path.join(root, 'bin');
  const state = path.join(root, 'state');
  mkdirSync(work);
  mkdirSync(shims);
  // Relative paths in the examples (fixtures/...) are the repository's.
  symlinkSync(path.join(repoRoot, 'fixtures'), path.join(work, 'fixtures'));
  for (const name of COMMANDS) {
    writeFileSync(path.join(shims, name), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'bin', `${name}.js`)}" "$@"\n`, { mode: 0o755 });
  }
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', PATH: `${shims}:${process.env.PATH}`, TSLURM_STATE_DIR: state, TSLURM_CTLD_IDLE_EXIT: '600' };
  for (const name of ['TSLURM_CONF', 'SLURM_CONF', 'SLURM_JOB_ID', 'TSLURM_DEBUG']) delete env[name];
  // An example naming another cluster file gets that cluster's own state directory, as a user
  // does (XDG_STATE_HOME/tslurm/<cluster>): the controller its tsrun starts is that cluster's.
  const xdg = path.join(root, 'xdg');
  const envFor = (line: string) => (line.includes('--cluster ') ? { ...env, TSLURM_STATE_DIR: undefined, XDG_STATE_HOME: xdg } : env);
  afterAll(async () => {
    // Batch jobs outlive their controller: end the examples' jobs (one sleeps) first.
    await execa('bash', ['-c', 'tscancel -u "$(id -un)"'], { cwd: work, env, reject: false });
    const clusters = existsSync(path.join(xdg, 'tslurm')) ? readdirSync(path.join(xdg, 'tslurm')).map((c) => path.join(xdg, 'tslurm', c)) : [];
    for (const dir of [state, ...clusters]) {
      for (const daemon of ['tsctld.pid', 'tsstepd.pid']) {
        const pid = path.join(dir, daemon);
        try {
          if (existsSync(pid)) process.kill(Number(readFileSync(pid, 'utf8')), 'SIGTERM');
        } catch {
          // gone already
        }
      }
    }
  });

  const runnable = examples().filter((line) => needsTheReader(line) === undefined);

  it('finds the examples, the gpu one among those it runs', () => {
    expect(examples().length).toBeGreaterThan(50);
    // A tsbatch example comes before `tscontrol ping`, which reports the controller it started.
    expect(runnable.findIndex((l) => l.startsWith('tsbatch'))).toBeLessThan(runnable.indexOf('tscontrol ping'));
    expect(runnable).toContain('tsrun --cluster fixtures/clusters/gpu.yaml -p gpu --gpus=2 -n2 printenv CUDA_VISIBLE_DEVICES');
  });

  it.each(runnable)('%s', async (line) => {
    const r = await execa('bash', ['-c', line], { cwd: work, env: envFor(line), reject: false, timeout: 60_000 });
    expect(r.exitCode, `${r.stdout}${r.stderr}`).toBe(0);
  }, 90_000);
});
