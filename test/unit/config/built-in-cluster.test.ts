// The bundles' built-in cluster is precomputed at build time (scripts/built-in-cluster.js): it
// must be what src/config/defaults.ts builds through the shapes and rules, key for key and in
// the same order (some output lists keys as they come), with the host's proctrack choice.
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import path from 'node:path';
import { generatedDefaults } from '../../../scripts/built-in-cluster.js';
import { defaultCluster } from '../../../src/config/defaults.js';
import { repoRoot } from '../../helpers/run-bin.js';

describe('the precomputed built-in cluster', () => {
  it('is the cluster defaults.ts builds', async () => {
    const bundled = await build({
      stdin: { contents: await generatedDefaults(repoRoot), resolveDir: path.join(repoRoot, 'src', 'config'), loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'warning',
    });
    const generated = (await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0]!.text).toString('base64')}`)) as {
      defaultCluster: typeof defaultCluster;
    };
    const fast = generated.defaultCluster();
    expect(JSON.stringify(fast)).toBe(JSON.stringify(defaultCluster()));
    expect(fast).toEqual(defaultCluster());
    expect(Object.isFrozen(fast.plugins)).toBe(true);
  });
});
