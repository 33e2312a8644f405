// select/cray_aries through the real controller on the 4x2x2 fixture torus: linear's
// placement, the dimensions from node-name coordinates, and a torus the names do not fit.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const cray = fixture('clusters', 'cray-aries.yaml');

describe('select/cray_aries', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('places whole nodes as select/linear does and logs the machine\'s dimensions at start', async () => {
    const result = await ctl.run('tsbatch', ['--cluster', cray, '--parsable', '--wait', '-N3', '--wrap', 'echo $SLURM_JOB_NODELIST $SLURM_JOB_CPUS_PER_NODE']);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(ctl.read(`slurm-${result.stdout.trim()}.out`)).toBe('nid[000-001,010] 4(x3)\n');
    expect(readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8')).toContain('tsctld: select/cray_aries: system dimensions 4x2x2\n');
  });

  it('refuses to start when a node\'s coordinates are outside the torus of the cluster file', async () => {
    const bad = testController();
    const file = path.join(bad.workDir, 'cray-small.yaml');
    writeFileSync(file, readFileSync(cray, 'utf8').replace('dims: [4, 2, 2]', 'dims: [2, 2, 2]'));
    const result = await bad.run('tsbatch', ['--cluster', file, '--wrap', 'true']);
    expect(result.exitCode).toBe(1);
    expect(readFileSync(path.join(bad.stateDir, 'tsctld.log'), 'utf8')).toContain(
      "tsctld: error: select/cray_aries: select_p_ba_init: crashed: node nid200 coordinates 2,0,0 are outside the system's dimensions 2x2x2\n",
    );
  });
});
