// The job options srun and sbatch share beyond the core counts (account, qos, mail,
// --signal, --nice, --time-min, --gpus-per-*, --mincpus, --tmp, ...), checked with Slurm
// 22.05's messages and exit statuses (observed, /work/ref/srun-option-values.txt), and the
// options tslurm records without acting on. A value is checked when its source is read.
import { constants } from 'node:os';
import { UserError } from '../core/errors.js';
import { parseMemoryMB } from '../core/memory-size.js';
import { parseTimeLimitOption } from '../core/time-string.js';
import { parseGpusOption } from '../ctld/gres-request.js';
import type { JobExtras, JobSignal } from '../protocol/job-desc.js';

type Raw = Readonly<Record<string, unknown>>;

/** Options kept on the job as given, by long name; tslurm has nothing that acts on them. */
const RECORDED: readonly string[] = [
  'acctg-freq', 'bb', 'bbf', 'cluster-constraint', 'clusters', 'container', 'core-spec', 'cpu-freq', 'deadline',
  'delay-boot', 'extra-node-info', 'gpu-bind', 'gpu-freq', 'gpus-per-socket', 'gres-flags', 'licenses', 'mcs-label',
  'mem-bind', 'network', 'no-kill', 'ntasks-per-core', 'ntasks-per-gpu', 'ntasks-per-socket', 'oversubscribe', 'power',
  'prefer', 'priority', 'profile', 'cores-per-socket', 'sockets-per-node', 'threads-per-core', 'spread-job', 'switches',
  'thread-spec', 'use-min-nodes', 'wait-all-nodes', 'x11', 'power', 'batch', 'export-file', 'get-user-env', 'ignore-pbs',
];

/** What Slurm would do with an option tslurm only records (said once under -v). */
export const NOT_ACTED_ON: Readonly<Record<string, string>> = {
  'mail-type': 'tslurm sends no mail',
  'mail-user': 'tslurm sends no mail',
  account: 'tslurm has no accounting associations; the account is recorded only',
  qos: 'tslurm has no QOS limits; the QOS is recorded only',
  wckey: 'tslurm has no accounting; the wckey is recorded only',
  hint: 'tslurm binds no tasks; the hint is recorded only',
  reboot: 'tslurm reboots no nodes; the request is recorded only',
  licenses: 'tslurm has no licenses; the request is recorded only',
};

// In the order scontrol prints them (observed: ARRAY_TASKS,INVALID_DEPEND,BEGIN,...).
/** The -v notes for the options given that tslurm records without acting on, each once. */
export function notActedOnNotes(longNames: readonly string[]): string[] {
  const notes: string[] = [];
  for (const long of longNames) {
    const why = NOT_ACTED_ON[long];
    if (why !== undefined && !notes.some((n) => n.endsWith(why))) notes.push(`--${long}: ${why}`);
  }
  return notes;
}

const MAIL_TYPES = ['ARRAY_TASKS', 'INVALID_DEPEND', 'BEGIN', 'END', 'FAIL', 'REQUEUE', 'STAGE_OUT', 'TIME_LIMIT', 'TIME_LIMIT_90', 'TIME_LIMIT_80', 'TIME_LIMIT_50'];
const MAIL_ALL = ['INVALID_DEPEND', 'BEGIN', 'END', 'FAIL', 'REQUEUE', 'STAGE_OUT'];
const HINTS = ['compute_bound', 'memory_bound', 'multithread', 'nomultithread'];

export const HINT_HELP = [
  'Application hint options:',
  '    --hint=             Bind tasks according to application hints',
  '        compute_bound   use all cores in each socket',
  '        memory_bound    use only one core in each socket',
  "        [no]multithread [don't] use extra threads with in-core multi-threading",
  '        help            show this help message',
].join('\n');

/** The shared options of one source, checked; keys absent when not given. */
export function checkJobExtras(raw: Raw, command: 'srun' | 'sbatch' | 'salloc'): JobExtras {
  const out: JobExtras = {};
  const text = (key: string): string | undefined => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  for (const key of ['account', 'qos', 'wckey', 'mailUser'] as const) if (text(key) !== undefined) out[key] = text(key)!;
  if (raw.mailType !== undefined) out.mailType = parseMailType(String(raw.mailType));
  if (raw.nice !== undefined) out.nice = parseNice(raw.nice);
  if (text('timeMin') !== undefined) out.timeMin = parseTimeLimitOption(text('timeMin')!, '--time-min');
  if (text('signal') !== undefined) out.signal = parseSignal(text('signal')!, command);
  if (text('gpusPerNode') !== undefined) out.gpusPerNode = checkGpus(text('gpusPerNode')!);
  if (text('gpusPerTask') !== undefined) out.gpusPerTask = checkGpus(text('gpusPerTask')!);
  if (text('memPerGpu') !== undefined) out.memPerGpu = parseMemoryMB(text('memPerGpu')!, '--mem-per-gpu');
  if (text('cpusPerGpu') !== undefined) out.cpusPerGpu = positive(text('cpusPerGpu')!, '--cpus-per-gpu');
  if (text('mincpus') !== undefined) out.minCpusPerNode = positive(text('mincpus')!, '--mincpus');
  if (text('tmp') !== undefined) out.tmpDisk = parseMemoryMB(text('tmp')!, '--tmp');
  if (text('hint') !== undefined) out.hint = parseHint(text('hint')!);
  if (raw.reboot === true) out.reboot = true;
  // -k's argument: set, off or no (any case), else refused at once (observed on 22.05).
  if (typeof raw.noKill === 'string' && !['set', 'off', 'no'].includes(raw.noKill.toLowerCase())) {
    throw new UserError('Invalid --no-kill specification', { exitCode: 255 });
  }
  const recorded: Record<string, string> = {};
  for (const long of RECORDED) {
    const value = raw[long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())];
    if (value !== undefined) recorded[long] = value === true ? 'set' : String(value);
  }
  if (Object.keys(recorded).length > 0) out.recorded = recorded;
  return out;
}

/** `Invalid numeric value "x" for --opt.` (exit 1) unless a positive integer. */
function positive(value: string, option: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number.parseInt(value, 10) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new UserError(`Invalid numeric value "${value}" for ${option}.`);
  return n;
}

/** A non-negative count (-W, --immediate): the same message, 0 allowed. */
export function nonNegative(value: string, option: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number.parseInt(value, 10) : NaN;
  if (!Number.isSafeInteger(n) || n > 0x7fffffff) throw new UserError(`Invalid numeric value "${value}" for ${option}.`);
  return n;
}

// parse_mail_type(): a comma list; an empty value or one with no known type is invalid.
// The result is in scontrol's order, ALL spelled out; NONE is ''.
function parseMailType(value: string): string {
  const given = value.split(',').map((t) => t.trim().toUpperCase());
  const known = given.filter((t) => t === 'ALL' || t === 'NONE' || MAIL_TYPES.includes(t));
  if (known.length === 0) throw new UserError('Invalid --mail-type specification', { exitCode: 255 });
  if (known.includes('NONE')) return '';
  const wanted = new Set(known.flatMap((t) => (t === 'ALL' ? MAIL_ALL : [t])));
  return MAIL_TYPES.filter((t) => wanted.has(t)).join(',');
}

// --nice alone is 100; a value is read as strtol reads it (no digits: 0), within +/- 2147483645.
function parseNice(value: unknown): number {
  if (value === true) return 100;
  const match = /^\s*([+-]?\d+)/.exec(String(value));
  const n = match ? Number(match[1]) : 0;
  if (Math.abs(n) > 2147483645) throw new UserError('Invalid --nice value, out of range (+/- 2147483645)', { exitCode: 255 });
  return n;
}

function parseHint(value: string): string {
  for (const hint of value.split(',')) {
    if (!HINTS.includes(hint.trim().toLowerCase())) throw new UserError(`unrecognized --hint argument "${value}", see --hint=help`);
  }
  return value;
}

function checkGpus(value: string): string {
  parseGpusOption(value);
  return value;
}

/**
 * `--signal=[R:|B:|RB:]SIG[@TIME]` (srun takes only `R:`): SIG a number or name (with or
 * without SIG), TIME seconds before the time limit, 60 when not given, at most 65535.
 */
export function parseSignal(value: string, command: 'srun' | 'sbatch' | 'salloc'): JobSignal {
  const invalid = (): never => {
    throw new UserError('Invalid --signal specification', { exitCode: 255 });
  };
  const match = /^(?:([RB]{1,2}):)?([^@]+)(?:@(.*))?$/i.exec(value) ?? invalid();
  const flags = (match[1] ?? '').toUpperCase();
  if (command !== 'sbatch' && flags.includes('B')) invalid();
  const sig = match[2]!.trim();
  let signal: number;
  if (/^\d+$/.test(sig)) signal = Number(sig);
  else {
    const name = sig.toUpperCase().startsWith('SIG') ? sig.toUpperCase() : `SIG${sig.toUpperCase()}`;
    signal = (constants.signals as Record<string, number>)[name] ?? 0;
  }
  if (signal <= 0 || signal > 127) invalid();
  let seconds = 60;
  if (match[3] !== undefined) {
    if (!/^\d+$/.test(match[3])) invalid();
    seconds = Number(match[3]);
    if (seconds > 0xffff) invalid();
  }
  return { signal, seconds, batchOnly: flags.includes('B'), reservation: flags.includes('R'), text: value };
}
