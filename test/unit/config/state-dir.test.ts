// State directory: TSLURM_STATE_DIR > control.state_dir > $XDG_STATE_HOME/tslurm/<cluster>.
import { describe, expect, it } from 'vitest';
import { parseClusterYaml } from '../../../src/config/parse.js';
import { defaultCluster } from '../../../src/config/defaults.js';
import { resolveStateDir } from '../../../src/config/state-dir.js';

const withStateDir = parseClusterYaml(
  'cluster: demo\ncontrol: {state_dir: ../spool}\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: n1}]\n',
  'conf/demo.yaml',
  { cwd: '/etc/tslurm' },
);

describe('resolveStateDir', () => {
  it('TSLURM_STATE_DIR wins', () => {
    expect(resolveStateDir(withStateDir, { TSLURM_STATE_DIR: '/tmp/s', XDG_STATE_HOME: '/x' })).toBe('/tmp/s');
  });

  it('then control.state_dir, resolved against the YAML file directory', () => {
    expect(withStateDir.control.stateDir).toBe('/etc/tslurm/spool');
    expect(resolveStateDir(withStateDir, { XDG_STATE_HOME: '/x', HOME: '/home/u' })).toBe('/etc/tslurm/spool');
  });

  it('then $XDG_STATE_HOME/tslurm/<cluster>', () => {
    expect(resolveStateDir(defaultCluster(), { XDG_STATE_HOME: '/x', HOME: '/home/u' })).toBe('/x/tslurm/tslurm');
  });

  it('then ~/.local/state/tslurm/<cluster>; a relative XDG_STATE_HOME is ignored', () => {
    expect(resolveStateDir(defaultCluster(), { HOME: '/home/u' })).toBe('/home/u/.local/state/tslurm/tslurm');
    expect(resolveStateDir(defaultCluster(), { HOME: '/home/u', XDG_STATE_HOME: 'rel' })).toBe('/home/u/.local/state/tslurm/tslurm');
  });

  it('empty variables count as unset', () => {
    expect(resolveStateDir(defaultCluster(), { TSLURM_STATE_DIR: '', XDG_STATE_HOME: '', HOME: '/h' })).toBe('/h/.local/state/tslurm/tslurm');
  });
});
