// Cluster files through the real bins: every bad fixture gives its own lines naming file,
// line and column, a non-zero exit and no stack; good fixtures load.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fixture, runBin } from '../helpers/run-bin.js';

const expected = JSON.parse(readFileSync(fixture('clusters', 'bad', 'expected.json'), 'utf8')) as Record<string, string[]>;

describe('bad cluster files', () => {
  it.each(Object.entries(expected))('%s', async (file, lines) => {
    const r = await runBin('tscontrol', ['show', 'plugins', '--cluster', `bad/${file}`], { cwd: fixture('clusters') });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(lines.map((line) => `tscontrol: error: ${line}\n`).join(''));
  });

  it('are found through TSLURM_CONF too', async () => {
    const r = await runBin('tsrun', ['-n1', 'true'], { cwd: fixture('clusters'), env: { TSLURM_CONF: 'bad/two-defaults.yaml' } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(expected['two-defaults.yaml']!.map((line) => `tsrun: error: ${line}\n`).join(''));
  });

  it('a missing file is named with the reason', async () => {
    const r = await runBin('tsrun', ['--cluster', 'nope.yaml', '-n1', 'true']);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: nope.yaml: cannot read cluster file: No such file or directory\n' });
  });
});

describe('good cluster files', () => {
  it.each(['one-node.yaml', 'small.yaml', 'gpu.yaml', 'large.yaml'])('%s runs a job', async (file) => {
    const r = await runBin('tsrun', ['--cluster', fixture('clusters', file), '-n1', 'sh', '-c', 'echo $SLURM_CLUSTER_NAME']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^[a-z0-9-]+\n$/);
  });
});
