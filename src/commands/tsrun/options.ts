// tsrun's options: srun's table (cli/slurm-opt/job-options.ts) read by getopt, over srun's
// input environment variables. Values stay raw strings here; request.ts validates them with
// srun's own messages.
import type { RawValues } from '../../cli/slurm-opt/job-cli.js';

/** srun's input environment variables (srun(1) "INPUT ENVIRONMENT VARIABLES"): option ← variable. */
const ENV_VALUES: Readonly<Record<string, string>> = {
  account: 'SLURM_ACCOUNT',
  cpuBind: 'SLURM_CPU_BIND',
  cpusPerGpu: 'SLURM_CPUS_PER_GPU',
  ntasks: 'SLURM_NTASKS',
  nodes: 'SLURM_NNODES',
  cpusPerTask: 'SLURM_CPUS_PER_TASK',
  ntasksPerNode: 'SLURM_NTASKS_PER_NODE',
  partition: 'SLURM_PARTITION',
  reservation: 'SLURM_RESERVATION',
  constraint: 'SLURM_CONSTRAINT',
  distribution: 'SLURM_DISTRIBUTION',
  time: 'SLURM_TIMELIMIT',
  jobName: 'SLURM_JOB_NAME',
  mem: 'SLURM_MEM_PER_NODE',
  memPerCpu: 'SLURM_MEM_PER_CPU',
  memPerGpu: 'SLURM_MEM_PER_GPU',
  gpus: 'SLURM_GPUS',
  gpusPerNode: 'SLURM_GPUS_PER_NODE',
  gpusPerTask: 'SLURM_GPUS_PER_TASK',
  mpi: 'SLURM_MPI_TYPE',
  export: 'SLURM_EXPORT_ENV',
  chdir: 'SLURM_WORKING_DIR',
  output: 'SLURM_STDOUTMODE',
  error: 'SLURM_STDERRMODE',
  input: 'SLURM_STDINMODE',
  killOnBadExit: 'SLURM_KILL_BAD_EXIT',
  qos: 'SLURM_QOS',
  signal: 'SLURM_SIGNAL',
  wckey: 'SLURM_WCKEY',
  taskProlog: 'SLURM_TASK_PROLOG',
  taskEpilog: 'SLURM_TASK_EPILOG',
  prolog: 'SLURM_PROLOG',
  epilog: 'SLURM_EPILOG',
  hint: 'SLURM_HINT',
  timeMin: 'SLURM_TIME_MIN',
  wait: 'SLURM_WAIT',
  openMode: 'SLURM_OPEN_MODE',
};

/** Flags srun also takes from the environment when set (to anything). */
const ENV_FLAGS: Readonly<Record<string, string>> = {
  label: 'SLURM_LABELIO',
  unbuffered: 'SLURM_UNBUFFEREDIO',
  overcommit: 'SLURM_OVERCOMMIT',
  exclusive: 'SLURM_EXCLUSIVE',
  exact: 'SLURM_EXACT',
  overlap: 'SLURM_OVERLAP',
};

/** The options srun's environment gives, under the command line's. */
export function envValues(env: NodeJS.ProcessEnv): RawValues {
  const raw: RawValues = {};
  for (const [key, name] of Object.entries(ENV_VALUES)) if (env[name] !== undefined) raw[key] = env[name];
  for (const [key, name] of Object.entries(ENV_FLAGS)) if (env[name] !== undefined) raw[key] = true;
  return raw;
}

/** The raw values (before validation), by option key. */
export interface RawTsrunOptions {
  ntasks?: string;
  nodes?: string;
  cpusPerTask?: string;
  ntasksPerNode?: string;
  partition?: string;
  reservation?: string;
  nodelist?: string;
  exclude?: string;
  constraint?: string;
  mem?: string;
  memPerCpu?: string;
  gres?: string;
  gpus?: string;
  exclusive?: string | boolean;
  overcommit?: boolean;
  distribution?: string;
  time?: string;
  jobName?: string;
  label?: boolean;
  output?: string;
  error?: string;
  input?: string;
  unbuffered?: boolean;
  export?: string;
  chdir?: string;
  killOnBadExit?: string | boolean;
  multiProg?: boolean;
  mpi?: string;
  testOnly?: boolean;
  quiet?: boolean;
  cluster?: string;
  verbose?: number;
  [key: string]: string | boolean | number | undefined;
}
