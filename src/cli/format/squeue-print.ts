// squeue's -o/-O format strings turned into columns, and records into lines
// (src/squeue/opts.c parse_format/parse_long_format, print.c _print_job_from_format).
import { parseFormatString, parseLongFormat } from './format-string.js';
import { printStr } from './print-str.js';
import { squeueFieldByLetter, squeueFieldByName, type SqueueContext, type SqueueField } from './squeue-fields.js';
import type { SqueueRecord } from './squeue-records.js';

export interface SqueueColumn {
  /** null: literal text only (a prefix, or a field squeue does not know). */
  field: SqueueField | null;
  width: number;
  right: boolean;
  suffix: string;
}

export interface SqueueLayout {
  columns: SqueueColumn[];
  /** Fields squeue does not know: it says so on stderr and prints the rest. */
  invalid: string[];
}

// `%all`: every letter, `|` between them; letters without a field are skipped.
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const allFormat = (): string => [...LETTERS, ...LETTERS.toUpperCase()].map((c) => `%${c}`).join('|');

/** Columns of an -o format string. */
export function layoutFromFormat(format: string): SqueueLayout {
  const all = format.toLowerCase() === '%all';
  const { prefix, tokens } = parseFormatString(all ? allFormat() : format);
  const columns: SqueueColumn[] = [];
  const invalid: string[] = [];
  if (prefix !== '') columns.push({ field: null, width: 0, right: false, suffix: prefix });
  for (const token of tokens) {
    const field = squeueFieldByLetter(token.letter);
    if (field) columns.push({ field, width: token.width, right: token.right, suffix: token.suffix });
    else if (!all) {
      // Printed as written, `%` and all.
      columns.push({ field: null, width: 0, right: false, suffix: `%${token.raw}` });
      invalid.push(`Invalid job format specification: ${token.letter}`);
    }
  }
  return { columns, invalid };
}

/** Columns of an -O format (`jobid:10,name:.20|,state`); 20 wide unless given. */
export function layoutFromLongFormat(format: string): SqueueLayout {
  const columns: SqueueColumn[] = [];
  const invalid: string[] = [];
  for (const token of parseLongFormat(format)) {
    const field = squeueFieldByName(token.name) ?? null;
    columns.push({ field, width: token.width, right: token.right, suffix: token.suffix });
    if (!field) invalid.push(`Invalid job format specification: ${token.name}`);
  }
  return { columns, invalid };
}

export function renderHeader(layout: SqueueLayout): string {
  return `${layout.columns
    .map((col) => (col.field === null ? col.suffix : printStr(col.field.header, col.width, col.right, !col.field.headerOverflows) + col.suffix))
    .join('')}\n`;
}

export function renderRecord(rec: SqueueRecord, layout: SqueueLayout, ctx: SqueueContext): string {
  let line = '';
  for (const col of layout.columns) {
    if (col.field === null) {
      line += col.suffix;
      continue;
    }
    const cell = col.field.value(rec, ctx);
    const text = cell !== null && typeof cell === 'object' ? printStr(cell.overflow, col.width, col.right, false) : printStr(cell, col.width, col.right);
    line += text + col.suffix;
  }
  return `${line}\n`;
}
