// The reference Slurm's own slurm.conf files (fixtures/slurm-conf/real-slurm/, copied from the
// real cluster's setup) describe the same cluster under tslurm as under Slurm 22.05: the
// expected/ files are what the real `scontrol show node`, `sinfo -N -l` and `scontrol show
// partition` printed for each (/work/ref/conf-*.txt), with the values that come from the live
// host (load, free memory, boot times, version, Arch, OS) masked on both sides. `scontrol show
// config` is compared key by key; the keys where tslurm differs on purpose are listed.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { fixture, runBin } from '../helpers/run-bin.js';

const CONFS = ['slurm', 'slurm-multi', 'slurm-linear', 'slurm-tmpfs'];

function masked(text: string): string {
  let out = text.replace(/ Arch=\S+/g, '').replace(/^ {3}OS=.*\n/gm, '');
  for (const key of ['CPULoad', 'FreeMem', 'Version', 'BootTime', 'SlurmdStartTime', 'LastBusyTime']) {
    out = out.replace(new RegExp(`${key}=\\S+`, 'g'), `${key}=*`);
  }
  return out.replace(/^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\n/, '<date>\n');
}

const expected = (conf: string, what: string) => readFileSync(fixture('slurm-conf', 'expected', `${conf}.${what}.txt`), 'utf8');

describe.each(CONFS)('SLURM_CONF=%s.conf describes the cluster Slurm describes', (conf) => {
  const env = { SLURM_CONF: fixture('slurm-conf', 'real-slurm', `${conf}.conf`) };

  it('scontrol show node', async () => {
    const result = await runBin('tscontrol', ['show', 'node'], { env });
    expect(result.stderr).toBe('');
    expect(masked(result.stdout)).toBe(expected(conf, 'show-node'));
  });

  it('sinfo -N -l', async () => {
    const result = await runBin('tsinfo', ['-N', '-l'], { env });
    expect(result.stderr).toBe('');
    expect(masked(result.stdout)).toBe(expected(conf, 'sinfo-N-l'));
  });

  it('scontrol show partition', async () => {
    const result = await runBin('tscontrol', ['show', 'partition'], { env });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(expected(conf, 'show-partition'));
  });
});

// Keys whose value differs from the real cluster's on purpose (README: slurm.conf support):
// tslurm's own state directory, plugin path, version and job counter; the live boot time; the
// settings tslurm applies whatever the file says (auth between processes of one user, limits
// checked at submission, memory always a consumable resource).
const OWN_VALUES = new Set(['AuthType', 'BOOT_TIME', 'EnforcePartLimits', 'NEXT_JOB_ID', 'PluginDir', 'SelectTypeParameters', 'SLURM_CONF', 'SLURM_VERSION', 'StateSaveLocation']);

function keyLines(text: string): Map<string, string> {
  const lines = text.split('\n').filter((line) => line.includes(' = '));
  return new Map(lines.map((line) => [line.slice(0, line.indexOf(' =')).trim(), line]));
}

describe.each(CONFS)('SLURM_CONF=%s.conf: scontrol show config', (conf) => {
  it("prints every key Slurm prints, in Slurm's order and layout, with Slurm's values", async () => {
    const file = fixture('slurm-conf', 'real-slurm', `${conf}.conf`);
    const result = await runBin('tscontrol', ['show', 'config'], { env: { SLURM_CONF: file } });
    expect(result.stderr).toBe('');
    const real = expected(conf, 'show-config');
    expect(result.stdout.split('\n')[0]).toMatch(/^Configuration data as of \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const ours = keyLines(result.stdout);
    const theirs = keyLines(real);
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    for (const [key, line] of theirs) {
      if (OWN_VALUES.has(key)) continue;
      // The reference host is called vm; slurmctld prints its own host for `localhost`.
      expect(ours.get(key)).toBe(key === 'SlurmctldHost[0]' ? line.replace('vm(', `${hostname()}(`) : line);
    }
    expect(ours.get('SLURM_CONF')).toBe(`SLURM_CONF              = ${file}`);
  });
});
