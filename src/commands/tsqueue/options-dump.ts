// What `tsqueue -v` prints before anything else: squeue's _print_options(), with its layout
// and its oddities (`sibling      =`, name_list entries printed as the code of the name's first
// character), and with -vv the lists it parsed.
import { jobStateString } from '../../core/job-state.js';
import type { SqueueFilter } from '../../cli/format/squeue-filter.js';

/** What squeue made of the options that it prints (tsqueue's params). */
export interface Parsed {
  array: boolean;
  iterate: number;
  verbose: number;
  filter: SqueueFilter;
}

/** The option texts as given, which squeue prints rather than what it made of them. */
export interface Shown {
  all: boolean;
  format: string | null;
  jobFlag: boolean;
  jobs: string | null;
  names: string | null;
  nodes: string;
  partitions: string | null;
  reservation: string | null;
  sort: string | null;
  start: boolean;
  states: string | null;
  users: string | null;
  licenses: string | null;
}

export function optionLines(p: Parsed, s: Shown): string[] {
  const str = (v: string | null): string => v ?? '(null)';
  const lines = [
    '-----------------------------',
    `all         = ${s.all}`,
    `array       = ${p.array}`,
    'federation  = false',
    `format      = ${str(s.format)}`,
    `iterate     = ${p.iterate}`,
    `job_flag    = ${s.jobFlag ? 1 : 0}`,
    `jobs        = ${str(s.jobs)}`,
    `licenses    = ${str(s.licenses)}`,
    'local       = false',
    `names       = ${str(s.names)}`,
    `nodes       = ${s.nodes}`,
    `partitions  = ${str(s.partitions)}`,
    'priority    = false',
    `reservation = ${str(s.reservation)}`,
    'sibling      = false',
    `sort        = ${str(s.sort)}`,
    `start_flag  = ${s.start ? 1 : 0}`,
    `states      = ${str(s.states)}`,
    'step_flag   = 0',
    'steps       = (null)',
    `users       = ${str(s.users)}`,
    `verbose     = ${p.verbose}`,
  ];
  if (p.verbose > 1) {
    const f = p.filter;
    f.jobs?.forEach((j, i) => lines.push(`job_list[${i}] = ${j.task === undefined ? j.id : `${j.id}_${j.task}`}`));
    f.names?.forEach((n, i) => lines.push(`name_list[${i}] = ${n.charCodeAt(0)}`));
    f.partitions?.forEach((n, i) => lines.push(`part_list[${i}] = ${n}`));
    if (f.states === 'all') lines.push('state_list = all');
    else f.states?.forEach((st, i) => lines.push(`state_list[${i}] = ${jobStateString(st)}`));
    f.users?.forEach((u, i) => lines.push(`user_list[${i}] = ${u}`));
  }
  lines.push('-----------------------------', '', '');
  return lines;
}
