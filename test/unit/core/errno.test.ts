import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { errnoNames, errnoValue, errnoName, slurm_strerror } from '../../../src/core/errno.js';

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (full.endsWith('.ts')) yield full;
  }
}

describe('errno table', () => {
  it('gives every code a message and a unique number', () => {
    const seen = new Set<number>();
    for (const name of errnoNames) {
      expect(slurm_strerror(name).length).toBeGreaterThan(0);
      expect(seen.has(errnoValue(name))).toBe(false);
      seen.add(errnoValue(name));
    }
  });

  it("keeps Slurm's numbers and texts", () => {
    expect(errnoValue('ESLURM_INVALID_JOB_ID')).toBe(2017);
    expect(slurm_strerror(2017)).toBe('Invalid job id specified');
    expect(slurm_strerror('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE')).toBe(
      'Requested node configuration is not available',
    );
    expect(errnoName(8010)).toBe('ESLURM_PLUGIN_BAD_VERSION');
    expect(slurm_strerror(-7)).toBe('Unknown negative error number');
  });

  it('falls back to the system text for system errnos', () => {
    expect(slurm_strerror(2)).toBe('No such file or directory');
  });

  it('knows every ESLURM/SLURM code that src/ and plugins/ name', () => {
    const known = new Set<string>(errnoNames);
    const used = new Set<string>();
    for (const dir of ['src', 'plugins']) {
      for (const file of sourceFiles(dir)) {
        // Codes reach the table through these calls; SLURM_* strings elsewhere are env variable names.
        const uses = /(?:code:\s*|fromErrno\(|errnoValue\(|slurm_strerror\()'([A-Z][A-Z0-9_]+)'/g;
        for (const m of readFileSync(file, 'utf8').matchAll(uses)) {
          used.add(m[1]!);
        }
      }
    }
    expect(used.size).toBeGreaterThan(10); // the scan itself must find the codes in use
    expect([...used].filter((name) => !known.has(name))).toEqual([]);
  });
});
