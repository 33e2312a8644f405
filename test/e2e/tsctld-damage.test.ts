// A journal or snapshot damaged behind the controller's back (cut in half, emptied, cut
// short): the restarted controller says in its log — and on stderr when in the foreground —
// how many jobs it could not recover, and keeps the damaged file aside for inspection.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, startBin } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');
const JOBS = 12;
const controllers: TestController[] = [];

afterAll(() => Promise.all(controllers.map((ctl) => ctl.stop())));

// N held jobs (acknowledged, so journaled), then the controller killed as by a crash.
async function submitThenKill(): Promise<TestController> {
  const ctl = testController();
  controllers.push(ctl);
  for (let i = 0; i < JOBS; i++) expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
  process.kill(Number(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8')), 'SIGKILL');
  await ctl.until(() => {
    try {
      process.kill(Number(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8')), 0);
      return false;
    } catch {
      return true;
    }
  });
  return ctl;
}

// Starts the controller again (in the background, logging to tsctld.log) and counts its jobs.
async function restartAndCount(ctl: TestController): Promise<number> {
  expect(await ctl.run('tsctld', ['--cluster', small])).toMatchObject({ exitCode: 0, stderr: '' });
  return queued(ctl);
}

async function queued(ctl: TestController): Promise<number> {
  const shown = await ctl.run('tsqueue', ['--cluster', small, '-h', '-o', '%i']);
  return shown.stdout.split('\n').filter(Boolean).length;
}

const ctldDir = (ctl: TestController) => path.join(ctl.stateDir, 'ctld');
const keptFiles = (ctl: TestController, name: string) => readdirSync(ctldDir(ctl)).filter((file) => file.startsWith(`${name}.damaged-`));

describe('a damaged journal', () => {
  it('cut in half: the restarted controller logs how many jobs it lost and keeps the journal', async () => {
    const ctl = await submitThenKill();
    const journal = path.join(ctldDir(ctl), 'journal');
    truncateSync(journal, Math.floor(readFileSync(journal).length / 2));
    const cut = readFileSync(journal, 'utf8');
    const recovered = await restartAndCount(ctl);
    expect(recovered).toBeGreaterThan(0);
    expect(recovered).toBeLessThan(JOBS);
    const log = readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');
    const lost = JOBS - recovered;
    const kept = keptFiles(ctl, 'journal');
    expect(kept).toHaveLength(1);
    expect(log).toContain(
      `tsctld: error: damaged controller state in ${ctldDir(ctl)}: ${lost} jobs could not be recovered (job ids ${recovered + 1}-${JOBS}, counting any submission a crash cut short before its answer); journal kept as ${path.join(ctldDir(ctl), kept[0]!)}\n`,
    );
    expect(readFileSync(path.join(ctldDir(ctl), kept[0]!), 'utf8')).toBe(cut);
  });

  it('emptied: the foreground controller says so on stderr', async () => {
    const ctl = await submitThenKill();
    writeFileSync(path.join(ctldDir(ctl), 'journal'), '');
    const daemon = startBin('tsctld', ['--cluster', small, '-D'], { env: ctl.env });
    let stderr = '';
    daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await ctl.until(() => stderr.includes('serving cluster'));
    expect(stderr).toMatch(new RegExp(`^tsctld: error: damaged controller state in ${ctldDir(ctl)}: ${JOBS} jobs could not be recovered \\(job ids 1-${JOBS}, [^)]*\\); journal kept as \\S+journal\\.damaged-\\d{8}T\\d{6}\n`));
    expect(await queued(ctl)).toBe(0);
    daemon.kill('SIGTERM');
    await daemon;
    // Said once: the next start has nothing more to report.
    const next = startBin('tsctld', ['--cluster', small, '-D'], { env: ctl.env });
    let again = '';
    next.stderr!.on('data', (chunk: Buffer) => (again += chunk.toString()));
    await ctl.until(() => again.includes('serving cluster'));
    next.kill('SIGTERM');
    await next;
    expect(again).not.toMatch(/damaged/);
  });
});

describe('a damaged snapshot', () => {
  it('cut short with no good previous one: the jobs its header counts and that are missing are reported, and it is kept aside', async () => {
    const ctl = await submitThenKill();
    // A restart writes every job into the snapshot; its journal is then empty.
    expect(await restartAndCount(ctl)).toBe(JOBS);
    await ctl.stop();
    const snapshot = path.join(ctldDir(ctl), 'job_state');
    const lines = readFileSync(snapshot, 'utf8').split('\n');
    // Header and 5 jobs left; the previous snapshot is damaged too.
    writeFileSync(snapshot, lines.slice(0, 6).join('\n'));
    writeFileSync(`${snapshot}.old`, 'garbage\n');
    expect(await restartAndCount(ctl)).toBe(5);
    const log = readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');
    expect(log).toMatch(new RegExp(`tsctld: error: damaged controller state in ${ctldDir(ctl)}: ${JOBS - 5} jobs could not be recovered; job_state kept as \\S+job_state\\.damaged-\\d{8}T\\d{6}, job_state\\.old kept as \\S+job_state\\.old\\.damaged-\\d{8}T\\d{6}\n`));
    expect(keptFiles(ctl, 'job_state')).toHaveLength(1);
    expect(existsSync(snapshot)).toBe(true);
  });
});
