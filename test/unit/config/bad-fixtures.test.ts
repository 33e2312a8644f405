// Every fixtures/clusters/bad/*.yaml fails with exactly the lines in expected.json, all at
// once, each `file:line:col: path: what` with the file as the user gave it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCluster } from '../../../src/config/load.js';
import { CLUSTERS, problems } from './helpers.js';

const BAD = join(CLUSTERS, 'bad');
const expected = JSON.parse(readFileSync(join(BAD, 'expected.json'), 'utf8')) as Record<string, string[]>;

describe('bad cluster fixtures', () => {
  it('every bad fixture has expected lines, and every entry a fixture', () => {
    const files = readdirSync(BAD).filter((f) => f.endsWith('.yaml')).sort();
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it.each(Object.entries(expected))('%s', async (file, lines) => {
    expect(await problems(() => loadCluster({ file: `bad/${file}`, cwd: CLUSTERS, env: {} }))).toEqual(lines);
  });
});
