// tsbatch's front end: argv, the environment and the script → a checked JobDescriptor. It
// reads sources in sbatch 22.05's order, so the first mistake reported is sbatch's (observed):
// command-line syntax and values, the script, its #SBATCH lines, the SBATCH_* variables, the
// memory options together, then what the controller would refuse (--array, --dependency).
import { sessionId } from '../../os/session-id.js';
import os from 'node:os';
import path from 'node:path';
import { parseArraySpec } from '../../core/array-spec.js';
import { parseDependency } from '../../core/dependency-spec.js';
import { UserError } from '../../core/errors.js';
import { softLimits } from '../../os/rlimits.js';
import { RLIMITS } from '../tsrun/step-options.js';
import { pickJobExtras, type JobDescriptor } from '../../protocol/job-desc.js';
import { jobDescriptor } from '../../protocol/job-desc-defaults.js';
import { getopt, GetoptError } from '../../cli/slurm-opt/getopt.js';
import { parseJobArgs, rawValues, type ParsedJobArgs } from '../../cli/slurm-opt/job-cli.js';
import type { Occurrence } from '../../cli/slurm-opt/spec.js';
import { directiveWordLines } from './directives.js';
import { envOptions } from './env-options.js';
import { batchEnvironment } from './export-env.js';
import { directiveSpecs, tsbatchSpecs, type RawTsbatchOptions } from './options.js';
import { fileScript, stdinScript, wrapScript, type BatchScript } from './script.js';
import { checkValues, mergeValues, type TsbatchValues } from './values.js';
import { submitLine } from '../../cli/submit-line.js';

export interface TsbatchContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The script when neither a file nor --wrap names one (sbatch reads its stdin). */
  stdin?: () => Promise<string>;
  /** The clock --begin reads; now when not given. */
  now?: Date;
  /** Who submits; this process's user and host when not given. */
  identity?: Pick<JobDescriptor, 'userId' | 'groupId' | 'userName' | 'submitHost' | 'submitSid'>;
}

export interface ParsedTsbatch {
  desc: JobDescriptor;
  parsable: boolean;
  wait: boolean;
  testOnly: boolean;
  quiet: boolean;
  verbose: number;
  /** tslurm's --cluster file. */
  cluster: string | undefined;
  /** The options as given on the command line and in #SBATCH lines (for -v). */
  given: Occurrence[];
}

/** The command line by sbatch's table (getopt's errors as GetoptError); --help and the like in `info`. */
export function parseCommandLine(argv: readonly string[], bin = 'tsbatch'): ParsedJobArgs {
  return parseJobArgs(argv, tsbatchSpecs(bin));
}

export async function parseTsbatchArgs(argv: string[], ctx: TsbatchContext, bin = 'tsbatch'): Promise<ParsedTsbatch> {
  const now = ctx.now ?? new Date();
  const parsed = parseCommandLine(argv, bin);
  const cli = { options: parsed.raw as RawTsbatchOptions, operands: parsed.operands };
  const cliValues = checkValues(cli.options, now);
  const [scriptName, ...scriptArgs] = cli.operands;
  if (cli.options.wrap !== undefined && scriptName !== undefined) {
    throw new UserError('Script arguments not permitted with --wrap option');
  }
  // The script is looked for from the command line's -D; #SBATCH -D comes too late for that.
  const searchDir = path.resolve(ctx.cwd, cli.options.chdir ?? '.');
  const script = await loadScript(scriptName, cli.options.wrap, ctx, searchDir);
  const directives = readDirectives(script.text, script.file, now);
  const values = mergeValues(directives.values, checkValues(envOptions(ctx.env), now), cliValues);
  const desc = describeJob(values, script, scriptArgs, ctx);
  return {
    desc,
    parsable: values.parsable === true,
    wait: values.wait === true,
    testOnly: values.testOnly === true,
    quiet: values.quiet === true,
    verbose: values.verbose ?? 0,
    cluster: cli.options.cluster,
    given: [...parsed.options, ...directives.given],
  };
}

/**
 * The #SBATCH words read by sbatch's table. A refused word or value names the script and
 * the line it is on (`job.sh: line 3: ...`), which sbatch leaves the user to find.
 */
function readDirectives(text: string, file: string, now: Date): { values: TsbatchValues; given: Occurrence[] } {
  const words = directiveWordLines(text, file);
  const where = (index: number): string => `${file}: line ${words[index]?.line ?? '?'}: `;
  let parsed;
  try {
    parsed = getopt(words.map((w) => w.word), directiveSpecs(), { stopAtOperand: true });
  } catch (error) {
    if (error instanceof GetoptError) throw new GetoptError(`${where(error.index)}${error.message}`);
    throw error;
  }
  if (parsed.operands.length > 0) {
    throw new UserError(`Invalid directive found in batch script: ${parsed.operands[0]}`, { exitCode: 255 });
  }
  for (const occurrence of parsed.options) {
    try {
      checkValues(rawValues([occurrence]) as RawTsbatchOptions, now);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const Kind = error.constructor as new (message: string, options: object) => UserError;
      throw new Kind(`${where(occurrence.index ?? -1)}${error.message}`, { exitCode: error.exitCode, code: error.code, cause: error.cause });
    }
  }
  return { values: checkValues(rawValues(parsed.options) as RawTsbatchOptions, now), given: parsed.options };
}

function loadScript(name: string | undefined, wrap: string | undefined, ctx: TsbatchContext, workDir: string): Promise<BatchScript> {
  if (wrap !== undefined) return Promise.resolve(wrapScript(wrap));
  if (name !== undefined) return fileScript(name, { cwd: ctx.cwd, workDir, path: ctx.env.PATH });
  return stdinScript(ctx.stdin ?? (() => Promise.resolve('')));
}

function describeJob(v: TsbatchValues, script: BatchScript, scriptArgs: string[], ctx: TsbatchContext): JobDescriptor {
  const workDir = path.resolve(ctx.cwd, v.chdir ?? '.');
  const identity = ctx.identity ?? currentIdentity();
  // sbatch sends -N's max only when one was given (max 0 is none); "-N 2" is 2-2.
  const maxNodes = v.nodes && v.nodes.max !== 0 ? v.nodes.max : undefined;
  const exclusiveMode = v.exclusive === undefined || v.exclusive === 'exclusive' ? undefined : v.exclusive;
  return jobDescriptor({
    script: script.text,
    argv: scriptArgs,
    ...(script.command !== undefined && { command: script.command }),
    name: v.jobName ?? script.defaultName,
    partition: v.partition,
    ntasks: v.ntasks,
    minNodes: v.nodes?.min,
    maxNodes,
    cpusPerTask: v.cpusPerTask,
    ntasksPerNode: v.ntasksPerNode,
    memPerNode: v.mem,
    memPerCpu: v.memPerCpu,
    nodelist: v.nodelist,
    exclude: v.exclude,
    constraint: v.constraint,
    gres: v.gres,
    gpus: v.gpus,
    exclusive: v.exclusive === 'exclusive',
    ...(exclusiveMode !== undefined && { exclusiveMode }),
    overcommit: v.overcommit,
    contiguous: v.contiguous,
    timeLimit: v.time,
    output: v.output,
    error: v.error,
    input: v.input,
    workDir,
    environment: batchEnvironment(v.export, ctx.env),
    exportText: v.export,
    array: controllerCheck(() => emptyAsUndefined(v.array, (text) => parseArraySpec(text), (a) => a.taskIds.length)),
    dependency: controllerCheck(() => emptyAsUndefined(v.dependency, (text) => parseDependency(text), (d) => d.terms.length)),
    hold: v.hold,
    beginTime: v.begin,
    requeue: v.requeue,
    killOnInvalidDep: v.killOnInvalidDep,
    openMode: v.openMode,
    comment: v.comment,
    ...pickJobExtras(v),
    ...(v.reservation !== undefined && { reservation: v.reservation }),
    ...identity,
    submitDir: ctx.cwd,
    // What the script takes from the submitter (slurmstepd sets them before the script runs).
    umask: `0${process.umask().toString(8).padStart(3, '0')}`,
    rlimits: softLimits(v.propagate ?? RLIMITS),
    prioProcess: os.getPriority(),
  });
}

// "--array=" and "--array=," ask for no array, "--dependency=" and "=0" for no dependency
// (observed), so an empty result is no spec at all.
function emptyAsUndefined<T>(text: string | undefined, parse: (text: string) => T, size: (spec: T) => number): T | undefined {
  if (text === undefined) return undefined;
  const spec = parse(text);
  return size(spec) === 0 ? undefined : spec;
}

// Slurm's controller checks --array and --dependency; sbatch prints its refusal this way.
function controllerCheck<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof UserError && error.code !== undefined) {
      throw new UserError(`Batch job submission failed: ${error.message}`, { code: error.code, cause: error });
    }
    throw error;
  }
}

function currentIdentity(): Pick<JobDescriptor, 'userId' | 'groupId' | 'userName' | 'submitHost' | 'submitSid' | 'submitLine'> {
  const user = os.userInfo();
  return { userId: user.uid, groupId: user.gid, userName: user.username, submitHost: os.hostname(), submitSid: sessionId(), submitLine: submitLine() };
}
