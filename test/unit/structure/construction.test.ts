// Issue 20: the daemons' components are constructed with what they need. A class field declared
// with `!` (definite assignment) is one some other code fills in after construction, which is
// how the controller's select and sched facades used to be wired; the controller and step
// daemons have none.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../helpers/import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../../src');
const DAEMON_DIRS = ['ctld/', 'stepd/'];

/** `Class.field` for each property declared with a definite-assignment `!`. */
function definitelyAssignedFields(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyDeclaration(node) && node.exclamationToken !== undefined) {
      const owner = ts.isClassLike(node.parent) && node.parent.name ? node.parent.name.text : '(anonymous)';
      found.push(`${file}: ${owner}.${node.name.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('construction', () => {
  it('no class of the controller or the step daemons has a field filled in after construction', () => {
    const sources = [...readSources(SRC)].filter(([file]) => DAEMON_DIRS.some((dir) => file.startsWith(dir)));
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.flatMap(([file, text]) => definitelyAssignedFields(file, text))).toEqual([]);
  });

  it('sees a definite-assignment field', () => {
    expect(definitelyAssignedFields('x.ts', 'class Controller { select!: Select; readonly sched: Sched; }')).toEqual(['x.ts: Controller.select']);
  });
});
