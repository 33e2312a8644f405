// srun's, sbatch's and salloc's `-v` report of the options given (slurm_opt.c's
// slurm_print_set_options): a ruled block of `name : value` lines in name order, printed
// before anything else happens (observed, /work/ref/srun-v.txt).
import { minsToTimeStr, parseTimeLimitOption } from '../../core/time-string.js';
import { notActedOnNotes } from '../job-extras.js';
import type { Occurrence } from './spec.js';

const RULE = '-------------------- --------------------';

/** `-v`: the report, then a note on each option given that tslurm does not act on; each line after "<bin>: ". */
export function printDefinedOptions(bin: string, given: readonly Occurrence[]): void {
  const notes = notActedOnNotes(given.map((o) => o.spec.long));
  process.stderr.write([...definedOptionsLines(given), ...notes].map((line) => `${bin}: ${line}\n`).join(''));
}

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

// What an option given without a value reads as (observed: /work/ref/srun-v.txt, salloc-v.txt).
const BARE: Readonly<Record<string, string>> = {
  'kill-on-bad-exit': '1',
  immediate: '1',
  nice: '100',
  exclusive: 'exclusive',
  'kill-command': 'TERM',
  'get-user-env': '0',
  bell: 'bell-always',
  'no-bell': 'bell-never',
};

function shown(long: string, value: string | undefined, flagValue: string | boolean | undefined): string {
  if (value === undefined) return BARE[long] ?? (flagValue === false ? 'unset' : 'set');
  if (long === 'no-kill' && ['off', 'no'].includes(value.toLowerCase())) return 'unset';
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
