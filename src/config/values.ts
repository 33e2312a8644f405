// Converters for the value forms a cluster file uses, each throwing BadValue with the text
// the user sees. Bare YAML numbers carry slurm.conf's units: megabytes and minutes.
import { UserError } from '../core/errors.js';
import { expandHostlist } from '../core/hostlist.js';
import { parseMemoryMB } from '../core/memory-size.js';
import { INFINITE } from '../core/slurm-constants.js';
import { parseTimeToMinutes } from '../core/time-string.js';
import { BadValue, describe } from './schema-kit.js';
import { didYouMean } from './suggest.js';
import type { GresSpec } from './types.js';

/** A hostlist expression (`n[01-04]`) expanded to its names. */
export function hostnames(expr: string): string[] {
  let names: string[];
  try {
    names = expandHostlist(expr);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // The hostlist error's message only repeats the expression; its detail, when Slurm has
    // one, says what is wrong.
    const detail = (error as { detail?: unknown }).detail;
    throw new BadValue(`invalid hostlist ${JSON.stringify(expr)}${typeof detail === 'string' ? `: ${detail}` : ''}`);
  }
  if (names.length === 0) throw new BadValue(`invalid hostlist ${JSON.stringify(expr)}: no names`);
  const odd = names.find((name) => name === '' || /[\s,[\]]/.test(name));
  if (odd !== undefined) throw new BadValue(`invalid node name ${JSON.stringify(odd)} in ${JSON.stringify(expr)}`);
  return names;
}

const MEMORY_FORMS = 'expected megabytes, or a number with a K, M, G or T suffix';

/** RealMemory in MB: a bare number is MB, a string may carry a suffix ("16G"). */
export function memoryMB(value: string | number): number {
  let mb: number;
  try {
    mb = typeof value === 'number' ? value : parseMemoryMB(value);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    mb = NaN;
  }
  if (!Number.isInteger(mb) || mb < 1) throw new BadValue(`invalid memory size ${describe(value)} (${MEMORY_FORMS})`);
  // Beyond this megabytes are no longer whole numbers in JavaScript (Slurm's limit is 2^64).
  if (mb > Number.MAX_SAFE_INTEGER) throw new BadValue(`memory size ${describe(value)} is out of range (at most ${Number.MAX_SAFE_INTEGER} MB)`);
  return mb;
}

const TIME_FORMS = 'expected minutes, [days-]hours:minutes:seconds or UNLIMITED';

/** A time limit in minutes (INFINITE for UNLIMITED): a bare number is minutes. */
export function minutes(value: string | number): number {
  let result: number;
  try {
    // -1 is INFINITE to Slurm in either form (time_str2mins("-1")).
    result = typeof value === 'number' ? (value === -1 ? INFINITE : value) : parseTimeToMinutes(value);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    result = NaN;
  }
  if (result !== INFINITE && (!Number.isInteger(result) || result < 0 || result >= INFINITE)) {
    throw new BadValue(`invalid time ${describe(value)} (${TIME_FORMS})`);
  }
  return result;
}

// slurm.conf Gres: name[:type][:count], count with an optional K/M/G multiplier (1024-based).
const GRES_NAME = /^[A-Za-z][\w-]*$/;
const GRES_TYPE = /^[A-Za-z0-9_][\w.-]*$/;
const GRES_COUNT = /^(\d+)([KMG]?)$/i;

/** `gpu`, `gpu:2`, `gpu:a100`, `gpu:a100:2`. */
export function gres(text: string): GresSpec {
  const forms = 'expected name[:type][:count], e.g. gpu:2 or gpu:a100:2';
  const bad = () => new BadValue(`invalid gres ${JSON.stringify(text)} (${forms})`);
  const parts = text.trim().split(':');
  const [name, second, third] = parts;
  if (parts.length > 3 || name === undefined || !GRES_NAME.test(name)) throw bad();
  if (second === undefined) return { name, count: 1 };
  if (third === undefined) {
    const count = gresCount(second);
    if (count !== undefined) return { name, count };
    if (GRES_TYPE.test(second) && !/^\d/.test(second)) return { name, type: second, count: 1 };
    throw bad();
  }
  const count = gresCount(third);
  if (!GRES_TYPE.test(second) || count === undefined) throw bad();
  return { name, type: second, count };
}

function gresCount(text: string): number | undefined {
  const m = GRES_COUNT.exec(text);
  if (!m) return undefined;
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]!.toUpperCase()] ?? 1;
  return Number(m[1]) * scale;
}

/** A feature name: no spaces, commas or the operators of --constraint. */
export function feature(text: string): string {
  if (!/^[^\s,&|!*[\]()]+$/.test(text)) throw new BadValue(`invalid feature ${JSON.stringify(text)}`);
  return text;
}

export interface Address {
  host: string;
  port?: number;
}

/** `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address. */
export function address(text: string): Address {
  const bad = () => new BadValue(`invalid address ${JSON.stringify(text)} (expected host or host:port)`);
  let host: string;
  let port: string | undefined;
  const v6 = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  if (v6) [host, port] = [v6[1]!, v6[2]];
  else if ((text.match(/:/g) ?? []).length > 1) host = text;
  else [host, port] = text.split(':') as [string, string | undefined];
  if (host === '' || /[\s/]/.test(host)) throw bad();
  if (port === undefined) return { host };
  if (!/^\d+$/.test(port)) throw bad();
  const n = Number(port);
  if (n < 1 || n > 65535) throw new BadValue(`port ${port} out of range (1-65535)`);
  return { host, port: n };
}

/** One of a fixed set of words, any case, returned in upper case. */
export function oneOf<const T extends string>(what: string, words: readonly T[]): (text: string) => T {
  return (text) => {
    const upper = text.trim().toUpperCase();
    const found = words.find((w) => w === upper);
    if (found !== undefined) return found;
    const list = `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
    throw new BadValue(`unknown ${what} ${JSON.stringify(text)} (expected ${list})${didYouMean(upper, words)}`);
  };
}
