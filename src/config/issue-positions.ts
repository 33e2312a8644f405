// Giving each issue the line and column of the YAML node it points at. Kept apart from
// issues.ts so that only parsing a file loads the YAML library.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { formatPath, type Issue } from './issues.js';

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
