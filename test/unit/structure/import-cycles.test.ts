// src/ and plugins/ have no import cycles (issue 20: a knot makes every change harder): each part can be read,
// tested and replaced knowing only what it imports. A type-only import counts too, since it
// ties the reader's understanding the same way.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph, readSources } from '../../helpers/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the import graph', () => {
  it('of src/ has no cycles', () => {
    const graph = importGraph(readSources(path.join(ROOT, 'src')));
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph)).toEqual([]);
  });

  it('of plugins/ has no cycles', () => {
    const graph = importGraph(readSources(path.join(ROOT, 'plugins')));
    expect(graph.size).toBeGreaterThan(40);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds the cycles a knot makes: type-only, re-exports, dynamic import() and directory indexes', () => {
    const sources = new Map([
      ['a.ts', "import type { B } from './b.js';"],
      ['b.ts', "export { c } from './sub/c.js';"],
      ['sub/c.ts', "const a = await import('../a.js');"],
      ['sub/index.ts', "import { d } from './d.js';"],
      ['sub/d.ts', "import { x } from '../sub';"],
      ['leaf.ts', "import { a } from './a.js'; import fs from 'node:fs';"],
      ['self.ts', "import { me } from './self.js';"],
    ]);
    expect(importCycles(importGraph(sources))).toEqual([['a.ts', 'b.ts', 'sub/c.ts'], ['sub/d.ts', 'sub/index.ts'], ['self.ts']]);
  });
});
