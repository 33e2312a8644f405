// The options srun, sbatch and salloc share (Slurm 22.05's slurm_opt.c table), with the
// commands that take each: names, letters and argument kinds as 22.05 accepts them
// (probed on the real commands, /work/ref/{srun,sbatch,salloc}-long-options.txt), metavariables as
// their --help prints them, descriptions in our own words. The order is --help's.
import { camelKey, type ArgKind, type HelpSection, type JobCommand, type OptionSpec } from './spec.js';

const R = 'srun';
const B = 'sbatch';
const A = 'salloc';

interface Extra {
  hidden?: boolean;
  key?: string;
  flagValue?: string | boolean;
  /** Another metavariable under one command (sbatch's `-D, --chdir=directory`). */
  metaFor?: Partial<Record<JobCommand, string>>;
  helpFor?: Partial<Record<JobCommand, string>>;
  argFor?: Partial<Record<JobCommand, ArgKind>>;
}

type Row = [long: string, short: string, arg: ArgKind, meta: string, help: string, commands: readonly JobCommand[], extra?: Extra];

const RBA = [R, B, A] as const;
const RB = [R, B] as const;
const RA = [R, A] as const;
const BA = [B, A] as const;

const RUN: Row[] = [
  ['accel-bind', '', 'required', 'options', 'how tasks bind to accelerators (recorded)', [R]],
  ['array', 'a', 'required', 'indexes', 'submit a job array with these task indexes (0-15, 1,3,5, 0-10:2, %N limits running tasks)', [B]],
  ['account', 'A', 'required', 'name', 'charge the job to this account (recorded)', RBA],
  ['acctg-freq', '', 'required', '<datatype>=<interval>', 'accounting and profiling sampling intervals (recorded)', RBA],
  ['batch', '', 'required', 'list', 'node features the batch host must have', [B]],
  ['bb', '', 'required', '<spec>', 'burst buffer specification (recorded)', RBA],
  ['bbf', '', 'required', '<file_name>', 'file with the burst buffer specification (recorded)', RBA],
  ['bcast', '', 'optional', '<dest_path>', 'copy the executable to the nodes before it starts', [R]],
  ['bcast-exclude', '', 'required', '<paths>', 'library directories --send-libs leaves out', [R]],
  ['begin', 'b', 'required', 'time', 'start no earlier than this time (16:00, now+1hour, 2030-01-31T08:00)', RBA],
  ['bell', '', 'none', '', 'ring the terminal bell when the allocation is granted (default: only after a wait of over 10 seconds)', [A]],
  ['cpus-per-task', 'c', 'required', 'ncpus', 'CPUs each task needs', RBA],
  ['comment', '', 'required', 'name', 'free text kept with the job (scontrol show job: Comment=)', RBA],
  ['compress', '', 'optional', 'library', 'compress what --bcast sends', [R]],
  ['container', '', 'required', '', 'OCI container bundle to run in (recorded)', RBA],
  ['cpu-freq', '', 'required', 'min[-max[:gov]]', 'CPU frequency and governor wanted (recorded)', RBA],
  ['cpu-bind', '', 'required', '...', 'bind tasks to CPUs: none, rank, map_cpu:<list>, mask_cpu:<list>, cores, sockets, ... (exported as SLURM_CPU_BIND*)', [R]],
  ['cpu_bind', '', 'required', '...', '', [R], { hidden: true, key: 'cpuBind' }],
  ['dependency', 'd', 'required', 'type:jobid[:time]', 'wait for other jobs (afterok:12:13, afterany:14, singleton)', RBA],
  ['deadline', '', 'required', 'time', 'cancel the job if it cannot end before this time', RBA],
  ['delay-boot', '', 'required', 'mins', 'wait this long for a node reboot to features (recorded)', RBA],
  ['chdir', 'D', 'required', 'path', 'working directory of the tasks', RBA, { metaFor: { sbatch: 'directory' }, helpFor: { sbatch: 'working directory of the batch script' } }],
  ['epilog', '', 'required', 'program', 'run this program after the step ends ("none": no epilog)', [R]],
  ['error', 'e', 'required', 'err', 'where stderr goes (file pattern: %j %J %s %t %n %N %x %u %%)', RB],
  ['export', '', 'required', 'env_vars|NONE', 'which environment variables the tasks get: ALL, NONE or a list', RB, { metaFor: { sbatch: 'names' } }],
  ['export-file', '', 'required', 'file|fd', 'environment variables to export, from a file or file descriptor', [B]],
  ['preserve-env', 'E', 'none', '', 'keep SLURM_NNODES and SLURM_NTASKS from the environment over -N and -n', [R]],
  ['get-user-env', '', 'optional', '', "start from the user's login environment", BA],
  ['gid', '', 'required', 'group_id', 'run the job as this group (root only)', RBA],
  ['gres', '', 'required', 'list', 'generic resources per node (gpu:2)', RBA],
  ['gres-flags', '', 'required', 'opts', 'how generic resources bind to CPUs: enforce-binding or disable-binding', RBA],
  ['hold', 'H', 'none', '', 'submit the job held (release it with scontrol release)', RBA],
  ['ignore-pbs', '', 'none', '', 'do not read #PBS and #BSUB lines of the script', [B]],
  ['input', 'i', 'required', 'in', 'stdin: all, none, a task number, or a file pattern', RB],
  ['immediate', 'I', 'optional', 'secs', 'give up unless resources are granted within secs (at once when not given)', RA],
  ['jobid', '', 'required', 'id', 'run the step inside this existing job', [R]],
  ['job-name', 'J', 'required', 'jobname', 'name of the job', RBA],
  ['no-kill', 'k', 'optional', 'off', 'keep the job running when one of its nodes fails', RBA],
  ['kill-command', 'K', 'optional', 'signal', 'signal to send the command when the allocation ends', [A]],
  ['kill-on-bad-exit', 'K', 'optional', '0|1', 'end the step when any task exits non-zero', [R]],
  ['kill-on-invalid-dep', '', 'required', 'yes|no', 'end the job when its dependency can never be met', [B]],
  ['label', 'l', 'none', '', 'prefix every output line with its task number', [R]],
  ['licenses', 'L', 'required', 'names', 'licenses the job needs, comma separated (recorded)', RBA],
  ['clusters', 'M', 'required', 'names', 'clusters to send the job to (tslurm runs on its own cluster)', RBA],
  ['cluster', '', 'required', 'names', '', RBA, { hidden: true, key: 'clusters' }],
  ['distribution', 'm', 'required', 'type', 'task layout: block, cyclic, plane=<size>, arbitrary', RBA],
  ['mail-type', '', 'required', 'type', 'mail on these events: BEGIN, END, FAIL, ALL, ... (recorded; no mail is sent)', RBA],
  ['mail-user', '', 'required', 'user', 'whom to mail (recorded)', RBA],
  ['mcs-label', '', 'required', 'mcs', 'MCS label of the job (recorded)', RBA],
  ['mpi', '', 'required', 'type', 'MPI plugin to use (--mpi=list lists them)', [R]],
  ['msg-timeout', '', 'required', 'seconds', 'how long to wait for a launch message', [R]],
  ['multi-prog', '', 'none', '', 'the command is a file giving a program per task', [R]],
  ['ntasks', 'n', 'required', 'ntasks', 'number of tasks to run', RBA],
  ['nice', '', 'optional', 'value', 'lower the job\'s priority by value (100 when not given)', RBA],
  ['no-bell', '', 'none', '', 'never ring the terminal bell', [A], { key: 'bell', flagValue: false }],
  ['no-requeue', '', 'none', '', 'never requeue the job', [B], { key: 'requeue', flagValue: false }],
  ['no-shell', '', 'none', '', 'allocate and exit without running a command', [A]],
  ['ntasks-per-node', '', 'required', 'n', 'tasks to start on each node', RBA],
  ['tasks-per-node', '', 'required', 'n', '', RBA, { hidden: true, key: 'ntasksPerNode' }],
  ['nodes', 'N', 'required', 'N', 'number of nodes (N = min[-max])', RBA],
  ['open-mode', '', 'required', 'append|truncate', 'how output and error files are opened', RB],
  ['output', 'o', 'required', 'out', 'where stdout goes (file pattern: %j %J %s %t %n %N %x %u %%)', RB, { helpFor: { sbatch: "the batch script's stdout (default slurm-%j.out)" } }],
  ['overcommit', 'O', 'none', '', 'allow more tasks than CPUs', RBA],
  ['overlap', '', 'optional', '', 'share the step\'s resources with other steps', [R]],
  ['het-group', '', 'required', 'value', 'heterogeneous job components to launch in', [R]],
  ['pack-group', '', 'required', 'value', '', [R], { hidden: true, key: 'hetGroup' }],
  ['partition', 'p', 'required', 'partition', 'partition to run in', RBA],
  ['parsable', '', 'none', '', 'print only the job id', [B]],
  ['power', '', 'required', 'flags', 'power management options (recorded)', RBA],
  ['priority', '', 'required', 'value', 'the job\'s priority (an operator\'s setting)', RBA],
  ['prolog', '', 'required', 'program', 'run this program before the step starts ("none": no prolog)', [R]],
  ['profile', '', 'required', 'value', 'profiling data to gather: all, none, energy, lustre, network, task (recorded)', RBA],
  ['propagate', '', 'optional', 'rlimits', 'resource limits the tasks inherit: ALL (default), NONE, or a list (NOFILE,CORE,...)', RB],
  ['pty', '', 'none', '', 'run task 0 in a pseudo terminal', [R]],
  ['quit-on-interrupt', '', 'none', '', 'end the step at the first Ctrl-C', [R]],
  ['qos', 'q', 'required', 'qos', 'quality of service (recorded)', RBA],
  ['quiet', 'Q', 'none', '', 'say nothing but errors', RBA],
  ['reboot', '', 'none', '', 'reboot the nodes before the job starts (recorded)', RBA],
  ['relative', 'r', 'required', 'n', 'start the step at node n of the allocation', [R]],
  ['requeue', '', 'none', '', 'the job may be requeued', [B], { flagValue: true }],
  ['oversubscribe', 's', 'none', '', 'share nodes with other jobs', RBA],
  ['core-spec', 'S', 'required', 'cores', 'cores to keep for the system on each node (recorded)', RBA],
  ['send-libs', '', 'optional', 'yes|no', 'send the executable\'s libraries with --bcast', [R]],
  ['signal', '', 'required', '[R:]num[@time]', 'send signal num this many seconds (default 60) before the time limit', RBA, { metaFor: { sbatch: '[[R][B]:]num[@time]' } }],
  ['slurmd-debug', '', 'required', 'level', 'log level of the step daemon, shown on stderr', [R]],
  ['spread-job', '', 'none', '', 'spread the job over as many nodes as possible', RBA],
  ['switches', '', 'required', 'max-switches{@max-time-to-wait}', 'most switches wanted, and how long to wait for them (recorded)', RBA],
  ['task-epilog', '', 'required', 'program', 'run this program after each task ends', [R]],
  ['task-prolog', '', 'required', 'program', 'run this program before each task; its "export NAME=value" lines reach the task', [R]],
  ['thread-spec', '', 'required', 'threads', 'threads to keep for the system on each node (recorded)', RBA],
  ['threads', 'T', 'required', 'threads', 'how many launch threads to use', [R]],
  ['time', 't', 'required', 'minutes', 'time limit (minutes, MM:SS, HH:MM:SS, D-HH:MM:SS)', RBA],
  ['time-min', '', 'required', 'minutes', 'the least time limit the job accepts, so backfill may start it sooner', RBA],
  ['uid', '', 'required', 'user_id', 'run the job as this user (root only)', RBA],
  ['unbuffered', 'u', 'none', '', 'pass output on as it comes, not line by line', [R]],
  ['use-min-nodes', '', 'none', '', 'of a node range, prefer the fewest nodes', RBA],
  ['verbose', 'v', 'none', '', 'more messages; repeat for more', RBA],
  ['wait', 'W', 'required', 'sec', 'end the step this many seconds after its first task exits', [R]],
  ['wait', 'W', 'none', '', 'wait for the job to end; exit with its status', [B]],
  ['wait-all-nodes', '', 'required', '0|1', 'start only when every node is ready', BA],
  ['wckey', '', 'required', 'wckey', 'workload characterization key (recorded)', RBA],
  ['wrap', '', 'required', 'command string', 'submit a /bin/sh script that runs this command line', [B]],
  ['disable-status', 'X', 'none', '', 'a Ctrl-C does not print the step status', [R]],
  ['x11', '', 'optional', 'all|first|last', 'forward X11 to these nodes', RA],
  ['test-only', '', 'none', '', 'say when and where the job would run, and run nothing', RB],
  ['debugger-test', '', 'none', '', '', [R], { hidden: true }],
  ['interactive', '', 'none', '', '', [R], { hidden: true }],
  ['whole', '', 'none', '', '', [R], { hidden: true }],
  ['context', '', 'required', '', '', RBA, { hidden: true }],
  ['ntasks-per-tres', '', 'required', '', '', RBA, { hidden: true }],
];

const CONSTRAINT: Row[] = [
  ['cluster-constraint', '', 'required', 'list', 'clusters the job may run on, by feature (recorded)', RBA],
  ['contiguous', '', 'none', '', 'nodes next to each other', RBA],
  ['constraint', 'C', 'required', 'list', 'node features required (a&b, a|b)', RBA],
  ['nodefile', 'F', 'required', 'filename', 'file listing the nodes to use', RBA],
  ['mem', '', 'required', 'MB', 'memory per node (MB, or a K/M/G/T suffix)', RBA],
  ['mincpus', '', 'required', 'n', 'only nodes with at least n CPUs', RBA],
  ['prefer', '', 'required', 'list', 'node features wanted when available (recorded)', RBA],
  ['reservation', '', 'required', 'name', 'run in this advance reservation', RBA],
  ['tmp', '', 'required', 'MB', 'only nodes with this much temporary disk (TmpDisk)', RBA],
  ['nodelist', 'w', 'required', 'hosts...', 'nodes the job must use (hostlist)', RBA],
  ['exclude', 'x', 'required', 'hosts...', 'nodes the job must not use (hostlist)', RBA],
  ['no-allocate', 'Z', 'none', '', 'run on the -w nodes without an allocation (root only)', [R]],
];

const RESOURCES: Row[] = [
  ['exact', '', 'none', '', 'give the step only the CPUs it asks for, not whole nodes of the job', [R]],
  ['exclusive', '', 'optional', 'user', 'whole nodes for the job (=user: shared only with your jobs); for a step, as --exact', RBA],
  ['mem-per-cpu', '', 'required', 'MB', 'memory per allocated CPU', RBA],
  ['mem-bind', '', 'required', '...', 'bind task memory: none, local, rank, map_mem:<list>, ... (recorded)', RBA],
  ['resv-ports', '', 'optional', 'count', 'reserve communication ports for the step', [R]],
  ['hint', '', 'required', 'type', 'placement hint: compute_bound, memory_bound, multithread, nomultithread (recorded)', RBA],
  ['network', '', 'required', 'type', 'network options (recorded)', RBA],
];

const AFFINITY: Row[] = [
  ['sockets-per-node', '', 'required', 'S', 'sockets each node must have', RBA],
  ['cores-per-socket', '', 'required', 'C', 'cores each socket must have', RBA],
  ['threads-per-core', '', 'required', 'T', 'threads each core must have', RBA],
  ['extra-node-info', 'B', 'required', 'S[:C[:T]]', 'sockets, cores and threads in one: S[:C[:T]]', RBA],
  ['ntasks-per-core', '', 'required', 'n', 'tasks to start on each core', RBA],
  ['ntasks-per-socket', '', 'required', 'n', 'tasks to start on each socket', RBA],
  ['ntasks-per-gpu', '', 'required', 'n', 'tasks to start for each GPU', RBA],
];

const GPU: Row[] = [
  ['cpus-per-gpu', '', 'required', 'n', 'CPUs for each allocated GPU', RBA],
  ['gpus', 'G', 'required', 'n', 'GPUs for the whole job ([type:]n)', RBA],
  ['gpu-bind', '', 'required', '...', 'bind tasks to GPUs (recorded)', RBA],
  ['gpu-freq', '', 'required', '...', 'GPU frequency wanted (recorded)', RBA],
  ['gpus-per-node', '', 'required', 'n', 'GPUs on each allocated node ([type:]n)', RBA],
  ['gpus-per-socket', '', 'required', 'n', 'GPUs for each allocated socket ([type:]n)', RBA],
  ['gpus-per-task', '', 'required', 'n', 'GPUs for each task ([type:]n)', RBA],
  ['mem-per-gpu', '', 'required', 'n', 'memory for each allocated GPU', RBA],
];

const HELP: Row[] = [
  ['help', 'h', 'none', '', 'show this help and exit', RBA],
  ['usage', '', 'none', '', 'show a short usage message and exit', RBA],
];

const OTHER: Row[] = [['version', 'V', 'none', '', 'print the version and exit', RBA]];

const SECTIONS: ReadonlyArray<[HelpSection, Row[]]> = [
  ['run', RUN],
  ['constraint', CONSTRAINT],
  ['resources', RESOURCES],
  ['affinity', AFFINITY],
  ['gpu', GPU],
  ['help', HELP],
  ['other', OTHER],
];

// Built once per command and run: tsbatch reads its table for the command line, the #SBATCH
// lines and --help, and the table is some hundred rows.
const built = new Map<JobCommand, readonly OptionSpec[]>();

/** The option table of one command, in --help order (the specs are shared: not to be changed). */
export function jobOptions(command: JobCommand): OptionSpec[] {
  let table = built.get(command);
  if (table === undefined) built.set(command, (table = buildJobOptions(command)));
  return [...table];
}

function buildJobOptions(command: JobCommand): OptionSpec[] {
  const out: OptionSpec[] = [];
  for (const [section, rows] of SECTIONS) {
    for (const [long, short, arg, meta, help, commands, extra = {}] of rows) {
      if (!commands.includes(command)) continue;
      const spec: OptionSpec = {
        long,
        arg: extra.argFor?.[command] ?? arg,
        help: extra.helpFor?.[command] ?? help,
        key: extra.key ?? camelKey(long),
        section,
      };
      const metavar = extra.metaFor?.[command] ?? meta;
      if (short !== '') spec.short = short;
      if (metavar !== '') spec.meta = metavar;
      if (extra.hidden) spec.hidden = true;
      if (extra.flagValue !== undefined) spec.flagValue = extra.flagValue;
      out.push(spec);
    }
  }
  return out;
}
