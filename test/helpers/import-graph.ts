// The import graph of a source tree, for tests that keep its shape: every relative import of
// each .ts file (static, `export … from`, type-only and `import()` alike, as TypeScript's
// preprocessor reads them), and the cycles in it (strongly connected components of more than
// one file, or a file importing itself).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** File (relative to the root, `/`-separated) → the files it imports, within the same set. */
export type ImportGraph = Map<string, string[]>;

/** Every .ts file under `root` with its source text. */
export function readSources(root: string): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        sources.set(path.relative(root, file).split(path.sep).join('/'), readFileSync(file, 'utf8'));
      }
    }
  };
  walk(root);
  return sources;
}

/** The graph of `sources`: a specifier `./x.js` names `x.ts`, a directory its `index.ts`. */
export function importGraph(sources: ReadonlyMap<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, text] of sources) {
    const targets: string[] = [];
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), fileName));
      const found = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`].find((candidate) => sources.has(candidate));
      if (found !== undefined) targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import cycles of `graph`, each as its files sorted (Tarjan's strongly connected components). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
