// Problems found in a cluster file stay data (a path and a sentence) until the end of
// loading, where each is given the line and column of the YAML node it points at.
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
