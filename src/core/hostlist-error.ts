// The error for a malformed hostlist expression. scontrol (Slurm 22.05) prints up to two lines
// on stderr for one: the library's reason, logged as "scontrol: error: <detail>", then
// "Invalid hostlist: <the whole argument>". We carry both so tscontrol can print the same.
import { UserError } from './errors.js';

/** Limits from Slurm 22.05's src/common/hostlist.c (observed with its scontrol). */
export const HOSTLIST_LIMITS = {
  /** Most hosts one `lo-hi` item may name (MAX_RANGE, 64K). */
  maxRange: 64 * 1024,
  /** Most values one bracket group before the last may produce (MAX_PREFIX_CNT). */
  maxPrefixCount: 64 * 1024,
  /** Ours, not Slurm's: most names one expansion may produce, so `a[1-65536]b[1-65536]` fails fast. */
  maxExpandedHosts: 1 << 22,
} as const;

export class HostlistError extends UserError {
  /** The whole expression, exactly as given. */
  readonly expression: string;
  /** Slurm's reason line without the "scontrol: error: " prefix, where Slurm prints one. */
  readonly detail: string | undefined;

  constructor(expression: string, detail?: string) {
    super(`Invalid hostlist: ${expression}`);
    this.name = 'HostlistError';
    this.expression = expression;
    this.detail = detail;
  }
}
