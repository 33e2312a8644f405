// squeue's job fields: the `-o` letter and `-O` names of each, its header and its value
// (src/squeue/opts.c parse_format/parse_long_format and print.c, 22.05). Fields tslurm has no
// source for (accounts, QOS, reservations, licenses, federation) print what Slurm prints for
// a cluster without accounting: `(null)`, `N/A`, `0`.
import { groupNameForGid } from '../../os/groups.js';
import { jobStateCompact, jobStateString } from '../../core/job-state.js';
import type { SqueueRecord } from './squeue-records.js';
import {
  date,
  defaultOutput,
  endTime,
  gresTres,
  jobIdText,
  limitWord,
  minCpus,
  minMemory,
  nodeList,
  numTasks,
  priorityFraction,
  reasonOf,
  secs,
  showsReason,
  taskString,
  timeUsed,
  tresText,
  units,
} from './squeue-values.js';

export interface SqueueContext {
  /** Now, in Unix seconds. */
  now: number;
  cluster: string;
  /** --noconvert: sizes in the unit they were given. */
  noConvert?: boolean;
}

/**
 * A value; null is C's NULL string (printed `(null)`). `{ overflow }` is printed without
 * cutting a right-justified value to the width (squeue's node lists and durations).
 */
export type Cell = string | null | { overflow: string | null };

export interface SqueueField {
  header: string;
  letter?: string;
  /** The -O names (any case). */
  long: readonly string[];
  /** The header may overflow a right-justified width (NODELIST and the like). */
  headerOverflows?: boolean;
  value(rec: SqueueRecord, ctx: SqueueContext): Cell;
}

const over = (text: string | null): Cell => ({ overflow: text });
const NA = (): Cell => 'N/A';
const NULL = (): Cell => null;
const ZERO = (): Cell => '0';
const STAR = (): Cell => '*';

// A limit in minutes, or what is left of it: a word, or a duration that may overflow.
const limitCell = (minutes: number, seconds: () => number): Cell => limitWord(minutes) ?? over(secs(seconds()));

const FIELDS: SqueueField[] = [
  { letter: 'a', long: ['account'], header: 'ACCOUNT', value: NULL },
  { letter: 'A', long: ['jobid'], header: 'JOBID', value: (r) => String(r.job.jobId) },
  { letter: 'b', long: ['gres', 'tres-per-node'], header: 'TRES_PER_NODE', value: (r) => gresTres(r.job.gres) },
  { letter: 'B', long: ['batchhost'], header: 'EXEC_HOST', value: (r) => r.job.batchHost ?? 'n/a' },
  { letter: 'c', long: ['mincpus'], header: 'MIN_CPUS', value: (r, c) => units(minCpus(r.job), 0, c.noConvert === true) },
  { letter: 'C', long: ['numcpus'], header: 'CPUS', value: (r) => String(r.job.numCpus) },
  { letter: 'd', long: ['mintmpdisk'], header: 'MIN_TMP_DISK', value: ZERO },
  { letter: 'D', long: ['numnodes'], header: 'NODES', value: (r) => String(r.job.numNodes) },
  { letter: 'e', long: ['endtime'], header: 'END_TIME', value: (r, c) => endTime(r.job, c.now) },
  { letter: 'E', long: ['dependency'], header: 'DEPENDENCY', value: (r) => r.job.dependency },
  { letter: 'f', long: ['feature'], header: 'FEATURES', value: (r) => r.job.features },
  {
    letter: 'F',
    long: ['arrayjobid'],
    header: 'ARRAY_JOB_ID',
    value: (r) => String(r.tasks !== null || r.job.arrayJobId !== 0 ? r.job.arrayJobId : r.job.jobId),
  },
  { letter: 'g', long: ['groupname'], header: 'GROUP', value: (r) => groupNameForGid(r.job.groupId) ?? String(r.job.groupId) },
  { letter: 'G', long: ['groupid'], header: 'GROUP', value: (r) => String(r.job.groupId) },
  { letter: 'h', long: ['oversubscribe', 'shared'], header: 'OVER_SUBSCRIBE', value: (r) => (r.job.exclusive ? 'NO' : 'OK') },
  { letter: 'H', long: ['sockets'], header: 'SOCKETS_PER_NODE', value: STAR },
  { letter: 'i', long: ['jobarrayid'], header: 'JOBID', value: jobIdText },
  { letter: 'I', long: ['cores'], header: 'CORES_PER_SOCKET', value: STAR },
  { letter: 'j', long: ['name'], header: 'NAME', value: (r) => r.job.name },
  { letter: 'J', long: ['threads'], header: 'THREADS_PER_CORE', value: STAR },
  { letter: 'k', long: ['comment'], header: 'COMMENT', value: (r) => r.job.comment },
  {
    letter: 'K',
    long: ['arraytaskid'],
    header: 'ARRAY_TASK_ID',
    value: (r) => taskString(r) ?? (r.job.arrayJobId !== 0 && r.job.arrayTaskId !== null ? String(r.job.arrayTaskId) : 'N/A'),
  },
  { letter: 'l', long: ['timelimit'], header: 'TIME_LIMIT', value: (r) => limitCell(r.job.timeLimit, () => r.job.timeLimit * 60) },
  {
    letter: 'L',
    long: ['timeleft'],
    header: 'TIME_LEFT',
    value: (r, c) => limitCell(r.job.timeLimit, () => r.job.timeLimit * 60 - timeUsed(r.job, c.now)),
  },
  { letter: 'm', long: ['minmemory'], header: 'MIN_MEMORY', value: (r, c) => minMemory(r.job, c.noConvert === true) },
  { letter: 'M', long: ['timeused'], header: 'TIME', value: (r, c) => over(secs(timeUsed(r.job, c.now))) },
  { letter: 'n', long: ['reqnodes'], header: 'REQ_NODES', value: (r) => over(nodeList(r.job.reqNodes)) },
  { letter: 'N', long: ['nodelist'], header: 'NODELIST', headerOverflows: true, value: (r) => over(nodeList(r.job.nodes)) },
  { letter: 'o', long: ['command'], header: 'COMMAND', value: (r) => r.job.command || null },
  { letter: 'O', long: ['contiguous'], header: 'CONTIGUOUS', value: (r) => (r.job.contiguous ? '1' : '0') },
  { letter: 'p', long: ['priority'], header: 'PRIORITY', value: (r) => priorityFraction(r.job.priority) },
  { letter: 'P', long: ['partition'], header: 'PARTITION', value: (r) => r.job.partition },
  { letter: 'q', long: ['qos'], header: 'QOS', value: NULL },
  { letter: 'Q', long: ['prioritylong'], header: 'PRIORITY', value: (r) => String(r.job.priority) },
  { letter: 'r', long: ['reason'], header: 'REASON', value: reasonOf },
  {
    letter: 'R',
    long: ['reasonlist'],
    header: 'NODELIST(REASON)',
    headerOverflows: true,
    value: (r) => (showsReason(r.job) ? `(${reasonOf(r)})` : over(nodeList(r.job.nodes))),
  },
  // select_g_select_jobinfo_sprint() prints nothing with cons_tres, header included.
  { letter: 's', long: ['selectjobinfo'], header: '', value: () => '' },
  { letter: 'S', long: ['starttime'], header: 'START_TIME', value: (r) => date(r.job.startTime) },
  { letter: 't', long: ['statecompact'], header: 'ST', value: (r) => jobStateCompact(r.job.state) },
  { letter: 'T', long: ['state'], header: 'STATE', value: (r) => jobStateString(r.job.state) },
  { letter: 'u', long: ['username'], header: 'USER', value: (r) => r.job.userName },
  { letter: 'U', long: ['userid'], header: 'UID', value: (r) => String(r.job.userId) },
  { letter: 'v', long: ['reservation'], header: 'RESERVATION', value: (r) => r.job.reservation ?? null },
  { letter: 'V', long: ['submittime'], header: 'SUBMIT_TIME', value: (r) => date(r.job.submitTime) },
  { letter: 'w', long: ['wckey'], header: 'WCKEY', value: NULL },
  { letter: 'W', long: ['licenses'], header: 'LICENSES', value: NULL },
  { letter: 'x', long: [], header: 'EXC_NODES', value: (r) => over(nodeList(r.job.excNodes)) },
  { letter: 'X', long: ['corespec'], header: 'CORE_SPEC', value: NA },
  { letter: 'y', long: ['nice'], header: 'NICE', value: (r) => String(r.job.options?.nice ?? 0) },
  { letter: 'Y', long: ['schednodes'], header: 'SCHEDNODES', headerOverflows: true, value: (r) => over(r.job.schedNodes ?? null) },
  { letter: 'z', long: ['sct'], header: 'S:C:T', value: () => '*:*:*' },
  { letter: 'Z', long: ['workdir'], header: 'WORK_DIR', value: (r) => r.job.workDir },
  // -O only.
  { long: ['container'], header: 'CONTAINER', value: NULL },
  { long: ['burstbuffer'], header: 'BURST_BUFFER', value: NULL },
  { long: ['burstbufferstate'], header: 'BURST_BUFFER_STATE', value: NULL },
  { long: ['cluster'], header: 'CLUSTER', value: (_r, c) => c.cluster },
  { long: ['delayboot'], header: 'DELAY_BOOT', value: () => secs(0) },
  { long: ['numtasks'], header: 'TASKS', value: (r) => String(numTasks(r.job)) },
  { long: ['clusterfeature'], header: 'CLUSTER_FEATURES', value: NULL },
  { long: ['prefer'], header: 'PREFER', value: NULL },
  { long: ['admin_comment'], header: 'ADMIN_COMMENT', value: NULL },
  { long: ['system_comment'], header: 'SYSTEM_COMMENT', value: NULL },
  // tslurm does not record scheduler passes; the job's start (or submission) is the last one that mattered.
  { long: ['lastschedeval'], header: 'LAST_SCHED_EVAL', value: (r) => date(r.job.startTime || r.job.submitTime) },
  {
    long: ['pendingtime'],
    header: 'PENDING_TIME',
    value: (r, c) => String((r.job.startTime && r.job.startTime < c.now ? r.job.startTime : c.now) - r.job.submitTime),
  },
  { long: ['accruetime'], header: 'ACCRUE_TIME', value: (r) => date(r.job.eligibleTime) },
  { long: ['allocnodes'], header: 'ALLOC_NODES', value: (r) => r.job.allocNode },
  { long: ['allocsid'], header: 'ALLOC_SID', value: ZERO },
  { long: ['associd'], header: 'ASSOC_ID', value: ZERO },
  { long: ['batchflag'], header: 'BATCH_FLAG', value: () => '1' },
  { long: ['boardspernode'], header: 'BOARDS_PER_NODE', value: NA },
  { long: ['cpuspertask', 'cpus-per-task'], header: 'CPUS_PER_TASK', value: (r) => String(r.job.cpusPerTask ?? 1) },
  { long: ['derivedec'], header: 'DERIVED_EC', value: (r) => String(r.job.exitStatus) },
  { long: ['eligibletime'], header: 'ELIGIBLE_TIME', value: (r) => date(r.job.eligibleTime) },
  { long: ['exit_code'], header: 'EXIT_CODE', value: (r) => String(r.job.exitStatus) },
  { long: ['origin'], header: 'ORIGIN', value: () => 'NA' },
  { long: ['originraw'], header: 'ORIGIN_RAW', value: () => 'NA' },
  { long: ['siblingsactive'], header: 'ACTIVE_SIBLINGS', value: () => 'NA' },
  { long: ['siblingsactiveraw'], header: 'ACTIVE_SIBLINGS_RAW', value: () => 'NA' },
  { long: ['siblingsviable'], header: 'VIABLE_SIBLINGS', value: () => 'NA' },
  // Slurm's header really is misspelt.
  { long: ['siblingsviableraw'], header: 'VIALBLE_SIBLINGS_RAW', value: () => 'NA' },
  { long: ['maxcpus'], header: 'MAX_CPUS', value: (r) => String(r.job.numCpus) },
  { long: ['maxnodes'], header: 'MAX_NODES', value: (r) => String(r.job.maxNodes || r.job.numNodes) },
  { long: ['network'], header: 'NETWORK', value: NULL },
  { long: ['ntpercore'], header: 'NTASKS_PER_CORE', value: NA },
  { long: ['ntpernode'], header: 'NTASKS_PER_NODE', value: (r) => String(r.job.ntasksPerNode ?? 0) },
  { long: ['ntpersocket'], header: 'NTASKS_PER_SOCKET', value: NA },
  { long: ['ntperboard'], header: 'NTASKS_PER_BOARD', value: ZERO },
  { long: ['preempttime'], header: 'PREEMPT_TIME', value: () => date(0) },
  { long: ['profile'], header: 'PROFILE', value: () => 'NotSet' },
  { long: ['reboot'], header: 'REBOOT', value: ZERO },
  { long: ['reqswitch'], header: 'REQ_SWITCH', value: ZERO },
  { long: ['requeue'], header: 'REQUEUE', value: (r) => (r.job.requeue ? '1' : '0') },
  { long: ['resizetime'], header: 'RESIZE_TIME', value: () => over('N/A') },
  { long: ['restartcnt'], header: 'RESTART_COUNT', value: (r) => String(r.job.restartCount) },
  { long: ['sperboard'], header: 'SOCKETS_PER_BOARD', value: ZERO },
  { long: ['stderr'], header: 'STDERR', value: (r) => (r.job.errorGiven ? r.job.stderr : defaultOutput(r.job)) },
  { long: ['stdin'], header: 'STDIN', value: (r) => r.job.stdin },
  { long: ['stdout'], header: 'STDOUT', value: (r) => (r.job.outputGiven ? r.job.stdout : defaultOutput(r.job)) },
  { long: ['mintime'], header: 'TIME_MIN', value: () => secs(0) },
  { long: ['wait4switch'], header: 'WAIT4SWITCH', value: () => secs(0) },
  { long: ['cpus-per-tres'], header: 'CPUS_PER_TRES', value: NA },
  { long: ['mem-per-tres'], header: 'MEM_PER_TRES', value: NA },
  { long: ['tres', 'tres-alloc'], header: 'TRES_ALLOC', value: (r) => tresText(r.job) },
  { long: ['tres-bind'], header: 'TRES_BIND', value: NA },
  { long: ['tres-freq'], header: 'TRES_FREQ', value: NA },
  { long: ['tres-per-job'], header: 'TRES_PER_JOB', value: (r) => (r.job.gpus ? `gres:gpu:${r.job.gpus}` : 'N/A') },
  { long: ['tres-per-socket'], header: 'TRES_PER_SOCKET', value: NA },
  { long: ['tres-per-task'], header: 'TRES_PER_TASK', value: NA },
  { long: ['mcslabel'], header: 'MCSLABEL', value: NULL },
  { long: ['deadline'], header: 'DEADLINE', value: () => date(0) },
  { long: ['hetjobid', 'packjobid'], header: 'HET_JOB_ID', value: NA },
  { long: ['hetjoboffset', 'packjoboffset'], header: 'HET_JOB_OFFSET', value: NA },
  { long: ['hetjobidset', 'packjobidset'], header: 'HET_JOB_ID_SET', value: NA },
];

const BY_LETTER = new Map(FIELDS.filter((f) => f.letter !== undefined).map((f) => [f.letter!, f]));
const BY_NAME = new Map(FIELDS.flatMap((f) => f.long.map((name) => [name, f] as const)));

/** The field of an -o letter, or undefined. */
export function squeueFieldByLetter(letter: string): SqueueField | undefined {
  return BY_LETTER.get(letter);
}

/** The field of an -O name (any case; `numtask...` is TASKS, as squeue matches it), or undefined. */
export function squeueFieldByName(name: string): SqueueField | undefined {
  const lower = name.toLowerCase();
  return BY_NAME.get(lower.startsWith('numtask') ? 'numtasks' : lower);
}
