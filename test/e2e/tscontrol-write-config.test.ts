// `tscontrol write config`: scontrol's form (FILE.<time>, "Slurm config saved to ..."), `-` for
// stdout, and the way back: the written slurm.conf, loaded with SLURM_CONF, shows the same
// nodes and partitions as the YAML cluster it came from.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runBin } from '../helpers/run-bin.js';

const SAVED = /^Slurm config saved to (.+\.\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\n/;

describe('tscontrol write config', () => {
  it('writes slurm.conf.<time> beside the slurm.conf in use, as scontrol does', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-write-'));
    copyFileSync(fixture('slurm-conf', 'real-slurm', 'slurm-multi.conf'), path.join(dir, 'slurm.conf'));
    const result = await runBin('slurm-name', ['scontrol', 'write', 'config'], { env: { SLURM_CONF: path.join(dir, 'slurm.conf') } });
    expect(result.stderr).toBe('');
    const saved = SAVED.exec(result.stdout)?.[1];
    expect(path.dirname(saved ?? '')).toBe(dir);
    expect(path.basename(saved ?? '')).toMatch(/^slurm\.conf\.2\d{3}-/);
    expect(readFileSync(saved!, 'utf8')).toContain('\nNodeName=node[1-3] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[17001-17003] CPUs=4 ');
  });

  it('`-` prints it; a YAML cluster written and read back shows the same nodes and partitions', async () => {
    const yaml = fixture('clusters', 'gpu.yaml');
    const printed = await runBin('tscontrol', ['--cluster', yaml, 'write', 'config', '-']);
    expect(printed.stderr).toBe('');
    expect(printed.stdout).toMatch(/^#+\n# {2}Configuration file for Slurm - \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d {2}#\n/);
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-write-'));
    const written = await runBin('tscontrol', ['--cluster', yaml, 'write', 'config', path.join(dir, 'slurm.conf')]);
    const saved = SAVED.exec(written.stdout)![1]!;
    renameSync(saved, path.join(dir, 'slurm.conf'));
    for (const args of [['show', 'node'], ['show', 'partition']]) {
      const fromYaml = await runBin('tscontrol', ['--cluster', yaml, ...args]);
      const fromConf = await runBin('tscontrol', args, { env: { SLURM_CONF: path.join(dir, 'slurm.conf') } });
      expect(fromConf.stdout).toBe(fromYaml.stdout);
    }
    const sinfo = (env: Record<string, string>, args: string[]) => runBin('tsinfo', ['-N', '-l', ...args], { env });
    const dropDate = (text: string) => text.split('\n').slice(1).join('\n');
    expect(dropDate((await sinfo({ SLURM_CONF: path.join(dir, 'slurm.conf') }, [])).stdout)).toBe(dropDate((await sinfo({}, ['--cluster', yaml])).stdout));
  });

  it('a job_container/tmpfs cluster gets its job_container.conf too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-write-'));
    const result = await runBin('tscontrol', ['--cluster', fixture('clusters', 'job-container-tmpfs.yaml'), 'write', 'config', path.join(dir, 'slurm.conf')]);
    const [, jc] = /\njob_container\.conf saved to (.+)\n$/.exec(result.stdout) ?? [];
    expect(jc !== undefined && existsSync(jc)).toBe(true);
    expect(readFileSync(jc!, 'utf8')).toContain('\nAutoBasePath=true\nBasePath=/var/tmp/tslurm-jc\n');
  });

  it('refuses what scontrol refuses', async () => {
    // scontrol 22.05 prints these three bare (observed, /work/ref/scontrol.txt).
    expect(await runBin('tscontrol', ['write', 'nodes'])).toMatchObject({ exitCode: 1, stderr: 'invalid write argument:nodes\n' });
    expect(await runBin('tscontrol', ['write'])).toMatchObject({ exitCode: 1, stderr: 'too few arguments for keyword:write\n' });
    expect(await runBin('tscontrol', ['write', 'config', 'a', 'b'])).toMatchObject({ exitCode: 1, stderr: 'too many arguments for keyword:write\n' });
  });
});
