import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { candidateFiles, listModules, pluginSearchPath } from '../../../src/plugin-host/search-path.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-sp-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('plugin search path', () => {
  it('is built-in first, then plugin_dirs, then TSLURM_PLUGIN_DIR, without repeats', () => {
    const dirs = pluginSearchPath({ builtinDir: '/b', pluginDirs: ['/c1', '/e1'], env: { TSLURM_PLUGIN_DIR: '/e1:/e2::' } });
    expect(dirs).toEqual([
      { dir: '/b', builtin: true },
      { dir: '/c1', builtin: false },
      { dir: '/e1', builtin: false },
      { dir: '/e2', builtin: false },
    ]);
  });

  it('lists .js, .mjs and directory modules, and ignores a missing directory', () => {
    const dir = dirWith({ 'mpi_a.js': '', 'mpi_b.mjs': '', 'mpi_c/index.js': '', 'notes.txt': '' });
    expect(listModules(dir).map((m) => m.base)).toEqual(['mpi_a', 'mpi_b', 'mpi_c']);
    expect(listModules(path.join(dir, 'nope'))).toEqual([]);
  });

  it('finds modules by name (and @revision), else offers every module of the major to scan', () => {
    const one = dirWith({ 'mpi_x.js': '', 'mpi_x@2.js': '', 'mpi_other.js': '', 'select_x.js': '' });
    const two = dirWith({ 'mpi_x.js': '' });
    const dirs = [{ dir: one, builtin: true }, { dir: two, builtin: false }];
    const { byName, scan } = candidateFiles(dirs, 'mpi_x', 'mpi');
    expect(byName.map((c) => path.relative(path.dirname(one), c.file))).toEqual([
      `${path.basename(one)}/mpi_x.js`,
      `${path.basename(one)}/mpi_x@2.js`,
      `${path.basename(two)}/mpi_x.js`,
    ]);
    expect(scan.map((c) => path.basename(c.file))).toEqual(['mpi_other.js']);
  });
});
