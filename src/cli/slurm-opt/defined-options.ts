// srun's and sbatch's `-v` report of the options given (slurm_opt.c's
// slurm_print_set_options): a ruled block of `name : value` lines in name order, printed
// before anything else happens (observed, /work/ref/srun-v.txt).
import { minsToTimeStr, parseTimeLimitOption } from '../../core/time-string.js';
import type { Occurrence } from './spec.js';

const RULE = '-------------------- --------------------';

export function definedOptionsLines(options: readonly Occurrence[]): string[] {
  const byName = new Map<string, string>();
  let verbose = 0;
  for (const { spec, value } of options) {
    if (spec.key === 'verbose') verbose += 1;
    else if (spec.section === 'help' || spec.section === 'other' || spec.section === 'tslurm') continue;
    else byName.set(displayName(spec.long), shown(spec.long, spec.arg === 'none' ? undefined : value, spec.flagValue));
  }
  if (verbose > 0) byName.set('verbose', String(verbose));
  const rows = [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return ['defined options', RULE, ...rows.map(([name, value]) => `${name.padEnd(20)}: ${value}`), RULE, 'end of defined options'];
}

// Aliases report under the option's own name.
function displayName(long: string): string {
  return ({ cpu_bind: 'cpu-bind', 'tasks-per-node': 'ntasks-per-node', 'pack-group': 'het-group' } as Record<string, string>)[long] ?? long;
}

function shown(long: string, value: string | undefined, flagValue: string | boolean | undefined): string {
  if (value === undefined) {
    if (long === 'kill-on-bad-exit') return '1';
    if (flagValue === false) return 'unset';
    return 'set';
  }
  if (long === 'time' || long === 'time-min') {
    try {
      return minsToTimeStr(parseTimeLimitOption(value, `--${long}`));
    } catch {
      return value;
    }
  }
  if (long === 'open-mode') return value.slice(0, 1).toLowerCase();
  if (long === 'signal') return value.replace(/^[RB]*:/i, '').replace(/@.*/, '');
  return value;
}
