// sacct's print_fields (src/common/print_fields.c): fixed-width columns, each followed by a
// space, a value wider than its column cut with `+` as its last character; or with -p/-P the
// values joined by the delimiter (-p ends every line with one). --format names fields by any
// unambiguous start of their name, in any case (the first in sacct's order wins), with an
// optional `%width`.
import { UserError } from '../../core/errors.js';
import { FIELDS, type AcctLine, type Field, type FieldContext } from './fields.js';

export interface Column {
  field: Field;
  width: number;
}

export interface PrintStyle {
  /** undefined: columns; else the delimiter, with `ending` after the last value too (-p). */
  delimiter: string | undefined;
  ending: boolean;
  header: boolean;
}

export function parseFormat(format: string): Column[] {
  return format
    .split(/[,\s]+/)
    .filter((item) => item !== '')
    .map((item) => {
      const [name = '', widthText] = item.split('%');
      const lower = name.toLowerCase();
      const field = FIELDS.find((f) => f.name.toLowerCase().startsWith(lower)) ;
      if (!field || lower === '') throw new UserError(`Invalid field requested: "${name}"`);
      const width = widthText === undefined ? 0 : Number.parseInt(widthText, 10);
      return { field, width: Number.isFinite(width) && width !== 0 ? width : field.width };
    });
}

export function headerLines(columns: readonly Column[], style: PrintStyle): string {
  if (style.delimiter !== undefined) return `${joined(columns.map((c) => c.field.name), style)}\n`;
  const names = columns.map((c) => pad(c.field.name.slice(0, Math.abs(c.width)), c.width));
  const dashes = columns.map((c) => '-'.repeat(Math.abs(c.width)));
  return `${names.map((n) => `${n} `).join('')}\n${dashes.map((d) => `${d} `).join('')}\n`;
}

export function lineText(columns: readonly Column[], line: AcctLine, ctx: FieldContext, style: PrintStyle): string {
  const values = columns.map((c) => {
    const value = c.field.value(line, ctx);
    return value === undefined ? '' : String(value);
  });
  if (style.delimiter !== undefined) return `${joined(values, style)}\n`;
  return `${values.map((value, i) => `${cell(value, columns[i]!)} `).join('')}\n`;
}

function joined(values: readonly string[], style: PrintStyle): string {
  const d = style.delimiter!;
  return style.ending ? values.map((v) => `${v}${d}`).join('') : values.join(d);
}

function cell(value: string, column: Column): string {
  const width = Math.abs(column.width);
  const cut = !column.field.numeric && value.length > width ? `${value.slice(0, width - 1)}+` : value;
  return pad(cut, column.width);
}

function pad(text: string, width: number): string {
  return width < 0 ? text.padEnd(-width) : text.padStart(width);
}

/** sacct -e: every field name, four to a line. */
export function fieldList(): string {
  let out = '';
  FIELDS.forEach((field, i) => {
    if (i % 4 !== 0) out += ' ';
    else if (i > 0) out += '\n';
    out += field.name.padEnd(19);
  });
  return `${out}\n`;
}
