// What one peer may cost a daemon before it has proved who it is (DESIGN.md §8, "every reader
// bounds the size of a line or frame before decoding or authenticating it"). Every size is
// checked while the bytes arrive, so nothing accumulates past it, and each has an environment
// knob for sites (and tests) that need other figures; README.md's Environment table lists them.
//
// Why these defaults: the largest request is a submission, whose batch script Slurm caps at
// 4 MB by default (max_script_size); JSON doubles a script's newlines and quotes at most, and
// the environment rides along (Linux keeps it under 2 MB), so a first message of 16 MiB is
// ample. Later messages on a connection whose peer has authenticated may be far larger
// (tsbcast carries a whole file, a tsqueue answer of 100,000 jobs is ~80 MB) and are capped
// at 256 MiB, half of the longest string V8 can make: a larger line used to end the process
// with ERR_STRING_TOO_LONG.
import { UserError } from '../core/errors.js';

export interface InputLimits {
  /** Longest line (bytes) from a peer that has sent an accepted message on its connection. */
  maxMessageBytes: number;
  /** Longest line before that: the first message of a connection. */
  maxFirstMessageBytes: number;
  /** Bytes all not-yet-authenticated connections of one daemon may hold together. */
  unauthBufferBytes: number;
  /** Connections one listener keeps open at once. */
  maxConnections: number;
  /** Of those, connections that have not yet sent an accepted message. */
  maxUnauthConnections: number;
  /** Milliseconds a connection may stay without an accepted message before it is closed. */
  unauthTimeoutMs: number;
}

const MiB = 1024 * 1024;

/** The knobs, with their defaults; read when a daemon starts listening, never at import. */
const KNOBS = {
  maxMessageBytes: { env: 'TSLURM_MAX_MESSAGE_SIZE', fallback: 256 * MiB, kind: 'bytes' },
  maxFirstMessageBytes: { env: 'TSLURM_MAX_UNAUTH_MESSAGE_SIZE', fallback: 16 * MiB, kind: 'bytes' },
  unauthBufferBytes: { env: 'TSLURM_UNAUTH_BUFFER_SIZE', fallback: 32 * MiB, kind: 'bytes' },
  maxConnections: { env: 'TSLURM_MAX_CONNECTIONS', fallback: 4096, kind: 'count' },
  maxUnauthConnections: { env: 'TSLURM_MAX_UNAUTH_CONNECTIONS', fallback: 128, kind: 'count' },
  unauthTimeoutMs: { env: 'TSLURM_UNAUTH_TIMEOUT', fallback: 10_000, kind: 'seconds' },
} as const;

/** V8's longest string: no line may come near it, whatever the knobs say. */
const LINE_CEILING = 512 * MiB - 64;

/** The limits in force, from the environment; a malformed knob is a UserError naming it. */
export function inputLimits(env: NodeJS.ProcessEnv = process.env): InputLimits {
  const read = (name: keyof typeof KNOBS): number => {
    const { env: variable, fallback, kind } = KNOBS[name];
    const text = env[variable];
    if (text === undefined || text === '') return fallback;
    const value = kind === 'bytes' ? parseBytes(text) : kind === 'seconds' ? Number(text) * 1000 : Number(text);
    if (!Number.isFinite(value) || value <= 0 || (kind !== 'seconds' && !Number.isInteger(value))) {
      const what = kind === 'bytes' ? 'a size in bytes (K, M, G suffixes allowed)' : kind === 'seconds' ? 'a number of seconds above 0' : 'a whole number above 0';
      throw new UserError(`${variable}=${text}: expected ${what}`);
    }
    return value;
  };
  const limits = Object.fromEntries(Object.keys(KNOBS).map((name) => [name, read(name as keyof typeof KNOBS)])) as unknown as InputLimits;
  limits.maxMessageBytes = Math.min(limits.maxMessageBytes, LINE_CEILING);
  limits.maxFirstMessageBytes = Math.min(limits.maxFirstMessageBytes, limits.maxMessageBytes);
  return limits;
}

/** Limits for a client reading its own server's answers: only the ceiling applies. */
export function clientLimits(env: NodeJS.ProcessEnv = process.env): Pick<InputLimits, 'maxMessageBytes' | 'maxFirstMessageBytes'> {
  const { maxMessageBytes } = inputLimits(env);
  return { maxMessageBytes, maxFirstMessageBytes: maxMessageBytes };
}

function parseBytes(text: string): number {
  const match = /^(\d+)([KMG]?)i?B?$/i.exec(text.trim());
  if (!match) return NaN;
  const unit = { '': 1, K: 1024, M: MiB, G: 1024 * MiB }[match[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'];
  return Number(match[1]) * unit;
}
