// The node states a stopped controller left in its state directory (drains, downs and their
// reasons), for commands that show nodes while no controller runs. Only the node records are
// picked out of the snapshot and the journals, so this stays quick however many jobs they hold.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NodeStateRecord } from './snapshot.js';

export function readSavedNodes(stateDir: string): Map<string, NodeStateRecord> {
  const dir = path.join(stateDir, 'ctld');
  const nodes = new Map<string, NodeStateRecord>();
  let seq = 0;
  for (const line of lines(path.join(dir, 'job_state'))) {
    if (line.startsWith('{"magic"')) seq = parse<{ seq: number }>(line)?.seq ?? 0;
    if (!line.startsWith('{"node"')) continue;
    const node = parse<{ node: NodeStateRecord }>(line)?.node;
    if (node) nodes.set(node.name, node);
  }
  const records = [...lines(path.join(dir, 'journal.old')), ...lines(path.join(dir, 'journal'))]
    .filter((line) => line.includes('"t":"node"'))
    .map((line) => parse<NodeStateRecord & { seq: number }>(line))
    .filter((r): r is NodeStateRecord & { seq: number } => r !== undefined && r.seq > seq)
    .sort((a, b) => a.seq - b.seq);
  for (const r of records) nodes.set(r.name, { name: r.name, state: r.state, reason: r.reason, time: r.time, uid: r.uid });
  return nodes;
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}

function parse<T>(line: string): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}
