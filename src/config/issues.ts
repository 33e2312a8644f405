// Problems found in a cluster file stay data (a path and a sentence) until the end of
// loading, where each is given the line and column of the YAML node it points at.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export type PathSegment = string | number;

export interface Issue {
  path: readonly PathSegment[];
  message: string;
  /** Point at the key of the last path segment (an unknown key) rather than its value. */
  at?: 'key' | 'value';
}

/** The issues of one load, in the order they were found. */
export class IssueList {
  readonly items: Issue[] = [];

  add(path: readonly PathSegment[], message: string, at: Issue['at'] = 'value'): void {
    this.items.push({ path, message, at });
  }

  get size(): number {
    return this.items.length;
  }
}

/** `nodes.0.memory`: the dotted form users see in messages. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.join('.');
}

/** One `file:line:col: path: message` line per issue, sorted by position, duplicates dropped. */
export function formatIssues(
  issues: readonly Issue[],
  fileName: string,
  doc: Document,
  lineCounter: LineCounter,
): string[] {
  const located = issues.map((issue, order) => {
    const { line, col } = lineCounter.linePos(offsetOf(doc, issue));
    const where = issue.path.length ? `${formatPath(issue.path)}: ` : '';
    return { line, col, order, text: `${fileName}:${line}:${col}: ${where}${issue.message}` };
  });
  located.sort((a, b) => a.line - b.line || a.col - b.col || a.order - b.order);
  return [...new Set(located.map((l) => l.text))];
}

// The start offset of the deepest YAML node on the issue's path. Keys missing from the
// document (a required key left out, or a value that came through a `<<` merge) fall back
// to the closest ancestor that is there.
function offsetOf(doc: Document, issue: Issue): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const [i, segment] of issue.path.entries()) {
    const last = i === issue.path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      const keyStart = rangeStart(pair.key);
      if (last && issue.at === 'key' && keyStart !== undefined) return keyStart;
      node = pair.value;
      offset = rangeStart(node) ?? keyStart ?? offset;
      // `key:` with nothing after it: point at the key, not at the empty value after it.
      if (isScalar(node) && node.value === null && node.source === '' && keyStart !== undefined) offset = keyStart;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (node === undefined) break;
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}
