// Which part of src/ may import which (issue 20): the commands sit on top; the controller, the
// step host and the libraries below never import a command or the CLI plumbing; the messages
// and answers both sides exchange live in src/protocol, which imports no daemon and no command,
// so a command learns the shape of an answer there and not from the controller's own files.
// (A command may still import the controller's code itself: an embedded tsrun runs it.)
// The core is Slurm's data formats without I/O: what reads or changes the host is in src/os.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importGraph, readSources } from '../../helpers/import-graph.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');
const top = (file: string): string => file.split('/')[0]!;

const BELOW_COMMANDS = ['ctld', 'stepd', 'protocol', 'core', 'os', 'net', 'interfaces', 'plugin-host', 'plugin-api', 'config', 'client'];
const PROTOCOL_MAY_IMPORT = ['protocol', 'core', 'config', 'plugin-api', 'interfaces'];
const CLIENT_SIDE = ['commands', 'cli', 'client'];
const IO_MODULES = ['fs', 'fs/promises', 'child_process', 'net', 'dgram', 'http', 'https', 'tls'].flatMap((m) => [m, `node:${m}`]);

// Core files that still do I/O, each with why: remove an entry once its file has moved to src/os.
const CORE_IO_NOT_YET: Record<string, string> = {};

/** Core files that import a module doing I/O. */
function coreIo(sources: ReadonlyMap<string, string>): string[] {
  return [...sources].filter(([file, text]) => top(file) === 'core' && ts.preProcessFile(text, true, true).importedFiles.some((ref) => IO_MODULES.includes(ref.fileName))).map(([file]) => file);
}

/** Files of `from` importing files of a part outside `allowed`, as `file -> target`. */
function crossings(graph: Map<string, string[]>, from: (file: string) => boolean, allowed: (target: string) => boolean): string[] {
  return [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter((t) => !allowed(t)).map((t) => `${file} -> ${t}`) : []));
}

/** The specifiers `text` imports from with nothing but types (`import type`, or every name `type`). */
function typeOnlySpecifiers(text: string): { typeOnly: string[]; values: string[] } {
  const typeOnly: string[] = [];
  const values: string[] = [];
  for (const statement of ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    const named = clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
    const onlyTypes = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
    (onlyTypes ? typeOnly : values).push(statement.moduleSpecifier.text);
  }
  return { typeOnly, values };
}

/** Client-side files whose every import from src/ctld is type-only: a shape that belongs in src/protocol. */
function typesFromController(sources: ReadonlyMap<string, string>): string[] {
  const intoCtld = (file: string, spec: string): boolean => spec.startsWith('.') && top(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec))) === 'ctld';
  return [...sources].flatMap(([file, text]) => {
    if (!CLIENT_SIDE.includes(top(file))) return [];
    const { typeOnly, values } = typeOnlySpecifiers(text);
    const types = typeOnly.filter((spec) => intoCtld(file, spec));
    return types.length > 0 && !values.some((spec) => intoCtld(file, spec)) ? types.map((spec) => `${file} -> ${spec}`) : [];
  });
}

describe('the layers of src/', () => {
  const sources = readSources(SRC);
  const graph = importGraph(sources);

  it('nothing below the commands imports a command or the CLI plumbing', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(crossings(graph, (f) => BELOW_COMMANDS.includes(top(f)), (t) => !['commands', 'cli'].includes(top(t)))).toEqual([]);
  });

  it('src/protocol imports no daemon and no command', () => {
    expect(crossings(graph, (f) => top(f) === 'protocol', (t) => PROTOCOL_MAY_IMPORT.includes(top(t)))).toEqual([]);
  });

  it('src/core does no I/O', () => {
    const found = coreIo(sources);
    expect(found.filter((file) => !(file in CORE_IO_NOT_YET))).toEqual([]);
    expect(Object.keys(CORE_IO_NOT_YET).filter((file) => !found.includes(file))).toEqual([]);
    expect(coreIo(new Map([['core/a.ts', "import { readFileSync } from 'node:fs';"], ['core/b.ts', "import os from 'node:os';"]]))).toEqual(['core/a.ts']);
  });

  it('a command takes the shapes it shares with the controller from src/protocol, not from src/ctld', () => {
    expect(typesFromController(sources)).toEqual([]);
  });

  it('tells a type-only import from one that brings values', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { type B, type C } from './b.js';",
      "import { type D, e } from './d.js';",
      "import f from './f.js';",
      "import * as g from './g.js';",
    ].join('\n');
    expect(typeOnlySpecifiers(text)).toEqual({ typeOnly: ['./a.js', './b.js'], values: ['./d.js', './f.js', './g.js'] });
    const misplaced = new Map([
      ['commands/x/a.ts', "import type { Grant } from '../../ctld/interactive-jobs.js';"],
      ['commands/x/b.ts', "import type { NodeTable } from '../../ctld/node-table.js';\nimport { run } from '../../ctld/run.js';"],
      ['ctld/c.ts', "import type { J } from './job.js';"],
    ]);
    expect(typesFromController(misplaced)).toEqual(['commands/x/a.ts -> ../../ctld/interactive-jobs.js']);
  });
});
