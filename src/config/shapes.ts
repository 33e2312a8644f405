// Phase 2 of loading: check the shapes of the parsed YAML with the valibot schemas and turn
// every valibot issue into an Issue with a document path. The result, a Draft, keeps every
// value that parsed cleanly, even beside a bad one, so the rules can still look across the
// file and one load reports everything.
import * as v from 'valibot';
import type { IssueList, PathSegment } from './issues.js';
import { describe, isPlainObject } from './schema-kit.js';
import { NodeSchema, PartitionSchema, TopSchema } from './schema.js';
import type { NodeEntry, PartitionEntry, TopEntry } from './schema.js';

export interface Checked<T> {
  /** Position in the file's list, for messages (`nodes.3`). */
  index: number;
  /** The keys that parsed cleanly; all of them when `bad` is empty. */
  entry: Partial<T>;
  /** Keys that are present but wrong (already reported). */
  bad: ReadonlySet<string>;
}

export interface Draft {
  top: Partial<TopEntry>;
  nodes: Checked<NodeEntry>[];
  partitions: Checked<PartitionEntry>[];
  /** How many entries the file lists: 0 when the key is absent, undefined when it is not a list. */
  nodeCount: number | undefined;
  partitionCount: number | undefined;
}

/** Checks every section and entry, recording issues; never throws on bad input. */
export function checkShapes(raw: unknown, issues: IssueList): Draft {
  const draft: Draft = { top: {}, nodes: [], partitions: [], nodeCount: undefined, partitionCount: undefined };
  if (!isPlainObject(raw)) {
    const what = raw == null ? 'the file is empty' : `got ${describe(raw)}`;
    issues.add([], `expected a mapping with cluster, nodes and partitions; ${what}`);
    return draft;
  }
  draft.top = check(TopSchema, raw, [], issues).entry;
  if (raw.nodes === undefined) draft.nodeCount = 0;
  if (raw.partitions === undefined) draft.partitionCount = 0;
  if (Array.isArray(raw.nodes)) {
    draft.nodeCount = raw.nodes.length;
    draft.nodes = raw.nodes.map((item, index) => ({ index, ...check(NodeSchema, item, ['nodes', index], issues) }));
  }
  if (Array.isArray(raw.partitions)) {
    draft.partitionCount = raw.partitions.length;
    draft.partitions = raw.partitions.map((item, index) => ({
      index,
      ...check(PartitionSchema, item, ['partitions', index], issues),
    }));
  }
  return draft;
}

type MappingSchema = v.GenericSchema & { entries: v.ObjectEntries };

function check<S extends MappingSchema>(schema: S, item: unknown, at: PathSegment[], issues: IssueList) {
  const result = v.safeParse(schema, item);
  if (result.success) return { entry: result.output as Partial<v.InferOutput<S>>, bad: new Set<string>() };
  addValibotIssues(issues, at, result.issues);
  return salvage(schema, item) as { entry: Partial<v.InferOutput<S>>; bad: Set<string> };
}

// The keys of a mapping that parse on their own (recursing into sub-mappings).
function salvage(schema: MappingSchema, item: unknown): { entry: Record<string, unknown>; bad: Set<string> } {
  const entry: Record<string, unknown> = {};
  const bad = new Set<string>();
  if (!isPlainObject(item)) return { entry, bad };
  for (const [key, sub] of Object.entries(schema.entries)) {
    if (!(key in item)) continue;
    const result = v.safeParse(sub, item[key]);
    if (result.success) entry[key] = result.output;
    else {
      bad.add(key);
      const inner = mappingOf(sub);
      if (inner) entry[key] = salvage(inner, item[key]).entry;
    }
  }
  return { entry, bad };
}

function mappingOf(schema: v.GenericSchema): MappingSchema | undefined {
  const unwrapped = schema.type === 'optional' ? (schema as unknown as { wrapped: v.GenericSchema }).wrapped : schema;
  return 'entries' in unwrapped ? (unwrapped as MappingSchema) : undefined;
}

function addValibotIssues(issues: IssueList, prefix: PathSegment[], found: readonly v.BaseIssue<unknown>[]): void {
  for (const issue of found) {
    const items = issue.path ?? [];
    const path = [...prefix, ...items.map((item) => item.key as PathSegment)];
    const last = items.at(-1);
    if (last?.origin !== 'key') issues.add(path, issue.message);
    // An unknown key (our raw check) points at the key itself; a missing one at its mapping.
    else if (issue.type === 'raw_check') issues.add(path, issue.message, 'key');
    else issues.add(path.slice(0, -1), issue.message);
  }
}
