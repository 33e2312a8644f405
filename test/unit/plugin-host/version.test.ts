import { describe, expect, it } from 'vitest';
import { checkPluginVersion, formatToolkitVersion } from '../../../src/plugin-host/version.js';
import { SLURM_VERSION_NUMBER } from '../../../src/plugin-api/common.js';
import { pluginTypes } from '../../../src/plugin-host/types-table.js';

const info = { ...pluginTypes.mpi, api: { oldest: 1, current: 3 } };

describe('plugin_version, older API-number scheme', () => {
  it('speaks the highest API version common to host and plugin', () => {
    // Plugin speaks API 2..5 (legacy 2000), host 1..3: API 3.
    expect(checkPluginVersion(5007, 2000, info)).toEqual({ ok: true, scheme: 'api', apiVersion: 3, revision: 7, display: 'API 5.7' });
  });

  it('takes plugin_version rounded down to the thousand when plugin_legacy is absent', () => {
    expect(checkPluginVersion(2035, undefined, info)).toMatchObject({ ok: true, apiVersion: 2, revision: 35 });
    expect(checkPluginVersion(4001, undefined, info)).toEqual({ ok: false, reason: 'plugin speaks API 4, tslurm speaks API 1-3' });
  });

  it('refuses a plugin whose newest API is older than the host\'s oldest', () => {
    expect(checkPluginVersion(12, undefined, info)).toEqual({ ok: false, reason: 'plugin speaks API 0, tslurm speaks API 1-3' });
  });

  it('refuses a plugin_legacy above plugin_version, and values that are not uint32', () => {
    expect(checkPluginVersion(2000, 3000, info)).toMatchObject({ ok: false });
    expect(checkPluginVersion('2000', undefined, info)).toEqual({ ok: false, reason: 'plugin_version must be an unsigned 32-bit integer, got "2000"' });
    expect(checkPluginVersion(-1, undefined, info)).toMatchObject({ ok: false });
  });
});

describe('plugin_version, toolkit scheme', () => {
  it('must match the running toolkit in major.minor; micro is free', () => {
    // The toolkit in these tests is package.json's version (0.1.x): 0.1.x is below 65536, so a
    // toolkit-scheme value is built with a major of 1 to test the comparison itself.
    const theirs = SLURM_VERSION_NUMBER(1, 2, 3);
    expect(formatToolkitVersion(theirs)).toBe('1.2.3');
    expect(checkPluginVersion(theirs, undefined, info)).toMatchObject({ ok: false, reason: expect.stringMatching(/^plugin built for tslurm 1\.2\.3, this is tslurm \d+\.\d+\.\d+$/) });
  });

  it('loads a plugin without plugin_version anywhere', () => {
    expect(checkPluginVersion(undefined, undefined, info)).toMatchObject({ ok: true, scheme: 'none' });
  });
});
