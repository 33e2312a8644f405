// The small files read beside slurm.conf (job_container.conf, gres.conf) share its syntax:
// one `Key=Value` per line, or a record whose first key starts a line of several. This reads
// one of them with its own key lists; unknown keys and stray text are `file:line:` errors.
import { readFileSync } from 'node:fs';
import { logicalLines, type Where } from './lines.js';
import { splitPairs } from './pairs.js';

export interface SideRecord {
  /** Canonical key → value, the first key included. */
  keys: Map<string, string>;
  /** The canonical name of the key that starts the record. */
  kind: string;
  at: Where;
}

export interface SideConf {
  settings: Map<string, { value: string; at: Where }>;
  records: SideRecord[];
}

export interface SideKeys {
  /** Keys that stand alone on their line. */
  top: readonly string[];
  /** Keys that start a record, each with the keys allowed after it. */
  records: Readonly<Record<string, readonly string[]>>;
}

/** Reads `file` when it exists (undefined when it does not). */
export function readSideConf(file: string, keys: SideKeys, errors: string[]): SideConf | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    errors.push(`${file}: ${(error as Error).message}`);
    return undefined;
  }
  return parseSideConf(text, file, keys, errors);
}

export function parseSideConf(text: string, file: string, keys: SideKeys, errors: string[]): SideConf {
  const canon = (list: readonly string[]) => new Map(list.map((k) => [k.toLowerCase(), k]));
  const top = canon(keys.top);
  const starts = canon(Object.keys(keys.records));
  const out: SideConf = { settings: new Map(), records: [] };
  for (const line of logicalLines(text, file)) {
    const at = { file: line.file, line: line.line };
    const fail = (message: string) => errors.push(`${at.file}:${at.line}: ${message}`);
    const { pairs, rest } = splitPairs(line.text);
    const [first, ...others] = pairs;
    if (first === undefined) {
      fail(`Parse error: "${rest}" (expected Key=Value)`);
      continue;
    }
    const kind = starts.get(first.key.toLowerCase());
    if (kind !== undefined) {
      const allowed = canon([kind, ...keys.records[kind]!]);
      const bad = others.find((p) => !allowed.has(p.key.toLowerCase()));
      if (bad) fail(`unrecognized key: ${bad.key}`);
      else if (rest !== '') fail(`Parse error: "${rest}"`);
      else out.records.push({ kind, at, keys: new Map(pairs.map((p) => [allowed.get(p.key.toLowerCase())!, p.value])) });
      continue;
    }
    const key = top.get(first.key.toLowerCase());
    if (key === undefined) fail(`unrecognized key: ${first.key}`);
    else if (others.length > 0 || rest !== '') fail(`Parse error: "${line.text.slice(first.end).trim()}"`);
    else out.settings.set(key, { value: first.value, at });
  }
  return out;
}
