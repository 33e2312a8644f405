// srun's -i/-o/-e values: the special forms (all, none, a task id) and file name patterns
// ("out-%j-%2t.txt"), as srun and slurmstepd read them in Slurm 22.05
// (src/srun/libsrun/fname.c, src/slurmd/common/fname.c).

/** Where a task's stdin comes from, or where its stdout/stderr go. */
export type IoOption =
  /** Default: srun's own stdin goes to every task; output comes back to srun's terminal. */
  | { kind: 'all' }
  /** /dev/null for every task. */
  | { kind: 'none' }
  /** Only this task reads srun's stdin, or only its output is shown; the others get /dev/null. */
  | { kind: 'task'; taskId: number }
  /**
   * A file. `perTask`: the name depends on the task or node (%t %n %N %u), so each task
   * opens its own, on its node; otherwise srun opens one file for all tasks. `literal`: the
   * value had a backslash, so the backslashes were removed and nothing is expanded.
   */
  | { kind: 'file'; pattern: string; perTask: boolean; literal: boolean };

/** Reads a -i/-o/-e value for a step of `ntasks` tasks. */
export function classifyIoOption(value: string | undefined, ntasks: number): IoOption {
  // Slurm compares only the first three letters, so "allout.txt" also means all.
  if (value === undefined || value.slice(0, 3).toLowerCase() === 'all' || value.startsWith('-')) {
    return { kind: 'all' };
  }
  if (value.toLowerCase() === 'none') return { kind: 'none' };
  // strtoul's rules: leading blanks and "+" are fine; "" reads as 0 (observed: -o '' shows
  // task 0 only). A number that is not a task id is a file name.
  if (/^\s*\+?\d*$/.test(value)) {
    const taskId = Number(value.trim() || '0');
    if (taskId < ntasks) return { kind: 'task', taskId };
  }
  if (value.includes('\\')) {
    return { kind: 'file', pattern: value.replaceAll('\\', ''), perTask: false, literal: true };
  }
  return { kind: 'file', pattern: value, perTask: isPerTask(value), literal: false };
}

/** What the pattern's %-conversions are filled from. */
export interface IoPatternContext {
  jobId: number;
  stepId: number;
  taskId?: number;
  /** SLURM_NODEID of the task's node. */
  nodeId?: number;
  /** %N: Slurm prints the node's host name; with one host per node that is its name. */
  nodeName?: string;
  userName?: string;
  /** %x: srun takes SLURM_JOB_NAME from its own environment, else the job's name. */
  jobName?: string;
  arrayJobId?: number;
  arrayTaskId?: number;
}

// %a outside an array job prints NO_VAL, as Slurm does.
const NO_VAL = 0xfffffffe;
// Zero padding is capped at ten digits ("%12t" gives "0000000000").
const MAX_WIDTH = 10;
const CONVERSION = /%(%|(\d*)([AaJjsntNux])|(\d+))/g;

/** True when a pattern names a file per task or per node: %t, %n, %N or %u, with or without width. */
export function isPerTask(pattern: string): boolean {
  const letters = [...pattern.matchAll(CONVERSION)].map((match) => match[3] ?? '');
  return letters.some((letter) => letter !== '' && 'tnNu'.includes(letter));
}

/** The file name for one task: "out-%j-%2t.txt" → "out-5-01.txt". */
export function expandIoPattern(pattern: string, ctx: IoPatternContext): string {
  if (pattern.includes('\\')) return pattern.replaceAll('\\', '');
  return expandConversions(pattern, (letter, pad) => {
    const padded = (n: number | undefined): string => pad(required(n, letter));
    switch (letter) {
      case 'A':
        return padded(ctx.arrayJobId ?? ctx.jobId);
      case 'a':
        return padded(ctx.arrayTaskId ?? NO_VAL);
      case 'J':
        return `${padded(ctx.jobId)}.${ctx.stepId}`;
      case 'j':
        return padded(ctx.jobId);
      case 's':
        return padded(ctx.stepId);
      case 't':
        return padded(ctx.taskId);
      case 'n':
        return padded(ctx.nodeId);
      case 'N':
        return required(ctx.nodeName, letter);
      case 'u':
        return required(ctx.userName, letter);
      default:
        return required(ctx.jobName, 'x');
    }
  });
}

/**
 * Slurm's conversion rules, shared by the srun and batch forms: `%%` is `%`; `%5` before an
 * unknown letter or at the end loses its `%` ("a%5" → "a5"); a width pads numbers with zeros,
 * capped at ten digits. `convert` gives the text of one letter.
 */
function expandConversions(pattern: string, convert: (letter: string, pad: (n: number) => string) => string): string {
  type Groups = [string, string | undefined, string | undefined, string | undefined];
  return pattern.replace(CONVERSION, (whole, ...[_body, width, letter, digitsOnly]: Groups) => {
    if (whole === '%%') return '%';
    if (digitsOnly !== undefined) return digitsOnly;
    const digits = Math.min(Number(width || 0), MAX_WIDTH);
    return convert(letter!, (n) => String(n).padStart(digits, '0'));
  });
}

// A per-task conversion expanded without its value is the caller's bug.
function required<T>(value: T | undefined, letter: string): T {
  if (value === undefined) throw new RangeError(`expandIoPattern: no value for %${letter}`);
  return value;
}

/** What a batch job's -o/-e/-i pattern is filled from (slurmd's fname.c for the batch step). */
export interface BatchPatternContext {
  jobId: number;
  /** Set for array tasks only. */
  arrayJobId?: number;
  arrayTaskId?: number;
  jobName: string;
  /** %N: the job's first node (Slurm prints that node's host name). */
  nodeName: string;
  user: string;
  /** Relative names are relative to it (-D, else the submit directory). */
  workDir: string;
}

/**
 * The absolute file a batch job's stdout/stderr/stdin pattern names. No pattern gives sbatch's
 * default, slurm-%j.out (slurm-%A_%a.out for an array task); "none" (any case) is /dev/null.
 * The batch step is the step called "batch", so %s is "batch" and %J the bare job id; %t and
 * %n are 0; outside an array %A is the job id and %a NO_VAL. Widths and backslashes as for
 * srun (observed on Slurm 22.05: -o 'o-%j-%x-%A-%a-%N-%u-%%-%J-%s-%4a-%4j-%t-%n.out' as job
 * 441 named nm wrote o-441-nm-441-4294967294-vm-root-%-441-batch-4294967294-0441-0-0.out).
 */
export function batchOutputPath(pattern: string | undefined, ctx: BatchPatternContext): string {
  const given = pattern ?? (ctx.arrayTaskId === undefined ? 'slurm-%j.out' : 'slurm-%A_%a.out');
  if (given.toLowerCase() === 'none') return '/dev/null';
  const name = given.includes('\\') ? given.replaceAll('\\', '') : expandBatchPattern(given, ctx);
  return name.startsWith('/') ? name : `${ctx.workDir.replace(/\/+$/, '')}/${name}`;
}

function expandBatchPattern(pattern: string, ctx: BatchPatternContext): string {
  return expandConversions(pattern, (letter, pad) => {
    switch (letter) {
      case 'A':
        return pad(ctx.arrayJobId ?? ctx.jobId);
      case 'a':
        return pad(ctx.arrayTaskId ?? NO_VAL);
      case 'J':
      case 'j':
        return pad(ctx.jobId);
      case 's':
        return 'batch';
      case 't':
      case 'n':
        return pad(0);
      case 'N':
        return ctx.nodeName;
      case 'u':
        return ctx.user;
      default:
        return ctx.jobName;
    }
  });
}
