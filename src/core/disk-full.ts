// A write that failed because the disk (or the user's quota) is full: a refusal with the C
// library's text, `No space left on device` (what Slurm prints for ENOSPC), not a crash.
import { UserError } from './errors.js';
import { slurm_strerror } from './errno.js';

const FULL = new Set(['ENOSPC', 'EDQUOT']);

export function isDiskFull(error: unknown): boolean {
  return FULL.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** The refusal for a write that failed: the system's text when the disk is full, else the error itself. */
export function diskError(error: unknown): Error {
  if (!isDiskFull(error)) return error as Error;
  return new UserError(slurm_strerror(Math.abs((error as NodeJS.ErrnoException).errno ?? 28)), { cause: error });
}

/** The refusal while the controller cannot write its journal. */
export function noSpace(): UserError {
  return new UserError(slurm_strerror(28));
}
