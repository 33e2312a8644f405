// A small state file of records the controller rewrites whole on each change (resv_state,
// part_state), the way job_state is written: `.new`, fsync, the current one kept as `.old`,
// rename, before the change is acknowledged. The first line names the format and version; the
// last counts the records, so a file cut short while being written is told from a whole one.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../os/atomic-write.js';
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../../core/protocol-version.js';

export interface RecordFileFormat<T> {
  /** The header's magic word. */
  magic: string;
  /** The key each record line holds its record under (`resv`, `part`). */
  key: string;
  /** What the file holds, for the error when another file is found (`reservation state`). */
  what: string;
  /** A record as read; false drops it. */
  accept?(record: T): boolean;
}

export function writeRecordFile<T>(file: string, format: RecordFileFormat<T>, records: readonly T[]): void {
  const lines = [
    JSON.stringify({ magic: format.magic, version: TSLURM_PROTOCOL_VERSION }),
    ...records.map((record) => JSON.stringify({ [format.key]: record })),
    JSON.stringify({ end: records.length }),
  ];
  writeFileAtomic(file, `${lines.join('\n')}\n`, { keepOld: true });
}

/** The saved records: from the file, else from `.old`; problems are reported, not thrown. */
export function readRecordFile<T>(file: string, format: RecordFileFormat<T>, onProblem: (message: string) => void): T[] {
  for (const candidate of [file, `${file}.old`]) {
    if (!existsSync(candidate)) continue;
    try {
      return parse(readFileSync(candidate, 'utf8'), format);
    } catch (error) {
      onProblem(`${candidate}: ${(error as Error).message}; trying the previous state`);
    }
  }
  return [];
}

function parse<T>(text: string, format: RecordFileFormat<T>): T[] {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = JSON.parse(lines[0] ?? '{}') as { magic?: string; version?: number };
  if (header.magic !== format.magic) throw new Error(`not a tslurm ${format.what} file`);
  if (!isSupportedProtocolVersion(header.version ?? 0)) throw new Error(`state file version ${header.version} is not one this build reads`);
  const out: T[] = [];
  let end: number | undefined;
  for (const line of lines.slice(1)) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const record = entry[format.key] as T | undefined;
    if (record !== undefined && record !== null && (format.accept?.(record) ?? true)) out.push(record);
    else if (typeof entry.end === 'number') end = entry.end;
  }
  if (end !== out.length) throw new Error('the file is incomplete (cut short while being written?)');
  return out;
}
