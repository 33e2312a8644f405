// Turning -o/-O format strings into sinfo columns, and the columns and lines into text
// (src/sinfo/opts.c _parse_format/_parse_long_format, print.c print_sinfo_list).
import { parseFormatString, parseLongFormat } from './format-string.js';
import { printStr } from './print-str.js';
import { sinfoFieldByLetter, sinfoFieldByName, type SinfoField } from './sinfo-fields.js';
import type { MatchFlag, SinfoRecord } from './sinfo-records.js';
import { compressHostlistSorted } from '../../core/hostlist.js';

export interface SinfoColumn {
  /** null: literal text (a prefix, or an invalid field printed as written). */
  field: SinfoField | null;
  width: number;
  right: boolean;
  suffix: string;
}

export interface SinfoLayout {
  columns: SinfoColumn[];
  /** Messages for fields sinfo does not know; sinfo prints them and carries on. */
  invalid: string[];
}

// `%all`: every letter, separated by `|` (upper-case ones followed by a space), unknown ones skipped.
const ALL_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const allFormat = (): string =>
  ['%a', ...[...ALL_LETTERS.slice(1)].map((c) => `|%${c}`), ...[...ALL_LETTERS.toUpperCase()].map((c) => `|%${c} `)].join('');

/** Columns of an -o format string. */
export function layoutFromFormat(format: string): SinfoLayout {
  const all = format.toLowerCase() === '%all';
  const { prefix, tokens } = parseFormatString(all ? allFormat() : format);
  const columns: SinfoColumn[] = [];
  const invalid: string[] = [];
  if (prefix !== '') columns.push({ field: null, width: 0, right: false, suffix: prefix });
  for (const token of tokens) {
    const field = sinfoFieldByLetter(token.letter);
    if (field) columns.push({ field, width: token.width, right: token.right, suffix: token.suffix });
    else if (!all) {
      columns.push({ field: null, width: 0, right: false, suffix: `%${token.raw}` });
      invalid.push(`Invalid node format specification: ${token.letter}`);
    }
  }
  return { columns, invalid };
}

/** Columns of an -O format (`partition:10|,nodes`). */
export function layoutFromLongFormat(format: string): SinfoLayout {
  const columns: SinfoColumn[] = [];
  const invalid: string[] = [];
  for (const token of parseLongFormat(format)) {
    if (token.name.toLowerCase() === 'all') {
      columns.push(...layoutFromFormat('%all').columns);
      continue;
    }
    const field = sinfoFieldByName(token.name);
    columns.push({ field: field ?? null, width: token.width, right: token.right, suffix: token.suffix });
    // sinfo's own text says "job" here.
    if (!field) invalid.push(`Invalid job format specification: ${token.name}`);
  }
  return { columns, invalid };
}

/** What the layout's fields make sinfo group nodes on. */
export function matchFlagsOf(layout: SinfoLayout): Set<MatchFlag> {
  return new Set(layout.columns.flatMap((c) => (c.field?.match ? [c.field.match] : [])));
}

export interface RenderOptions {
  header: boolean;
  /** Partition and node-list columns sized to their widest value (sinfo's default formats). */
  sizePartitions: boolean;
  sizeNodes: boolean;
}

export function renderSinfo(records: readonly SinfoRecord[], layout: SinfoLayout, opts: RenderOptions): string {
  const widths = {
    part: opts.sizePartitions ? partFieldSize(records) : undefined,
    node: opts.sizeNodes ? nodeFieldSize(records) : undefined,
  };
  const line = (rec: SinfoRecord | null): string =>
    layout.columns
      .map((col) => {
        if (col.field === null) return col.suffix;
        const width = (col.field.sized && widths[col.field.sized]) ?? col.width;
        const text =
          rec === null
            ? printStr(col.field.header, width, col.right, !col.field.headerOverflows)
            : printStr(col.field.value(rec, width), width, col.right);
        return text + col.suffix;
      })
      .join('');
  const lines = opts.header ? [line(null)] : [];
  for (const rec of records) lines.push(line(rec));
  return lines.map((l) => `${l}\n`).join('');
}

// print.c: at least 9, else the longest name (plus its `*`) or node list.
const MIN_FIELD_SIZE = 9;

function partFieldSize(records: readonly SinfoRecord[]): number {
  return Math.max(MIN_FIELD_SIZE, ...records.map((r) => r.part.name.length + (r.part.isDefault ? 1 : 0)));
}

function nodeFieldSize(records: readonly SinfoRecord[]): number {
  return Math.max(MIN_FIELD_SIZE, ...records.map((r) => (r.nodes.length ? compressHostlistSorted(r.nodes).length : 0)));
}
