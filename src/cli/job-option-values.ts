// Option values srun and sbatch read the same way (src/common/slurm_opt.c, proc_args.c), with
// the messages both print. Checked on Slurm 22.05: a bad count exits 1, a bad -N exits 255.
import { UserError } from '../core/errors.js';

/** `Invalid numeric value "abc" for --ntasks.` for anything but a positive integer. */
export function positiveInt(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(value) ? Number.parseInt(value, 10) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new UserError(`Invalid numeric value "${value}" for ${option}.`);
  return n;
}

/**
 * -N `min[-max]` as verify_node_count() reads it: counts may carry a k or m suffix (×1024,
 * ×1048576) and blanks; an empty side reads as -1, so `-3` is 1-3 and `1-` fails the
 * max < min check. A max of 0 means no maximum; each command decides what 0 means.
 */
export function parseNodeCount(value: string): { min: number; max: number } {
  const dash = value.indexOf('-');
  if (dash === -1) {
    const count = nodeCount(value);
    if (count < 0) throw notNodeCount(value);
    return { min: count, max: count };
  }
  const min = Math.max(nodeCount(value.slice(0, dash)), 1);
  const max = nodeCount(value.slice(dash + 1));
  if (max !== 0 && max < min) {
    throw new UserError(`Maximum node count ${max} is less than minimum node count ${min}`, { exitCode: 255 });
  }
  return { min, max };
}

// _str_to_nodes(): strtol, then an optional k/m; only blanks may follow. No digits is -1.
function nodeCount(text: string): number {
  if (text.trim() === '') return -1;
  const match = /^\s*([+-]?\d+)([kKmM]?)\s*$/.exec(text);
  const n = match ? Number(match[1]) * (/k/i.test(match[2]!) ? 1024 : /m/i.test(match[2]!) ? 1024 * 1024 : 1) : NaN;
  // Slurm keeps counts in an int; larger ones are not counts.
  if (!Number.isSafeInteger(n) || n > 0x7fffffff) throw notNodeCount(text);
  return n;
}

function notNodeCount(text: string): UserError {
  return new UserError(`"${text}" is not a valid node count`, { exitCode: 255 });
}

/** srun's and sbatch's fatal() when more than one memory option is given on the command line. */
export const MEM_OPTIONS_EXCLUSIVE = '--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.';
