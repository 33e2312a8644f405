// Building blocks of the message schemas (valibot): counts, ids and sizes as whole numbers in
// Slurm's ranges, strings bounded as slurmctld bounds them, so a schema reads as the limits
// it enforces. Messages come from check-body.ts, which words every issue the same way.
import * as v from 'valibot';
import { INFINITE, NO_VAL } from '../core/slurm-constants.js';

/** The largest value a uint32 count may hold (NO_VAL and INFINITE above it are sentinels). */
export const MAX_COUNT = NO_VAL - 1;

/** A whole number in [min, max]: a finite number, never NaN or a string. */
export function int(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
}

/** A count (tasks, nodes, CPUs) that must be at least `min`. */
export const count = (min = 1) => int(min, MAX_COUNT);

/** A job id: uint32, 0 is none. */
export const jobId = int(1, MAX_COUNT);

/** A uid or gid (uid_t; -1 is "none" and not a user). */
export const posixId = int(0, NO_VAL);

/** A process id. */
export const pid = int(1, 0x7fffffff);

/** A TCP port. */
export const port = int(1, 65535);

/** A wait status as waitpid gives it (exit code << 8, or the signal). */
export const waitStatus = int(0, 0xffff);

/** A Linux signal number (scancel takes 1 to 64; 0 only probes and is no order). */
export const signal = int(1, 64);

/** Minutes (a time limit), or INFINITE (UNLIMITED). */
export const minutes = int(0, INFINITE);

/** Unix seconds. */
export const unixTime = int(0, Number.MAX_SAFE_INTEGER);

/** A string of at most `bytes` bytes of UTF-8 (slurmctld's _test_strlen counts bytes). */
export function text(bytes: number) {
  return v.pipe(v.string(), v.maxBytes(bytes));
}

/** A list of strings, each bounded. */
export function textList(bytes: number) {
  return v.array(text(bytes));
}

/** A request's job id as the commands give it: `12`, `12_3`, `12.0`; checked by the handler. */
export const jobIdText = text(64);

/** The requesting user, as the commands send it (replaced by the credential's on TCP). */
export const caller = { userId: posixId };

/** A body for a request that carries nothing: absent, or an object whose keys are ignored. */
export const noBody = v.optional(v.nullable(v.looseObject({})));
