// Small valibot building blocks with the wording users see: "expected X, got Y", strict
// mappings that report every unknown key with a hint, and converters for Slurm's value forms.
import * as v from 'valibot';
import { didYouMean } from './suggest.js';

/** Thrown by a value converter; its message becomes the issue's text. */
export class BadValue extends Error {}

/** How a YAML value is named in messages. */
export function describe(input: unknown): string {
  if (input === null || input === undefined) return 'an empty value';
  if (typeof input === 'string') return JSON.stringify(input);
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'a mapping';
  return String(input);
}

/** A message function: `expected a positive integer, got "8x"`. */
export function expected(what: string): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => `expected ${what}, got ${describe(issue.input)}`;
}

// A looseObject plus our own unknown-key check: valibot's strictObject stops at the first
// unknown key, and we want every one reported, each with its "did you mean". (valibot's
// object schemas also take arrays, hence the first check.) `entries` stays reachable for
// shapes.ts, which re-checks the keys of a mapping one by one.
export function strictMap<const E extends v.ObjectEntries>(entries: E) {
  const known = Object.keys(entries);
  const schema = v.pipe(
    v.unknown(),
    v.check(isPlainObject, expected('a mapping')),
    v.looseObject(entries, mappingMessage),
    v.rawCheck(({ dataset, addIssue }) => {
      const input = dataset.value as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (known.includes(key)) continue;
        addIssue({
          message: `unknown key${didYouMean(key, known)}`,
          path: [{ type: 'object', origin: 'key', input, key, value: input[key] }],
        });
      }
    }),
  );
  return Object.assign(schema, { entries });
}

/** A mapping with any keys (values unchecked). */
export function anyMap(what: string) {
  return v.pipe(v.unknown(), v.check(isPlainObject, expected(what)), v.record(v.string(), v.unknown()));
}

// Only missing required keys reach this: the check before looseObject catches non-mappings.
function mappingMessage(issue: v.BaseIssue<unknown>): string {
  return `missing required key ${issue.expected}`;
}

/** Runs `convert` on the value a schema accepted; a BadValue becomes an issue. */
export function convert<TIn, TOut>(schema: v.GenericSchema<unknown, TIn>, fn: (value: TIn) => TOut) {
  return v.pipe(
    schema,
    v.rawTransform<TIn, TOut>(({ dataset, addIssue, NEVER }) => {
      try {
        return fn(dataset.value);
      } catch (error) {
        if (!(error instanceof BadValue)) throw error;
        addIssue({ message: error.message });
        return NEVER;
      }
    }),
  );
}

export const str = v.string(expected('a string'));

/** A whole number in [min, max]. */
export function int(what: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  const message = expected(what);
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** A string or a YAML number (for sizes and times, where a bare number has a unit). */
export const stringOrNumber = v.union([v.string(), v.number()], expected('a string or a number'));

/**
 * A list of strings, or one string split on `separator` (slurm.conf style; null: the string
 * is one item), each item run through `fn`; a bad item in a list is reported at its index.
 */
export function listOf<T>(fn: (item: string) => T, separator: string | null) {
  return v.pipe(
    v.unknown(),
    v.rawTransform<unknown, T[]>(({ dataset, addIssue, NEVER }) => {
      const input = dataset.value;
      if (typeof input !== 'string' && !Array.isArray(input)) {
        addIssue({ message: `expected a list, got ${describe(input)}` });
        return NEVER;
      }
      const items: unknown[] = typeof input === 'string' ? splitList(input, separator) : input;
      const out: T[] = [];
      for (const [index, item] of items.entries()) {
        const path: [v.ArrayPathItem] | undefined = Array.isArray(input)
          ? [{ type: 'array', origin: 'value', input, key: index, value: item }]
          : undefined;
        try {
          if (typeof item !== 'string') throw new BadValue(`expected a string, got ${describe(item)}`);
          out.push(fn(item));
        } catch (error) {
          if (!(error instanceof BadValue)) throw error;
          addIssue({ message: error.message, ...(path && { path }) });
        }
      }
      return out.length === items.length ? out : NEVER;
    }),
  );
}

export function splitList(text: string, separator: string | null): string[] {
  return (separator === null ? [text] : text.split(separator))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
