// tsbatch's front end: argv, the environment and the script → a checked JobDescriptor. It
// reads sources in sbatch 22.05's order, so the first mistake reported is sbatch's (observed):
// command-line syntax and values, the script, its #SBATCH lines, the SBATCH_* variables, the
// memory options together, then what the controller would refuse (--array, --dependency).
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { parseArraySpec } from '../../core/array-spec.js';
import { parseDependency } from '../../core/dependency-spec.js';
import { UserError } from '../../core/errors.js';
import { INFINITE } from '../../core/slurm-constants.js';
import type { JobDescriptor } from '../../protocol/job-desc.js';
import { directiveWords } from './directives.js';
import { envOptions } from './env-options.js';
import { batchEnvironment } from './export-env.js';
import { getoptWords } from './getopt.js';
import { directiveProgram, HELP_AND_VERSION, tsbatchProgram, type RawTsbatchOptions } from './options.js';
import { fileScript, stdinScript, wrapScript, type BatchScript } from './script.js';
import { checkValues, mergeValues, type TsbatchValues } from './values.js';

export interface TsbatchContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The script when neither a file nor --wrap names one (sbatch reads its stdin). */
  stdin?: () => Promise<string>;
  /** The clock --begin reads; now when not given. */
  now?: Date;
  /** Who submits; this process's user and host when not given. */
  identity?: Pick<JobDescriptor, 'userId' | 'groupId' | 'userName' | 'submitHost'>;
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
}

export async function parseTsbatchArgs(argv: string[], ctx: TsbatchContext): Promise<ParsedTsbatch> {
  const now = ctx.now ?? new Date();
  const cli = parseWords(tsbatchProgram('tsbatch'), argv, HELP_AND_VERSION);
  const cliValues = checkValues(cli.options, now);
  const [scriptName, ...scriptArgs] = cli.operands;
  if (cli.options.wrap !== undefined && scriptName !== undefined) {
    throw new UserError('Script arguments not permitted with --wrap option');
  }
  // The script is looked for from the command line's -D; #SBATCH -D comes too late for that.
  const searchDir = path.resolve(ctx.cwd, cli.options.chdir ?? '.');
  const script = await loadScript(scriptName, cli.options.wrap, ctx, searchDir);
  const directives = parseWords(directiveProgram(), directiveWords(script.text, script.file));
  if (directives.operands.length > 0) {
    throw new UserError(`Invalid directive found in batch script: ${directives.operands[0]}`, { exitCode: 255 });
  }
  const values = mergeValues(checkValues(directives.options, now), checkValues(envOptions(ctx.env), now), cliValues);
  const desc = describeJob(values, script, scriptArgs, ctx);
  return {
    desc,
    parsable: values.parsable === true,
    wait: values.wait === true,
    testOnly: values.testOnly === true,
    quiet: values.quiet === true,
    verbose: values.verbose ?? 0,
    cluster: cli.options.cluster,
  };
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
  return {
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
    overcommit: v.overcommit === true,
    contiguous: v.contiguous === true,
    timeLimit: v.time ?? INFINITE,
    output: v.output,
    error: v.error,
    input: v.input,
    workDir,
    environment: batchEnvironment(v.export, ctx.env),
    exportText: v.export,
    array: controllerCheck(() => emptyAsUndefined(v.array, (text) => parseArraySpec(text), (a) => a.taskIds.length)),
    dependency: controllerCheck(() => emptyAsUndefined(v.dependency, (text) => parseDependency(text), (d) => d.terms.length)),
    hold: v.hold === true,
    beginTime: v.begin ?? 0,
    requeue: v.requeue,
    killOnInvalidDep: v.killOnInvalidDep,
    openMode: v.openMode,
    comment: v.comment,
    ...(v.reservation !== undefined && { reservation: v.reservation }),
    ...identity,
    submitDir: ctx.cwd,
  };
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

interface ParsedWords {
  options: RawTsbatchOptions;
  operands: string[];
}

// getopt's checks first, so commander meets only words it reads as getopt would.
function parseWords(program: Command, words: readonly string[], extraFlags: readonly string[] = []): ParsedWords {
  program.parse(getoptWords(words, program, extraFlags), { from: 'user' });
  return { options: program.opts<RawTsbatchOptions>(), operands: program.args };
}

function currentIdentity(): Pick<JobDescriptor, 'userId' | 'groupId' | 'userName' | 'submitHost'> {
  const user = os.userInfo();
  return { userId: user.uid, groupId: user.gid, userName: user.username, submitHost: os.hostname() };
}
