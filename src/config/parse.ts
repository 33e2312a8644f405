// Cluster YAML text → ClusterConfig, in the three phases of STYLE.md §3.6: parse (yaml, with
// positions), shapes (valibot), rules (cross-field). Problems are reported all at once, one
// `file:line:col: path: what` line each: syntax errors alone (nothing else can be trusted),
// otherwise shape and rule problems together.
import { resolve, dirname } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { UserErrorList } from '../core/errors.js';
import { deepFreeze } from './freeze.js';
import { IssueList } from './issues.js';
import { formatIssues } from './issue-positions.js';
import { normalize, type Origin } from './normalize.js';
import { runRules } from './rules.js';
import { checkShapes } from './shapes.js';
import type { ClusterConfig } from './types.js';

/**
 * Parses a cluster file's text. `fileName` is the path as the user gave it (it prefixes
 * messages); it is made absolute against `cwd` for `source` and for relative paths inside.
 * Throws UserErrorList with one line per problem.
 */
export function parseClusterYaml(text: string, fileName: string, opts: { cwd?: string } = {}): ClusterConfig {
  const source = resolve(opts.cwd ?? process.cwd(), fileName);
  return parseClusterText(text, fileName, { source, baseDir: dirname(source) });
}

/** parseClusterYaml with the origin given explicitly (the built-in default has no file). */
export function parseClusterText(text: string, fileName: string, origin: Origin): ClusterConfig {
  const lineCounter = new LineCounter();
  // logLevel 'error': the parser's warnings (a collection used as a key) would reach stderr as
  // a Node process warning, a second line beside ours; what they warn of fails the shape check.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, logLevel: 'error' });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return `${fileName}:${line}:${col}: ${plainReason(error.message)}`;
    });
    // Past the first place the parser ran out of stack, its other complaints are echoes.
    const deep = lines.findIndex((line) => line.endsWith(TOO_DEEP));
    throw new UserErrorList(deep >= 0 ? [lines[deep]!] : [...new Set(lines)]);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 10_000 });
  } catch (error) {
    // Only alias trouble (a billion-laughs file, an alias to nothing) or depth gets here.
    throw new UserErrorList([`${fileName}:1:1: ${plainReason(error instanceof Error ? error.message : String(error))}`]);
  }
  const issues = new IssueList();
  const draft = checkShapes(raw, issues);
  runRules(draft, issues);
  if (issues.size > 0) throw new UserErrorList(formatIssues(issues.items, fileName, doc, lineCounter));
  return deepFreeze(normalize(draft, origin));
}

const TOO_DEEP = 'collections nested too deeply';

// The yaml parser recurses once per level of nesting: a file nested some thousand levels deep
// (never a real cluster file) ends its stack, which it reports in V8's words.
function plainReason(message: string): string {
  return message.includes('Maximum call stack size exceeded') ? TOO_DEEP : message;
}
