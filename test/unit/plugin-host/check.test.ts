import { describe, expect, it } from 'vitest';
import { checkPluginModule } from '../../../src/plugin-host/check.js';
import { pluginTypes } from '../../../src/plugin-host/types-table.js';
import { normalizePluginRequest, pluginFileBase } from '../../../src/plugin-host/plugin-name.js';

const hooks = {
  p_mpi_hook_client_prelaunch: () => ({}),
  p_mpi_hook_slurmstepd_prefork: () => 0,
  p_mpi_hook_slurmstepd_task: () => undefined,
  p_mpi_hook_client_fini: () => 0,
};

describe('checkPluginModule', () => {
  it('accepts a complete plugin and resolves its functions', () => {
    const r = checkPluginModule({ plugin_type: 'mpi/x', plugin_name: 'x', ...hooks }, 'mpi/x', pluginTypes.mpi);
    expect(r.ok && [...r.functions.keys()].sort()).toEqual(Object.keys(hooks).sort());
  });

  it('accepts newer Slurm\'s mpi_p_* names as aliases', () => {
    const r = checkPluginModule(
      {
        plugin_type: 'mpi/x',
        plugin_name: 'x',
        mpi_p_client_prelaunch: hooks.p_mpi_hook_client_prelaunch,
        mpi_p_slurmstepd_prefork: hooks.p_mpi_hook_slurmstepd_prefork,
        mpi_p_slurmstepd_task: hooks.p_mpi_hook_slurmstepd_task,
        mpi_p_client_fini: hooks.p_mpi_hook_client_fini,
      },
      'mpi/x',
      pluginTypes.mpi,
    );
    expect(r.ok).toBe(true);
  });

  it('names the missing header symbols', () => {
    expect(checkPluginModule({ ...hooks }, 'mpi/x', pluginTypes.mpi)).toMatchObject({
      ok: false,
      code: 'ESLURM_PLUGIN_MISSING_NAME',
      reason: 'missing plugin_type and plugin_name',
    });
  });

  it('lists every missing or non-function symbol in one reason', () => {
    const r = checkPluginModule(
      { plugin_type: 'mpi/x', plugin_name: 'x', p_mpi_hook_client_prelaunch: 'no', init: 3 },
      'mpi/x',
      pluginTypes.mpi,
    );
    expect(r).toEqual({
      ok: false,
      code: 'ESLURM_PLUGIN_INCOMPLETE',
      type: 'mpi/x',
      reason: 'p_mpi_hook_client_prelaunch (not a function), p_mpi_hook_slurmstepd_prefork, p_mpi_hook_slurmstepd_task, p_mpi_hook_client_fini, init (not a function)',
    });
  });

  it('refuses a module declaring another type', () => {
    expect(checkPluginModule({ plugin_type: 'select/x', plugin_name: 'x', ...hooks }, 'mpi/x', pluginTypes.mpi)).toMatchObject({
      ok: false,
      code: 'ESLURM_PLUGIN_INVALID',
    });
  });
});

describe('plugin requests', () => {
  it('normalises short and full names and refuses a foreign major', () => {
    expect(normalizePluginRequest('select', 'linear')).toEqual({ major: 'select', minor: 'linear', type: 'select/linear' });
    expect(normalizePluginRequest('select', 'select/cons_tres').type).toBe('select/cons_tres');
    expect(() => normalizePluginRequest('select', 'mpi/pmi2')).toThrow('plugin "mpi/pmi2" is not a select plugin');
    expect(() => normalizePluginRequest('mpi', 'a b')).toThrow('invalid plugin name "a b"');
    expect(pluginFileBase('job_container/tmpfs')).toBe('job_container_tmpfs');
  });
});
