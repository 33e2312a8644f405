// salloc's input environment variables (salloc(1) "INPUT ENVIRONMENT VARIABLES") as option
// occurrences of salloc's table, so that they sit below the command line's (which come
// after them and win), are checked by the same code and show in -v's "defined options"
// block, as salloc shows them (observed: /work/ref/salloc-v.txt). salloc reads none of
// srun's SLURM_* input variables (SLURM_NNODES, SLURM_PARTITION, ...: observed).
import { envFlagIsSet } from '../../cli/slurm-opt/env-flag.js';
import type { Occurrence, OptionSpec } from '../../cli/slurm-opt/spec.js';

/** Variables that give an option's argument: variable(s), first set wins → long name. */
const VALUES: ReadonlyArray<readonly [names: readonly string[], long: string]> = [
  [['SALLOC_ACCOUNT'], 'account'],
  [['SALLOC_ACCTG_FREQ'], 'acctg-freq'],
  [['SALLOC_BURST_BUFFER'], 'bb'],
  [['SALLOC_CLUSTERS', 'SLURM_CLUSTERS'], 'clusters'],
  [['SALLOC_CONSTRAINT'], 'constraint'],
  [['SALLOC_CONTAINER'], 'container'],
  [['SALLOC_CORE_SPEC'], 'core-spec'],
  [['SALLOC_CPUS_PER_GPU'], 'cpus-per-gpu'],
  [['SALLOC_DELAY_BOOT'], 'delay-boot'],
  [['SALLOC_EXCLUSIVE'], 'exclusive'],
  [['SALLOC_GPU_BIND'], 'gpu-bind'],
  [['SALLOC_GPU_FREQ'], 'gpu-freq'],
  [['SALLOC_GPUS'], 'gpus'],
  [['SALLOC_GPUS_PER_NODE'], 'gpus-per-node'],
  [['SALLOC_GPUS_PER_TASK'], 'gpus-per-task'],
  [['SALLOC_GRES'], 'gres'],
  [['SALLOC_GRES_FLAGS'], 'gres-flags'],
  [['SALLOC_HINT', 'SLURM_HINT'], 'hint'],
  [['SALLOC_IMMEDIATE'], 'immediate'],
  [['SALLOC_KILL_CMD'], 'kill-command'],
  [['SALLOC_MEM_BIND'], 'mem-bind'],
  [['SALLOC_MEM_PER_CPU'], 'mem-per-cpu'],
  [['SALLOC_MEM_PER_GPU'], 'mem-per-gpu'],
  [['SALLOC_MEM_PER_NODE'], 'mem'],
  [['SALLOC_NETWORK'], 'network'],
  [['SALLOC_NO_KILL'], 'no-kill'],
  [['SALLOC_PARTITION'], 'partition'],
  [['SALLOC_POWER'], 'power'],
  [['SALLOC_PROFILE'], 'profile'],
  [['SALLOC_QOS'], 'qos'],
  [['SALLOC_REQ_SWITCH'], 'switches'],
  [['SALLOC_RESERVATION'], 'reservation'],
  [['SALLOC_SIGNAL'], 'signal'],
  [['SALLOC_THREAD_SPEC'], 'thread-spec'],
  [['SALLOC_THREADS_PER_CORE'], 'threads-per-core'],
  [['SALLOC_TIMELIMIT'], 'time'],
  [['SALLOC_WAIT_ALL_NODES'], 'wait-all-nodes'],
  [['SALLOC_WCKEY'], 'wckey'],
];

/** Flag variables: on when empty, "yes" or a non-zero number. */
const FLAGS: ReadonlyArray<readonly [name: string, long: string]> = [
  ['SALLOC_BELL', 'bell'],
  ['SALLOC_NO_BELL', 'no-bell'],
  ['SALLOC_OVERCOMMIT', 'overcommit'],
  ['SALLOC_SPREAD_JOB', 'spread-job'],
  ['SALLOC_USE_MIN_NODES', 'use-min-nodes'],
];

/** The options salloc's environment gives, as occurrences (before the command line's). */
export function sallocEnvOptions(env: NodeJS.ProcessEnv, specs: readonly OptionSpec[]): Occurrence[] {
  const out: Occurrence[] = [];
  const add = (long: string, word: string, value: string | undefined): void => {
    const spec = specs.find((s) => s.long === long);
    if (spec) out.push({ spec, value, word });
  };
  for (const [names, long] of VALUES) {
    const name = names.find((n) => env[n] !== undefined);
    if (name === undefined) continue;
    let value: string | undefined = env[name]!;
    // An empty value of an option whose argument is optional is the bare option.
    if (value === '' && specs.find((s) => s.long === long)?.arg === 'optional') value = undefined;
    // SALLOC_WAIT4SWITCH is the "@max-time" part of --switches.
    if (long === 'switches' && env.SALLOC_WAIT4SWITCH !== undefined) value = `${value}@${env.SALLOC_WAIT4SWITCH}`;
    add(long, name, value);
  }
  for (const [name, long] of FLAGS) if (envFlagIsSet(env[name])) add(long, name, undefined);
  // SALLOC_DEBUG is a -v count.
  const debug = Number.parseInt(env.SALLOC_DEBUG ?? '', 10);
  for (let k = 0; k < debug; k += 1) add('verbose', 'SALLOC_DEBUG', undefined);
  return out;
}
