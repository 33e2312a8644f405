// Every child process of src/ starts through src/os/spawn.ts (issue 20: spawning through one
// module), which holds the house rules: a start failure or a broken pipe is an outcome, never an
// unhandled 'error'; a daemon of its own is detached and unreferenced. Only that file imports
// node:child_process, in any form (import, import type, export-from, dynamic import()).
// Built-in plugins start programs through the plugin API's run_command and startProgram, which
// are that module's, as a third-party plugin would.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../helpers/import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../../src');
const PLUGINS = path.resolve(import.meta.dirname, '../../../plugins');
const SPAWN_MODULE = 'os/spawn.ts';

// Files not moved yet, each with why (none left): an entry is removed once its file spawns through os/spawn.ts.
const NOT_YET: Record<string, string> = {};

const spawnsDirectly = (text: string): boolean =>
  ts.preProcessFile(text, true, true).importedFiles.some((ref) => ref.fileName === 'node:child_process' || ref.fileName === 'child_process');

describe('spawning', () => {
  it('only src/os/spawn.ts imports node:child_process', () => {
    const sources = readSources(SRC);
    expect(spawnsDirectly(readFileSync(path.join(SRC, SPAWN_MODULE), 'utf8'))).toBe(true);
    const direct = [...sources].filter(([file, text]) => file !== SPAWN_MODULE && spawnsDirectly(text)).map(([file]) => file);
    expect(direct.filter((file) => !(file in NOT_YET))).toEqual([]);
    // An entry whose file no longer spawns directly is stale.
    expect(Object.keys(NOT_YET).filter((file) => sources.has(file) && !direct.includes(file))).toEqual([]);
  });

  it('no built-in plugin imports node:child_process', () => {
    const sources = readSources(PLUGINS);
    expect(sources.size).toBeGreaterThan(40);
    expect([...sources].filter(([, text]) => spawnsDirectly(text)).map(([file]) => file)).toEqual([]);
  });

  it('sees every form of the import', () => {
    const forms = [
      "import { spawn } from 'node:child_process';",
      "import type { ChildProcess } from 'child_process';",
      "export { spawn } from 'node:child_process';",
      "const cp = await import('node:child_process');",
    ];
    expect(forms.map(spawnsDirectly)).toEqual([true, true, true, true]);
    expect(spawnsDirectly("import { startChild } from '../os/spawn.js';")).toBe(false);
  });
});
