// The reference Slurm's own slurm.conf files (fixtures/slurm-conf/real-slurm/, copied from the
// real cluster's setup) describe the same cluster under tslurm as under Slurm 22.05: the
// expected/ files are what the real `scontrol show node`, `sinfo -N -l` and `scontrol show
// partition` printed for each (/work/ref/conf-*.txt), with the values that come from the live
// host (load, free memory, boot times, version, Arch, OS) masked on both sides.
import { readFileSync } from 'node:fs';
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
