// The built-in plugins are written against the public plugin API only, so they prove it is
// enough for a third party: every import in plugins/ (import, export-from, import type and
// dynamic import()) is a node: builtin, a file of plugins/ itself, or the public entry
// src/plugin-api/index.ts (`tslurm/plugin-api` once built). The example plugins in
// fixtures/plugins/ import the published name itself.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const pluginsDir = path.join(root, 'plugins');
const publicEntry = path.join(root, 'src/plugin-api/index.ts');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.join(dir, file));
}

function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
}

// What a built-in plugin may import, or why not.
function builtinProblem(file: string, spec: string): string | undefined {
  if (spec.startsWith('node:')) return undefined;
  if (!spec.startsWith('.')) return 'a package (plugins get packages through the plugin API)';
  const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
  if (target === publicEntry) return undefined;
  if (target.startsWith(pluginsDir + path.sep)) return undefined;
  return 'outside plugins/ and not the public entry src/plugin-api/index.ts';
}

describe('plugin imports', () => {
  it('built-in plugins import only the plugin API, node: modules and plugins/ files', () => {
    const files = filesUnder(pluginsDir, /\.ts$/);
    expect(files.length).toBeGreaterThan(40);
    const problems = files.flatMap((file) =>
      specifiers(file).flatMap((spec) => {
        const why = builtinProblem(file, spec);
        return why === undefined ? [] : [`${path.relative(root, file)}: '${spec}': ${why}`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('the example plugins import only tslurm/plugin-api and node: modules', () => {
    const files = filesUnder(path.join(root, 'fixtures/plugins/examples'), /\.(js|mjs)$/);
    expect(files.length).toBeGreaterThanOrEqual(6);
    const problems = files.flatMap((file) =>
      specifiers(file)
        .filter((spec) => spec !== 'tslurm/plugin-api' && !spec.startsWith('node:'))
        .map((spec) => `${path.relative(root, file)}: '${spec}'`),
    );
    expect(problems).toEqual([]);
  });

  it('catches each kind of import a plugin could reach past the API with', () => {
    const file = path.join(pluginsDir, 'select_x.ts');
    const text = [
      "import { Bitstr } from '../src/core/bitstr.js';",
      "import type { Buf } from '../src/core/buf.js';",
      "export { featureOptions } from '../src/ctld/feature-expr.js';",
      "const m = await import('../src/core/hostlist.js');",
      "import { SLURM_SUCCESS } from '../src/plugin-api/common.js';",
      "import { Bitstr as B } from '../src/plugin-api/index.js';",
      "import { x } from './lib/bits.js';",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    const found = ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
    expect(found.map((spec) => builtinProblem(file, spec) === undefined)).toEqual([false, false, false, false, false, true, true, true]);
  });
});
