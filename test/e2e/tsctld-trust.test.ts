// The controller trusts only state of its own user (DESIGN.md §8): a state directory, a
// state file or a key file another user owns or may write is refused with one line saying
// how to fix it, before anything in it is read — by tsctld and by a command that would start
// it on demand; and what the controller creates is 0600 (files) and 0700 (directories)
// whatever the umask. Changing owners needs root: those cases are skipped otherwise.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml');
const isRoot = process.geteuid?.() === 0;
const NOBODY = 65534;
const roots: string[] = [];

function scratch(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-trust-'));
  roots.push(root);
  return root;
}

// A job another user planted in the journal: replayed, it would run as the controller's user.
function plantJournal(stateDir: string): void {
  mkdirSync(path.join(stateDir, 'ctld'), { recursive: true });
  writeFileSync(path.join(stateDir, 'ctld', 'journal'), `${JSON.stringify({ seq: 1, t: 'submit', job: { id: 7 } })}\n`);
}

afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('a state directory others may write', () => {
  it('is refused by tsbatch, tsqueue and tsctld alike, with the chmod that fixes it, and nothing in it is used', async () => {
    const stateDir = path.join(scratch(), 'state');
    mkdirSync(stateDir);
    chmodSync(stateDir, 0o777);
    plantJournal(stateDir);
    const env = { TSLURM_STATE_DIR: stateDir };
    const why = `bad ownership or modes for state directory ${stateDir} (mode 0777, writable by group and others): it must belong to ${userInfo().username}`;
    for (const [bin, args] of [
      ['tsbatch', ['--cluster', small, '--wrap', 'true']],
      ['tsqueue', ['--cluster', small]],
      ['tsctld', ['--cluster', small, '-D']],
      ['tsctld', ['--cluster', small]],
    ] as const) {
      const result = await runBin(bin, args, { env });
      expect(result.exitCode, bin).toBe(1);
      expect(result.stderr, bin).toMatch(new RegExp(`^${bin}: error: ${escape(why)}[^\n]*, then: chmod 700 ${escape(stateDir)}\n$`));
    }
    expect(readdirSync(stateDir)).toEqual(['ctld']);
    chmodSync(stateDir, 0o755);
  });

  it.skipIf(!isRoot)('is refused when another user owns it, with the chown that fixes it (root)', async () => {
    const stateDir = path.join(scratch(), 'state');
    mkdirSync(stateDir, { mode: 0o700 });
    plantJournal(stateDir);
    chownSync(stateDir, NOBODY, NOBODY);
    const batch = await runBin('tsbatch', ['--cluster', small, '--wrap', 'true'], { env: { TSLURM_STATE_DIR: stateDir } });
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toMatch(new RegExp(`^tsbatch: error: bad ownership or modes for state directory ${escape(stateDir)} \\(mode 0700, owned by nobody \\(uid ${NOBODY}\\)\\): .*, then: chown root ${escape(stateDir)}; chmod 700 ${escape(stateDir)}\n$`));
    const daemon = await runBin('tsctld', ['--cluster', small, '-D'], { env: { TSLURM_STATE_DIR: stateDir } });
    expect(daemon.exitCode).toBe(1);
    expect(daemon.stderr).toMatch(/^tsctld: error: bad ownership or modes for state directory .* owned by nobody/);
    expect(readdirSync(stateDir)).toEqual(['ctld']);
  });

  it.skipIf(!isRoot)('refuses a state file another user owns inside a good directory, also when started on demand (root)', async () => {
    const stateDir = path.join(scratch(), 'state');
    mkdirSync(stateDir, { mode: 0o700 });
    plantJournal(stateDir);
    const journal = path.join(stateDir, 'ctld', 'journal');
    chownSync(journal, NOBODY, NOBODY);
    const started = Date.now();
    const batch = await runBin('tsbatch', ['--cluster', small, '--wrap', 'true'], { env: { TSLURM_STATE_DIR: stateDir } });
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toMatch(new RegExp(`^tsbatch: error: bad ownership or modes for state file ${escape(journal)} \\(mode 0644, owned by nobody \\(uid ${NOBODY}\\)\\): .*, then: chown root ${escape(journal)}; chmod 600 ${escape(journal)}\n$`));
    // At once, not after the wait for a socket that never comes (15 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(path.join(stateDir, 'tsctld.pid'))).toBe(false);
  });

  it.skipIf(!isRoot)('refuses an auth/hmac key file others may write, whoever owns it (root)', async () => {
    // A key owned by another user is taken (root's daemons read the key of the one user of a
    // cluster, test/e2e/tsstepd-run-as.test.ts): its owner can read it, and so sign as anyone,
    // whatever else is checked. What is refused is a key others may read or change.
    const root = scratch();
    const key = path.join(root, 'key');
    writeFileSync(key, randomBytes(32));
    chownSync(key, NOBODY, NOBODY);
    chmodSync(key, 0o666);
    const cluster = path.join(root, 'cluster.yaml');
    writeFileSync(
      cluster,
      [
        'cluster: keyed',
        'control:',
        '  address: 127.0.0.1:1',
        `  state_dir: ${path.join(root, 'state')}`,
        `auth: { type: auth/hmac, key_file: ${key} }`,
        'nodes:',
        '  - { name: n1, cpus: 2, memory: 1000, address: "127.0.0.1:2" }',
        'partitions:',
        '  - { name: debug, nodes: n1 }',
      ].join('\n'),
    );
    const daemon = await runBin('tsctld', ['--cluster', cluster, '-D'], { env: { TSLURM_STATE_DIR: undefined } });
    expect(daemon.exitCode).toBe(1);
    expect(daemon.stderr).toContain(`tsctld: error: auth/hmac: key file ${key} is readable by others (mode 0666); chmod 600 it\n`);
  });
});

describe('files the controller creates', () => {
  it('are 0600 and its directories 0700, also under umask 000', async () => {
    const root = scratch();
    const stateDir = path.join(root, 'state');
    const tsbatch = [process.execPath, path.join(repoRoot, 'bin', 'tsbatch.js'), '--cluster', small, '--hold', '--wrap', 'true'];
    const submitted = await execa('sh', ['-c', 'umask 000; exec "$@"', 'sh', ...tsbatch], {
      env: { ...process.env, TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '1', NO_COLOR: '1' },
      cwd: root,
      reject: false,
    });
    expect(submitted.stdout).toMatch(/^Submitted batch job \d+$/);
    const modes: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        const info = statSync(file);
        if (info.isSocket()) continue;
        modes.push(`${path.relative(stateDir, file)} ${(info.mode & 0o777).toString(8)}`);
        if (info.isDirectory()) walk(file);
      }
    };
    walk(stateDir);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(modes.filter((line) => !/ (600|700)$/.test(line))).toEqual([]);
    expect(modes.map((line) => line.split(' ')[0])).toEqual(expect.arrayContaining(['next_job_id', 'tsctld.log', 'ctld', 'ctld/journal', 'ctld/job_state']));
    await runBin('tscancel', ['--cluster', small, '-u', String(process.getuid?.() ?? 0)], { env: { TSLURM_STATE_DIR: stateDir } });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
