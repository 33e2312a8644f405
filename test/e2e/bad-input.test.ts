// Input that used to end in `internal error` or a silent acceptance: huge format widths, numbers
// out of range and deep nesting in the cluster file. Each now gets one line and exit 1.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBin } from '../helpers/run-bin.js';

const tooWide = (what: string) => `Invalid format: ${what} (a line may be at most 65536 characters wide)`;

describe('format widths (squeue and sinfo 22.05 crash with SIGSEGV on these)', () => {
  it.each([
    ['tsinfo', ['-o', '%.999999999P'], tooWide('field width 999999999 is too large')],
    ['tsinfo', ['-O', 'Partition:999999999'], tooWide('field width 999999999 is too large')],
    ['tsqueue', ['-O', 'JobID:999999999'], tooWide('field width 999999999 is too large')],
    ['tsqueue', ['-o', '%.40000i%.40000j'], tooWide('field widths are too large')],
  ])('%s %j: one line, exit 1', async (bin, args, message) => {
    const r = await runBin(bin, args);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: `${bin}: error: ${message}\n` });
  });

  it('a wide but bounded width still prints', async () => {
    const r = await runBin('tsinfo', ['-h', '-o', '%.5000P|']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${'debug*'.padStart(5000)}|\n`);
  });
});

describe('cluster files with numbers out of range or nested too deeply', () => {
  function clusterFile(text: string): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-bad-')), 'c.yaml');
    writeFileSync(file, text);
    return file;
  }

  it.each([
    ['memory: 1e99', 'c.yaml:4:13: nodes.0.memory: memory size 1e+99 is out of range (at most 9007199254740991 MB)'],
    ['cpus: 100000000', 'c.yaml:4:11: nodes.0.cpus: 100000000 is out of range (at most 65535)'],
  ])('%s: one line naming file, line and column', async (field, message) => {
    const file = clusterFile(`cluster: c\nnodes:\n  - name: n1\n    ${field}\npartitions:\n  - name: p\n    nodes: n1\n`);
    const r = await runBin('tsrun', ['--cluster', 'c.yaml', 'true'], { cwd: path.dirname(file) });
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: `tsrun: error: ${message}\n` });
  });

  it('a collection as a key: one line, no Node warning beside it', async () => {
    const file = clusterFile('cluster: c\n? [a]\n: b\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: ALL}]\n');
    const r = await runBin('tsinfo', ['--cluster', 'c.yaml'], { cwd: path.dirname(file) });
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'tsinfo: error: c.yaml:1:1: [ a ]: unknown key\n' });
  });

  it('100,000 levels of nesting: one line naming the file, no stack overflow', async () => {
    const file = clusterFile(`cluster: c\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    const r = await runBin('tsinfo', ['--cluster', 'c.yaml'], { cwd: path.dirname(file) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^tsinfo: error: c\.yaml:2:\d+: collections nested too deeply\n$/);
  });
});

describe('found by the fuzz test (test/e2e/fuzz-cli.test.ts)', () => {
  it('tscontrol ping with a word after it: scontrol\'s line, exit 1', async () => {
    const r = await runBin('tscontrol', ['ping', 'extra']);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'too many arguments for keyword:ping\n' });
  });

  it('tscontrol resume/suspend with ids that are not numbers: scontrol\'s line for each, without asking', async () => {
    const r = await runBin('tscontrol', ['resume', 'abc', '1.0']);
    expect(r).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'Invalid job id specified for job abc\nInvalid job id specified for job 1.0\n',
    });
  });

  it('tsqueue -O with an unknown field and an unknown job: only the job\'s error, as squeue', async () => {
    const r = await runBin('tsqueue', ['-O', 'nosuch', '-j', '999']);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified\n' });
  });
});
