// Phase 1 of loading a slurm.conf: the file and the files it includes → settings and records,
// each remembering its file and line. Follows Slurm's s_p_parse_file: a line is `Include
// FILE` (relative to the including file's directory, `%c` standing for the ClusterName), a
// single `Key=Value`, or a record (`NodeName=...`, `PartitionName=...`) whose other keys follow
// on the same line. A line that is none of these is an error naming its file and line; all
// such errors are collected so one run shows every bad line.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { keyTables, type RecordKey } from './keys.js';
import { logicalLines, type Where } from './lines.js';
import { splitPairs } from './pairs.js';

export interface Setting {
  /** Canonical spelling (`KillWait`, whatever case the file used). */
  key: string;
  value: string;
  at: Where;
}

export interface ConfRecord {
  kind: RecordKey;
  /** The record's own value: `node[1-3]`, `debug`, `DEFAULT`. */
  name: string;
  /** Canonical key → value, in file order. */
  keys: Map<string, string>;
  at: Where;
}

export interface ConfText {
  /** Top-level settings by canonical key; a later line wins, as in Slurm. */
  settings: Map<string, Setting>;
  records: ConfRecord[];
  /** `file:line: what` lines. */
  errors: string[];
  /** Every file read, the first one first. */
  files: string[];
}

const MAX_INCLUDE_DEPTH = 16;

/** Reads `file` (absolute) and everything it includes. */
export function readConfFile(file: string): ConfText {
  const out: ConfText = { settings: new Map(), records: [], errors: [], files: [] };
  readInto(out, file, 0, undefined);
  return out;
}

/** Parses text already in memory (tests, and files read elsewhere) as if it were `file`. */
export function readConfText(text: string, file: string): ConfText {
  const out: ConfText = { settings: new Map(), records: [], errors: [], files: [file] };
  parseInto(out, text, file, 0);
  return out;
}

function readInto(out: ConfText, file: string, depth: number, from: Where | undefined): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (error as Error).message;
    out.errors.push(from ? `${from.file}:${from.line}: Include failed: ${file}: ${reason}` : `${file}: ${reason}`);
    return;
  }
  out.files.push(file);
  parseInto(out, text, file, depth);
}

function parseInto(out: ConfText, text: string, file: string, depth: number): void {
  const { top, record, sub } = keyTables();
  for (const line of logicalLines(text, file)) {
    const at: Where = { file: line.file, line: line.line };
    const fail = (message: string) => out.errors.push(`${at.file}:${at.line}: ${message}`);
    const include = /^include\s+(\S+)(.*)$/is.exec(line.text);
    if (include) {
      if (include[2]!.trim() !== '') fail(`Parse error: "${include[2]!.trim()}"`);
      else if (depth >= MAX_INCLUDE_DEPTH) fail(`Include nested more than ${MAX_INCLUDE_DEPTH} deep (a loop?)`);
      else {
        const cluster = out.settings.get('ClusterName')?.value.toLowerCase();
        if (include[1]!.includes('%c') && cluster === undefined) fail('Include: %c needs ClusterName set before it');
        else readInto(out, resolve(dirname(file), include[1]!.replaceAll('%c', cluster ?? '')), depth + 1, at);
      }
      continue;
    }
    const { pairs, rest } = splitPairs(line.text);
    const [first, ...others] = pairs;
    if (first === undefined) {
      fail(`Parse error: "${rest}" (expected Key=Value)`);
      continue;
    }
    const recordKind = record.get(first.key.toLowerCase()) as RecordKey | undefined;
    if (recordKind !== undefined) {
      const keys = new Map<string, string>();
      const known = sub[recordKind];
      const bad = others.find((p) => !known.has(p.key.toLowerCase()));
      if (bad) {
        fail(`${recordKind}=${first.value}: unrecognized key: ${bad.key}`);
        continue;
      }
      for (const p of others) keys.set(known.get(p.key.toLowerCase())!, p.value);
      if (rest !== '') fail(`Parse error: "${rest}"`);
      else out.records.push({ kind: recordKind, name: first.value, keys, at });
      continue;
    }
    const key = top.get(first.key.toLowerCase());
    if (key === undefined) fail(`Parsing error at unrecognized key: ${first.key}`);
    // Slurm takes one top-level key per line; anything after it is a parse error.
    else if (others.length > 0 || rest !== '') fail(`Parse error: "${line.text.slice(first.end).trim()}"`);
    else out.settings.set(key, { key, value: first.value, at });
  }
}
