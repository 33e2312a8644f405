// Fuzzing the commands as a user meets them (issue 16, "every input gets one clear line"):
// argument vectors drawn by fast-check from each command's options and from values that are
// plausible, malformed or hostile, each run through the real bin. What must hold for every
// run is in `verdict`. The seed is fixed (TSLURM_FUZZ_SEED overrides it, TSLURM_FUZZ_RUNS the
// count) and every failure is reported as the command line that reproduces it.
import fc from 'fast-check';
import { repoRoot, runBin, type BinResult, type RunOptions } from './run-bin.js';

export const FUZZ_SEED = Number(process.env.TSLURM_FUZZ_SEED ?? 16_2026);
export const FUZZ_RUNS = Number(process.env.TSLURM_FUZZ_RUNS ?? 16);

/** One option of a command: its spellings and whether it takes a value. */
export interface OptionSpec {
  short?: string;
  long: string;
  value: 'none' | 'required' | 'optional';
  /** Values that mean something to this option, drawn besides the shared pools. */
  values?: readonly string[];
}

/** Most output one run may print (execa's maxBuffer kills the bin past it). */
const OUTPUT_LIMIT = 4_000_000;

// Values any option may meet: numbers at and past their limits, empty and blank text,
// format and pattern characters, paths that do not exist, hostlists that explode.
const HOSTILE = [
  '', ' ', '-', '--', '=', ',', ':', '%', '%%', '%.999999999P', '%999999999i', '\\', '"', "'", '$(true)', '`true`',
  '0', '-0', '-1', '-3', '+5', '00', '1.5', '1e99', '-1e99', 'NaN', 'Infinity', '0x10', '4294967295', '4294967296',
  '18446744073709551615', '99999999999999999999999', '9007199254740993', '2147483648',
  'abc', 'ü', '日本', '🙂', 'a'.repeat(5000), '/nonexistent/x/%t', '/tmp', '/dev/null', '/etc/hostname', '../../..',
  'node[', 'node[1-99999999]', 'n[1-3', '[]', '[1-2]', 'node]', 'ALL', 'NONE', 'UNLIMITED', 'INFINITE',
  'now+99999999999', '-1-00:00:00', '99999999:99:99', '1-', '-5', '5-1', '0-3%0', '0-3%-1', '1:2:3:4:5',
  'afterok:99999999', 'afterok:', 'afterok:abc', 'after', 'singleton?', 'gpu:-1', 'gpu:a:b:c', 'plane=0', 'plane=',
];

const PLAUSIBLE = [
  '1', '2', '4', '8', '16', '10', '60', '1-2', '2-4', 'debug', 'node1', 'node[1-2]', 'node[1-4]', '1:00', '00:30',
  '1-00:00:00', 'now', 'now+1hour', 'tomorrow', 'afterok:1', 'afterany:1:2', '0-3', '1,3,5', '0-7:2%2', '100M', '1G',
  '2048', 'gpu:1', 'block', 'cyclic', 'plane=2', 'block:cyclic', 'all', 'none', 'slurm-%j.out', 'out-%A_%a.txt',
  'yes', 'no', 'append', 'truncate', 'root', 'PD', 'R', 'PENDING,RUNNING', 'idle', 'P', '-t', '%P %D', '%.10i %T',
  'JobID,Name:20', 'partition,nodes', 'USR1', 'SIGTERM', '9', 'KILL', 'pmi2', 'none', 'list', 'lz4',
];

// Command lines never contain NUL (execve cannot carry it).
const text = fc.string({ maxLength: 12 }).filter((s) => !s.includes('\0'));

/** A value for `option`: its own words, plausible ones, hostile ones or random text. */
export function valueFor(option: OptionSpec): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(option.values ?? PLAUSIBLE)), weight: option.values ? 6 : 3 },
    { arbitrary: fc.constantFrom(...PLAUSIBLE), weight: 2 },
    { arbitrary: fc.constantFrom(...HOSTILE), weight: 4 },
    { arbitrary: fc.integer({ min: -10, max: 100_000 }).map(String), weight: 1 },
    { arbitrary: text, weight: 1 },
  );
}

/** One use of an option as getopt takes it: `-n 4`, `-n4`, `--ntasks=4`, `--ntasks 4`, a flag. */
function optionUse(option: OptionSpec): fc.Arbitrary<string[]> {
  const flag = fc.constantFrom(...[option.short ? `-${option.short}` : undefined, `--${option.long}`].filter((f) => f !== undefined));
  if (option.value === 'none') return flag.map((f) => [f]);
  const withValue = fc.tuple(fc.constantFrom('separate', 'joined'), valueFor(option), fc.boolean()).map(([form, value, long]) => {
    const name = long || !option.short ? `--${option.long}` : `-${option.short}`;
    if (form === 'separate') return [name, value];
    return [name.startsWith('--') ? `${name}=${value}` : `${name}${value}`];
  });
  // A value-taking option with nothing after it (it ends the command line) is tried too.
  return option.value === 'optional' ? fc.oneof(withValue, flag.map((f) => [f])) : withValue;
}

const STRAYS = ['--bogus', '-Z', '--', '-', '---', '--=', '-vvvv', '--help=x', '--cluster', '--cluster=/nonexistent.yaml'];

/** Command lines of 1 to `most` option uses, sometimes with an unknown option or a stray word. */
export function argvOf(options: readonly OptionSpec[], tail: fc.Arbitrary<string[]>, most = 4): fc.Arbitrary<string[]> {
  const use = fc.oneof(
    { arbitrary: fc.constantFrom(...options).chain(optionUse), weight: 9 },
    { arbitrary: fc.constantFrom(...STRAYS).map((s) => [s]), weight: 1 },
  );
  return fc.tuple(fc.array(use, { minLength: 1, maxLength: most }), tail).map(([uses, end]) => [...uses.flat(), ...end]);
}

/** Draws `runs` command lines with the fixed seed. */
export function drawArgvs(arb: fc.Arbitrary<string[]>, runs = FUZZ_RUNS, salt = 0): string[][] {
  return fc.sample(arb, { seed: FUZZ_SEED + salt, numRuns: runs });
}

/**
 * Message lines Slurm 22.05 prints without the command's name, kept on purpose (each observed,
 * see /work/ref/cli-errors.txt): getopt's hint, scancel's and scontrol's bare texts, the
 * slurm_perror() lines, scontrol's per-job refusals.
 */
const BARE_SLURM_LINES = [
  /^Try "\S+ --help" for more information$/,
  /^slurm_load_jobs error: /,
  /^Invalid job state specified: /,
  /^Valid job states are PENDING, RUNNING, and SUSPENDED$/,
  /^No valid entity in update command$/,
  /^Input line must include "NodeName", /,
  /^Unknown job signal: /,
  /^Invalid time specification \(pos=\d+\): /,
  /^(Invalid job id specified|Unexpected message received|Job\/step already completing or completed|Access\/permission denied|Requested operation is presently disabled|Job is pending execution|Requested operation not supported on this job) for job /,
  /^\S+: Invalid job id specified$/,
  /^Node \S+ not found$/,
  /^too (many|few) arguments for keyword:\S+$/,
  /^invalid (keyword|entity|write argument)/,
  /^"[^"]*" does not look like a jobid$/,
  /^Invalid job_id /,
];

/** Lines Slurm prints after a first one about the same problem (observed, as above). */
const SLURM_CONTINUATIONS = [
  /^Try "\S+ --help" for more information$/,
  /^\S+: error: Valid job states include: /,
  /^\S+: error: valid states: /,
  /^Valid job states are PENDING, RUNNING, and SUSPENDED$/,
  /^Input line must include "NodeName", /,
  /^\S+: error: Unable to allocate resources: Invalid partition name specified$/,
  /^\S+: error: Invalid --[\w-]+ specification$/,
  /^\S+: error: line must start with #! followed by the path to an interpreter\.$/,
  /^\S+: error: For instance: #!\/bin\/sh$/,
  /^\S+: error: instead of expected UNIX line breaks/,
];

// The program ran (or could not be executed): these lines are the step's outcome as srun and
// slurmstepd report it, a line per node or task group.
const STEP_OUTCOME = /^tsstepd-\S+: /;

/** -vvv (or more) asks for stack traces. */
function wantsStack(argv: readonly string[]): boolean {
  let count = 0;
  for (const arg of argv) {
    if (arg === '--verbose') count += 1;
    else if (/^-[a-zA-Z]+$/.test(arg)) count += [...arg].filter((c) => c === 'v').length;
  }
  return count >= 3;
}

/**
 * What is wrong with one run, or undefined: a hang, `internal error`, a stack trace (unless
 * -vvv asked for one), a failure with nothing said, or a stderr line that is not a message
 * (`<bin>: ...`, or one of Slurm's bare texts): a Node warning, a raw error, a usage dump.
 * A bad command line gets one such line per problem it has.
 */
export function verdict(bin: string, argv: readonly string[], result: BinResult, expect: Expect): string | undefined {
  const expectSuccess = expect === 'success';
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  const shown = () => lines.slice(0, 4).join(' | ');
  if (result.exitCode === -1) return 'did not finish in 20 s';
  // Nothing these small clusters hold fills megabytes: a width or count was taken unbounded.
  if (result.stdout.length >= OUTPUT_LIMIT) return `printed more than ${OUTPUT_LIMIT} characters`;
  if (result.stderr.includes('internal error')) return `internal error: ${shown()}`;
  // With -vvv a stack trace is what was asked for, lines and all.
  if (wantsStack(argv)) return undefined;
  if (/^\s+at .+:\d+:\d+\)?$/m.test(result.stderr)) return `stack trace: ${shown()}`;
  if (expectSuccess) return result.exitCode === 0 ? undefined : `exit ${result.exitCode} for good input: ${shown()}`;
  // Some of Slurm's failures are said on stdout only (scontrol ping's `... is DOWN`).
  if (result.exitCode !== 0 && lines.length === 0 && result.stdout === '') return `exit ${result.exitCode} with nothing said`;
  const odd = lines.find((line) => !line.startsWith(`${bin}: `) && !STEP_OUTCOME.test(line) && !BARE_SLURM_LINES.some((re) => re.test(line)));
  if (odd !== undefined) return `exit ${result.exitCode}, a line that is not a message: ${JSON.stringify(odd.slice(0, 200))} in: ${shown()}`;
  if (expect === 'one-problem') {
    // -v's report of the options given (srun's and sbatch's `defined options` block) is not a problem.
    const start = lines.indexOf(`${bin}: defined options`);
    const end = lines.indexOf(`${bin}: end of defined options`);
    const reported = start >= 0 && end > start ? [...lines.slice(0, start), ...lines.slice(end + 1)] : lines;
    const said = reported.filter((line) => !STEP_OUTCOME.test(line));
    const extra = said.slice(1).filter((line) => !SLURM_CONTINUATIONS.some((re) => re.test(line)));
    if (extra.length > 0) return `exit ${result.exitCode} with ${said.length} lines for one option: ${shown()}`;
  }
  return undefined;
}

/** What a run must do: succeed; fail in message lines; or, with one option used, in one line. */
export type Expect = 'success' | 'failure-or-success' | 'one-problem';

export interface FuzzFailure {
  command: string;
  problem: string;
}

/** The shell command line that reproduces a run (from the repository root). */
export function reproducer(bin: string, argv: readonly string[], env: Record<string, string | undefined> = {}): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  const shown = Object.entries(env).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${quote(v!)}`);
  const line = [...shown, 'node', `bin/${bin}.js`, ...argv.map(quote)].join(' ');
  return line.length > 400 ? `${line.slice(0, 400)}... (cd ${repoRoot})` : line;
}

/** Runs every command line (a few at a time) and returns what went wrong, reproducibly. */
export async function fuzzRuns(
  bin: string,
  argvs: readonly string[][],
  options: { expect: Expect; run?: RunOptions; concurrency?: number },
): Promise<FuzzFailure[]> {
  const failures: FuzzFailure[] = [];
  const queue = [...argvs];
  const worker = async (): Promise<void> => {
    for (let argv = queue.shift(); argv !== undefined; argv = queue.shift()) {
      // Bounded: a bin that prints without end (a 10^8-wide column) must not take the test down.
      const result = await runBin(bin, argv, { timeout: 20_000, maxBuffer: OUTPUT_LIMIT, ...options.run });
      const problem = verdict(bin, argv, result, options.expect);
      if (problem) failures.push({ command: reproducer(bin, argv, options.run?.env), problem });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 3 }, worker));
  return failures;
}

/** The failure report: the seed, then one reproducer and problem per failing run. */
export function report(failures: readonly FuzzFailure[]): string {
  return [`fuzz seed ${FUZZ_SEED} (TSLURM_FUZZ_SEED=${FUZZ_SEED} reproduces the draw)`, ...failures.map((f) => `${f.command}\n    → ${f.problem}`)].join('\n');
}
