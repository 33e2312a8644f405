// The README's tsrestd examples, run as written: its first line starts tsrestd (on a free port
// instead of 6820, which another test may hold), and the rest of the block runs in one shell
// with a fresh home directory, so `~/.local/state/tslurm/tslurm/tsrestd.sock` and job id 1 are
// what a new user gets. Each curl's answer is then checked.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/run-bin.js';

const BINS = ['tsrestd', 'tscontrol', 'tsbatch', 'tsqueue'];

function block(): string[] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf("### tsrestd — Slurm's REST API"));
  const found = /^```sh\n([\s\S]*?)^```/m.exec(section);
  return found![1]!.split('\n').filter((line) => line.trim() !== '');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('README: tsrestd', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-readme-restd-'));
  const home = path.join(root, 'home');
  const shims = path.join(root, 'bin');
  mkdirSync(home);
  mkdirSync(shims);
  for (const name of BINS) writeFileSync(path.join(shims, name), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'bin', `${name}.js`)}" "$@"\n`, { mode: 0o755 });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, NO_COLOR: '1', PATH: `${shims}:${process.env.PATH}`, TSLURM_CTLD_IDLE_EXIT: '120' };
  // Unset (undefined), not deleted: execa adds this process's environment to what it is given.
  for (const name of ['TSLURM_STATE_DIR', 'XDG_STATE_HOME', 'TSLURM_CONF', 'SLURM_CONF', 'SLURM_JWT']) env[name] = undefined;
  let restd: ReturnType<typeof execa> | undefined;
  afterAll(async () => {
    restd?.kill('SIGTERM');
    await restd?.catch(() => {});
    const pid = Number.parseInt(readFileSync(path.join(home, '.local/state/tslurm/tslurm/tsctld.pid'), 'utf8'), 10);
    if (pid > 0) process.kill(pid, 'SIGTERM');
  });

  it('runs every curl line of the block and gets the answers it promises', async () => {
    const [start, ...lines] = block();
    expect(start).toMatch(/^tsrestd --listen 127\.0\.0\.1:6820 /);
    const port = String(await freePort());
    const [bin, ...args] = start!.replace(/\s+#.*$/, '').replace('6820', port).split(/\s+/);
    restd = execa(path.join(shims, bin!), args, { env, cwd: home, reject: false });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      restd!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes(`http://127.0.0.1:${port}/`)) resolve();
      });
      void restd!.then((r) => reject(new Error(`tsrestd ended: ${String(r.stderr)}`)));
    });
    // Each line as written (the port aside), its output after a marker of its own.
    const script = lines.map((line, i) => `echo "@@${i}"\n${line.replaceAll('6820', port)}\necho`).join('\n');
    const ran = await execa('bash', ['-e', '-c', script], { env, cwd: home, reject: false });
    expect(ran.stderr).toBe('');
    expect(ran.exitCode).toBe(0);
    const outputs = ran.stdout.split(/^@@\d+\n/m).slice(1).map((text) => text.trim());
    const json = (i: number) => JSON.parse(outputs[i]!);
    expect(lines.length).toBe(9);
    expect(json(0).pings[0].ping).toBe('UP');
    expect(outputs[1]).toBe('');
    expect(json(2).nodes.length).toBeGreaterThan(0);
    expect(json(3)).toMatchObject({ errors: [], job_id: 1, step_id: 'BATCH' });
    expect(json(4).jobs.map((j: { job_id: number; name: string }) => [j.job_id, j.name])).toEqual([[1, 'from-rest']]);
    expect(json(5).errors).toEqual([]);
    // The accounting store has the job from its submission on, whatever its state by now.
    expect(json(6)).toMatchObject({ errors: [], jobs: [{ job_id: 1, name: 'from-rest' }] });
    expect(json(7).jobs.map((j: { job_id: number }) => j.job_id)).toEqual([1]);
    expect(Object.keys(json(8).paths)).toEqual(expect.arrayContaining(['/slurm/v0.0.38/job/submit', '/slurmdb/v0.0.38/jobs']));
  });
});
