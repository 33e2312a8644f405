// tsqueue's options and environment turned into what to list and how, as squeue 22.05's
// parse_command_line() does; messages and exit statuses observed on Slurm 22.05.
import { UserError, UserErrorReport } from '../../core/errors.js';
import { compressHostlistSorted, expandHostlist } from '../../core/hostlist.js';
import { uidForName } from '../../os/users.js';
import type { JobIdSpec, SqueueFilter } from '../../cli/format/squeue-filter.js';
import { layoutFromFormat, layoutFromLongFormat, type SqueueLayout } from '../../cli/format/squeue-print.js';
import { DEFAULT_SQUEUE_SORT } from '../../cli/format/squeue-sort.js';
import { optionLines } from './options-dump.js';
import { parseStates } from './states.js';

export interface TsqueueOptions {
  account?: string;
  all?: boolean;
  array?: boolean;
  arrayUnique?: boolean;
  noheader?: boolean;
  hide?: boolean;
  iterate?: string;
  jobs?: string | true;
  json?: boolean;
  yaml?: boolean;
  long?: boolean;
  licenses?: string;
  me?: boolean;
  name?: string;
  format?: string;
  Format?: string;
  partitions?: string;
  qos?: string;
  reservation?: string;
  sort?: string;
  start?: boolean;
  states?: string;
  user?: string;
  nodelist?: string;
  noconvert?: boolean;
  verbose: number;
  cluster?: string;
}

export interface TsqueueParams {
  output: 'table' | 'json' | 'yaml';
  layout: SqueueLayout;
  filter: SqueueFilter;
  sort: string;
  header: boolean;
  /** The date line above each listing (-l, -i, -v). */
  date: boolean;
  /** -r: one array task per line. */
  array: boolean;
  arrayUnique: boolean;
  /** Seconds between listings; 0 lists once. */
  iterate: number;
  /** --noconvert: sizes as given (`2048M`, not `2G`). */
  noConvert: boolean;
  verbose: number;
  /** One job named with -j: the controller is asked for it alone, as slurm_load_job() does. */
  singleJob: number | undefined;
  /** -u with one user (the -v line's last_update_time is 0 then). */
  singleUser: boolean;
  /** Messages squeue prints on stderr and goes on (`Invalid user: x`). */
  warnings: string[];
  /** What -v prints first: squeue's _print_options(). */
  optionLines: string[];
}

const FORMATS = {
  // squeue 22.05 sets these as -O strings (squeue.c _print_job); same output as
  // `%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R`.
  normal: 'jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,statecompact:.2 ,timeused:.10 ,numnodes:.6 ,reasonlist:0',
  long: 'jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,state:.8 ,timeused:.10 ,timelimit:.9 ,numnodes:.6 ,reasonlist:0',
  start: '%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R',
};

export interface ParamsContext {
  bin: string;
  env: NodeJS.ProcessEnv;
  /** The order -o and -O came in, for squeue's "incompatible" message. */
  formatOrder: Array<'o' | 'O'>;
  /** Node names of the cluster, for -w. */
  nodeNames: readonly string[];
  hostname: string;
  euid: number;
}

export function tsqueueParams(o: TsqueueOptions, ctx: ParamsContext): TsqueueParams {
  const { env, bin } = ctx;
  const warnings: string[] = [];
  if (o.format !== undefined && o.Format !== undefined) {
    const [first] = ctx.formatOrder;
    throw new UserError(first === 'o' ? '-O (--Format) is incompatible with -o (--format)' : '-o (--format) is incompatible with -O (--Format)');
  }
  const iterate = o.iterate === undefined ? 0 : atoi(o.iterate);
  // squeue's message ends in its own newline: a blank line follows.
  if (o.iterate !== undefined && iterate <= 0) throw new UserErrorReport([{ error: `--iterate=${o.iterate}` }, { plain: '' }]);
  const jobs = typeof o.jobs === 'string' ? parseJobList(o.jobs) : null;
  // Slurm's own word here is fatal.
  if (o.long && o.format !== undefined) {
    throw new UserError('fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.');
  }

  let format = o.format;
  let formatLong = o.Format;
  if (format === undefined && formatLong === undefined && !o.long && !o.start) {
    format = env.SQUEUE_FORMAT || undefined;
    if (format === undefined) formatLong = env.SQUEUE_FORMAT2 || undefined;
  }
  const nodes = o.nodelist === undefined ? null : nodeSet(o.nodelist, ctx);
  const namesText = o.name ?? env.SQUEUE_NAMES;
  const partitionsText = o.partitions ?? env.SQUEUE_PARTITION;
  let statesText = o.states ?? env.SQUEUE_STATES;
  const usersText = o.me ? String(ctx.euid) : (o.user ?? env.SQUEUE_USERS);
  let sort = o.sort ?? env.SQUEUE_SORT;
  if (o.start) {
    format ??= FORMATS.start;
    sort ??= 'S';
    statesText ??= 'PD';
  }
  const states = statesText === undefined ? null : parseStates(statesText);
  const users = usersText === undefined ? null : parseUsers(usersText, warnings);
  if (!(format ?? formatLong)) formatLong = o.long ? FORMATS.long : FORMATS.normal;
  const layout = format !== undefined ? layoutFromFormat(format) : layoutFromLongFormat(formatLong!);
  const all = Boolean(o.all || partitionsText !== undefined || env.SQUEUE_ALL) && !o.hide;

  const params: TsqueueParams = {
    output: o.json ? 'json' : o.yaml ? 'yaml' : 'table',
    layout,
    filter: {
      jobs,
      states,
      users,
      names: list(namesText),
      partitions: list(partitionsText),
      nodes,
      reservations: list(o.reservation),
      // Nothing in tslurm has an account, QOS or license, so naming one leaves no job.
      none: [o.account ?? env.SQUEUE_ACCOUNT, o.qos ?? env.SQUEUE_QOS, o.licenses].some((v) => v !== undefined),
    },
    sort: sort ?? DEFAULT_SQUEUE_SORT,
    header: !o.noheader,
    date: !o.noheader && (iterate > 0 || o.verbose > 0 || Boolean(o.long)),
    array: Boolean(o.array || env.SQUEUE_ARRAY),
    arrayUnique: Boolean(o.arrayUnique || env.SQUEUE_ARRAY_UNIQUE),
    iterate,
    noConvert: Boolean(o.noconvert),
    verbose: o.verbose,
    singleJob: jobs?.length === 1 ? jobs[0]!.id : undefined,
    singleUser: users?.length === 1,
    warnings,
    optionLines: [],
  };
  if (o.verbose > 0) {
    params.optionLines = optionLines(params, {
      all,
      format: format ?? null,
      jobFlag: o.jobs !== undefined,
      jobs: typeof o.jobs === 'string' ? o.jobs : null,
      names: namesText ?? null,
      nodes: nodes ? compressHostlistSorted([...nodes]) : '',
      partitions: partitionsText ?? null,
      reservation: o.reservation ?? null,
      sort: sort ?? null,
      start: Boolean(o.start),
      states: statesText ?? null,
      users: usersText ?? null,
      licenses: o.licenses ?? null,
    });
  }
  return params;
}

/** -j: `12,13_2`; an id that is not a positive number is refused (squeue's strtol reading). */
export function parseJobList(text: string): JobIdSpec[] {
  return tokens(text).map((token) => {
    const [id, rest] = strtol(token);
    const task = rest.startsWith('_') ? strtol(rest.slice(1))[0] : undefined;
    if (id <= 0) throw new UserError(`Invalid job id: ${token}`);
    return { id, task };
  });
}

// An unknown user is reported (with squeue's blank line after it) and skipped; the listing goes on.
function parseUsers(text: string, warnings: string[]): number[] {
  const uids: number[] = [];
  for (const name of tokens(text)) {
    const uid = uidForName(name);
    if (uid === undefined) warnings.push(`Invalid user: ${name}\n`);
    else uids.push(uid);
  }
  return uids;
}

function nodeSet(text: string, ctx: ParamsContext): Set<string> {
  let names: string[];
  try {
    names = expandHostlist(text);
  } catch {
    throw new UserError(`'${text}' invalid entry for --nodelist`);
  }
  const known = new Set(ctx.nodeNames);
  const out = new Set<string>();
  for (const name of names) {
    const node = name.toLowerCase() === 'localhost' ? ctx.hostname : name;
    if (!known.has(node)) throw new UserError(`Invalid node name ${name}`);
    out.add(node);
  }
  return out;
}

/** strtok() on commas: empty items vanish. */
function tokens(text: string): string[] {
  return text.split(',').filter((t) => t !== '');
}

function list(text: string | undefined): string[] | null {
  return text === undefined ? null : tokens(text);
}

/** strtol(text, &end, 10): the number (0 when none) and what follows it. */
function strtol(text: string): [number, string] {
  const match = /^\s*[+-]?\d+/.exec(text);
  return match ? [Number.parseInt(match[0], 10), text.slice(match[0].length)] : [0, text];
}

/** atoi(): leading digits, `1.5` is 1, `abc` is 0. */
function atoi(text: string): number {
  return strtol(text)[0];
}
