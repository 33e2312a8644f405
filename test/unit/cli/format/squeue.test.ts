// squeue's formats, filters and order, in process. The queue in "a queue as Slurm 22.05
// showed it" is jobs 497-503 of the reference cluster rebuilt as the controller's views; the
// expected text is what squeue printed for them (times fixed by `now`).
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../../src/protocol/job-view.js';
import { slurmListSort } from '../../../../src/cli/format/slurm-list-sort.js';
import { buildRecords, combinePendingTasks, expandTasks, formatTaskIds, type SqueueRecord } from '../../../../src/cli/format/squeue-records.js';
import { filterRecords, type SqueueFilter } from '../../../../src/cli/format/squeue-filter.js';
import { layoutFromFormat, layoutFromLongFormat, renderHeader, renderRecord, type SqueueLayout } from '../../../../src/cli/format/squeue-print.js';
import { DEFAULT_SQUEUE_SORT, sortRecords } from '../../../../src/cli/format/squeue-sort.js';
import { jobStateCompact, jobStateNum, jobStateString } from '../../../../src/core/job-state.js';
import { parseJobList } from '../../../../src/commands/tsqueue/params.js';

const INFINITE = 0xffffffff;
const START = 1795315771; // 2026-11-22T02:49:31 UTC

function view(over: Partial<JobView>): JobView {
  return {
    jobId: 1,
    arrayJobId: 0,
    arrayTaskId: null,
    arrayMaxRunning: null,
    defaultNodeMemory: null,
    name: 'wrap',
    userId: 0,
    userName: 'root',
    groupId: 0,
    partition: 'debug',
    state: 0,
    reason: 'None',
    priority: 1,
    timeLimit: INFINITE,
    submitTime: START,
    eligibleTime: START,
    startTime: 0,
    endTime: 0,
    nodes: null,
    numNodes: 1,
    numCpus: 1,
    numTasks: null,
    cpusPerTask: null,
    minNodes: null,
    memPerNode: null,
    memPerCpu: null,
    features: null,
    gres: null,
    exitStatus: 0,
    dependency: null,
    held: null,
    requeue: true,
    restartCount: 0,
    workDir: '/tmp/tsq-real',
    command: '',
    stdout: 'slurm-%j.out',
    stderr: 'slurm-%j.out',
    stdin: '/dev/null',
    batchHost: null,
    comment: null,
    active: false,
    ntasksPerNode: null,
    maxNodes: null,
    reqNodes: null,
    excNodes: null,
    contiguous: false,
    exclusive: false,
    gpus: null,
    outputGiven: false,
    errorGiven: false,
    allocNode: 'localhost',
    ...over,
  };
}

const running = (over: Partial<JobView>): JobView => view({ state: 1, startTime: START, eligibleTime: START, ...over });
const task = (id: number, t: number, over: Partial<JobView> = {}): JobView =>
  view({ jobId: id, arrayJobId: 503, arrayTaskId: t, arrayMaxRunning: 2, name: 'tqarr', reason: 'Priority', priority: 4294901634, startTime: 1826851771, ...over });

// squeue -n tqrun,tqwide,... on the reference cluster, in slurmctld's order.
const queue: JobView[] = [
  running({ jobId: 497, name: 'tqrun', nodes: 'node1', numCpus: 4, numTasks: 4, priority: 4294901639, timeLimit: 30, endTime: START + 1800, batchHost: 'node1' }),
  running({ jobId: 498, name: 'tqwide', nodes: 'node[2-3]', numNodes: 2, numCpus: 8, priority: 4294901638, endTime: INFINITE, batchHost: 'node2', exclusive: true }),
  view({ jobId: 499, name: 'tqres', reason: 'Resources', numCpus: 4, priority: 4294901637, startTime: START + 1800 }),
  view({ jobId: 500, name: 'tqprio', reason: 'Priority', numCpus: 2, priority: 4294901636, startTime: 1826851771 }),
  view({ jobId: 501, name: 'tqheld', reason: 'JobHeldUser', priority: 0, held: 'user', eligibleTime: 0 }),
  view({ jobId: 502, name: 'tqdep', reason: 'Dependency', priority: 4294901635, dependency: 'afterok:497(unfulfilled)', eligibleTime: 0 }),
  task(503, 1),
  task(504, 2),
  task(505, 3),
];

const ctx = { now: START + 5, cluster: 'refcluster' };
const noFilter: SqueueFilter = { jobs: null, states: null, users: null, names: null, partitions: null, nodes: null, none: false };

function listing(views: readonly JobView[], layout: SqueueLayout, opts: { filter?: Partial<SqueueFilter>; sort?: string; array?: boolean; now?: number } = {}): string {
  let records = filterRecords(buildRecords(views), { ...noFilter, ...opts.filter });
  if (!opts.array) records = combinePendingTasks(records);
  const now = opts.now ?? ctx.now;
  sortRecords(records, opts.sort ?? DEFAULT_SQUEUE_SORT, { now, startNow: 0, info: () => {} });
  const lines = records.flatMap((r) => (opts.array ? expandTasks(r) : [r])).map((r) => renderRecord(r, layout, { ...ctx, now }));
  return renderHeader(layout) + lines.join('');
}

const DEFAULT = layoutFromLongFormat('jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,statecompact:.2 ,timeused:.10 ,numnodes:.6 ,reasonlist:0');
const LONG = layoutFromLongFormat('jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,state:.8 ,timeused:.10 ,timelimit:.9 ,numnodes:.6 ,reasonlist:0');
const lines = (...l: string[]) => l.map((s) => `${s}\n`).join('');

beforeAll(() => {
  process.env.TZ = 'UTC';
});

describe('a queue as Slurm 22.05 showed it', () => {
  it('squeue', () => {
    expect(listing(queue, DEFAULT)).toBe(
      lines(
        '             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)',
        '               499     debug    tqres     root PD       0:00      1 (Resources)',
        '               500     debug   tqprio     root PD       0:00      1 (Priority)',
        '               502     debug    tqdep     root PD       0:00      1 (Dependency)',
        '       503_[1-3%2]     debug    tqarr     root PD       0:00      1 (Priority)',
        '               501     debug   tqheld     root PD       0:00      1 (JobHeldUser)',
        '               497     debug    tqrun     root  R       0:05      1 node1',
        '               498     debug   tqwide     root  R       0:05      2 node[2-3]',
      ),
    );
  });

  it('squeue -l (without its date line) and -r', () => {
    expect(listing(queue, LONG, { now: START + 7 })).toBe(
      lines(
        '             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)',
        '               499     debug    tqres     root  PENDING       0:00 UNLIMITED      1 (Resources)',
        '               500     debug   tqprio     root  PENDING       0:00 UNLIMITED      1 (Priority)',
        '               502     debug    tqdep     root  PENDING       0:00 UNLIMITED      1 (Dependency)',
        '       503_[1-3%2]     debug    tqarr     root  PENDING       0:00 UNLIMITED      1 (Priority)',
        '               501     debug   tqheld     root  PENDING       0:00 UNLIMITED      1 (JobHeldUser)',
        '               497     debug    tqrun     root  RUNNING       0:07     30:00      1 node1',
        '               498     debug   tqwide     root  RUNNING       0:07 UNLIMITED      2 node[2-3]',
      ),
    );
    expect(listing(queue, DEFAULT, { array: true, now: START + 7 }).split('\n').slice(3, 7)).toEqual([
      '               502     debug    tqdep     root PD       0:00      1 (Dependency)',
      '             503_1     debug    tqarr     root PD       0:00      1 (Priority)',
      '             503_2     debug    tqarr     root PD       0:00      1 (Priority)',
      '             503_3     debug    tqarr     root PD       0:00      1 (Priority)',
    ]);
  });

  it('squeue -o %all', () => {
    const out = listing(queue, layoutFromFormat('%all'), { now: START + 15 }).split('\n');
    expect(out[0]).toBe(
      'ACCOUNT|TRES_PER_NODE|MIN_CPUS|MIN_TMP_DISK|END_TIME|FEATURES|GROUP|OVER_SUBSCRIBE|JOBID|NAME|COMMENT|TIME_LIMIT|MIN_MEMORY|REQ_NODES|COMMAND|PRIORITY|QOS|REASON||ST|USER|RESERVATION|WCKEY|EXC_NODES|NICE|S:C:T|JOBID|EXEC_HOST|CPUS|NODES|DEPENDENCY|ARRAY_JOB_ID|GROUP|SOCKETS_PER_NODE|CORES_PER_SOCKET|THREADS_PER_CORE|ARRAY_TASK_ID|TIME_LEFT|TIME|NODELIST|CONTIGUOUS|PARTITION|PRIORITY|NODELIST(REASON)|START_TIME|STATE|UID|SUBMIT_TIME|LICENSES|CORE_SPEC|SCHEDNODES|WORK_DIR',
    );
    // squeue's lines for these jobs, except what only Slurm's backfill knows: the expected
    // start (and so end) of pending jobs, and the nodes it plans for them.
    expect(out[3]).toBe(
      '(null)|N/A|1|0|N/A|(null)|root|OK|502|tqdep|(null)|UNLIMITED|0||(null)|0.99998471233993|(null)|Dependency||PD|root|(null)|(null)||0|*:*:*|502|n/a|1|1|afterok:497(unfulfilled)|502|0|*|*|*|N/A|UNLIMITED|0:00||0|debug|4294901635|(Dependency)|N/A|PENDING|0|2026-11-22T02:49:31|(null)|N/A|(null)|/tmp/tsq-real',
    );
    expect(out[6]).toBe(
      '(null)|N/A|1|0|2026-11-22T03:19:31|(null)|root|OK|497|tqrun|(null)|30:00|0||(null)|0.99998471327126|(null)|None||R|root|(null)|(null)||0|*:*:*|497|node1|4|1|(null)|497|0|*|*|*|N/A|29:45|0:15|node1|0|debug|4294901639|node1|2026-11-22T02:49:31|RUNNING|0|2026-11-22T02:49:31|(null)|N/A|(null)|/tmp/tsq-real',
    );
    expect(out[7]).toBe(
      '(null)|N/A|1|0|NONE|(null)|root|NO|498|tqwide|(null)|UNLIMITED|0||(null)|0.99998471303843|(null)|None||R|root|(null)|(null)||0|*:*:*|498|node2|8|2|(null)|498|0|*|*|*|N/A|UNLIMITED|0:15|node[2-3]|0|debug|4294901638|node[2-3]|2026-11-22T02:49:31|RUNNING|0|2026-11-22T02:49:31|(null)|N/A|(null)|/tmp/tsq-real',
    );
  });

  it('squeue --start: by expected start, jobs without one last (in the order squeue gives them)', () => {
    const out = listing(queue, layoutFromFormat('%i'), { filter: { states: [0] }, sort: 'S' });
    expect(out).toBe(lines('JOBID', '499', '500', '503_[1-3%2]', '501', '502'));
  });

  it('the pending tasks of an array kept together; one left is shown alone under the array id', () => {
    const started = [task(503, 1, { state: 1, reason: 'None' }), task(504, 2, { state: 1, reason: 'None' }), task(505, 3, { reason: 'JobArrayTaskLimit' })];
    expect(listing(started, layoutFromFormat('%i|%A|%F|%K|%r'), { filter: { states: 'all' } })).toBe(
      lines('JOBID|JOBID|ARRAY_JOB_ID|ARRAY_TASK_ID|REASON', '503_3|503|503|3|JobArrayTaskLimit', '503_1|503|503|1|None', '503_2|504|503|2|None'),
    );
  });
});

describe('an array with tasks held one by one (Slurm 22.05: array 514, scontrol hold 514_2 514_4)', () => {
  const arr = [0, 1, 2, 3, 4, 5].map((t) =>
    view({
      jobId: 514 + t,
      arrayJobId: 514,
      arrayTaskId: t,
      name: 'tqarr2',
      numCpus: 4,
      ...(t === 2 || t === 4 ? { reason: 'JobHeldAdmin', held: 'admin' as const, priority: 0 } : { reason: 'Resources', priority: 4294901622 }),
    }),
  );

  it('squeue puts them back together, with both reasons', () => {
    expect(listing(arr, DEFAULT)).toBe(
      lines(
        '             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)',
        '         514_[0-5]     debug   tqarr2     root PD       0:00      1 (Resources,JobHeldAdmin)',
      ),
    );
  });

  it('squeue -r lists the held ones after the others, last held first', () => {
    expect(listing(arr, layoutFromFormat('%i %A %R'), { array: true })).toBe(
      lines('JOBID JOBID NODELIST(REASON)', '514_0 514 (Resources)', '514_1 514 (Resources)', '514_3 514 (Resources)', '514_5 514 (Resources)', '514_4 518 (JobHeldAdmin)', '514_2 516 (JobHeldAdmin)'),
    );
  });

  it('-j with some tasks cuts the array down: 514_[1,3]; one task alone: 514_1', () => {
    const f = layoutFromFormat('%i %A %K');
    expect(listing(arr, f, { filter: { jobs: parseJobList('514_1,514_3') } })).toBe(lines('JOBID JOBID ARRAY_TASK_ID', '514_[1,3] 514 1,3'));
    expect(listing(arr, f, { filter: { jobs: parseJobList('514_1') } })).toBe(lines('JOBID JOBID ARRAY_TASK_ID', '514_1 514 1'));
    expect(listing(arr, f, { filter: { jobs: parseJobList('514_2') } })).toBe(lines('JOBID JOBID ARRAY_TASK_ID', '514_2 516 2'));
    expect(listing(arr, f, { filter: { jobs: parseJobList('514') } })).toBe(lines('JOBID JOBID ARRAY_TASK_ID', '514_[0-5] 514 0-5'));
  });
});

describe('format strings', () => {
  it('-o: a prefix, `.` right-justifies and cuts, `%%` vanishes, unknown letters printed as written', () => {
    const layout = layoutFromFormat('pre %i %.3j|%5u%%%8T end %5=');
    expect(layout.invalid).toEqual(['Invalid job format specification: =']);
    expect(renderHeader(layout)).toBe('pre JOBID NAM|USER STATE    end %5=\n');
    expect(renderRecord(buildRecords([queue[2]!])[0]!, layout, ctx)).toBe('pre 499 tqr|root PENDING  end %5=\n');
  });

  it('-o: node lists and durations may overflow a right-justified width; other values are cut', () => {
    const layout = layoutFromFormat('%.4N|%4N|%.3M|%.2l|%.2P');
    expect(renderHeader(layout)).toBe('NODELIST|NODE|TIM|TI|PA\n');
    expect(renderRecord(buildRecords([queue[1]!])[0]!, layout, { ...ctx, now: START + 3600 })).toBe('node[2-3]|node|1:00:00|UN|de\n');
  });

  it('-O: 20 wide by default, `:[.]width[suffix]`, names in any case; unknown names print only their suffix', () => {
    const layout = layoutFromLongFormat('JobID,name:5,STATE:.9|,bogus:4x,timelimit:0');
    expect(layout.invalid).toEqual(['Invalid job format specification: bogus']);
    expect(renderHeader(layout)).toBe('JOBID               NAME     STATE|xTIME_LIMIT\n');
    expect(renderRecord(buildRecords([queue[0]!])[0]!, layout, ctx)).toBe('497                 tqrun  RUNNING|x30:00\n');
  });
});

describe('filters', () => {
  const all: SqueueRecord[] = buildRecords([
    ...queue,
    view({ jobId: 600, name: 'done', state: 3, nodes: 'node1', startTime: START, endTime: START + 2 }),
    view({ jobId: 601, name: 'ending', state: 3 | 0x8000, nodes: 'node2', startTime: START, endTime: START + 2 }),
  ]);
  const ids = (filter: Partial<SqueueFilter>): number[] => filterRecords(all, { ...noFilter, ...filter }).map((r) => r.job.jobId);

  it('by default: pending, running, suspended and completing jobs', () => {
    expect(ids({})).toEqual([497, 498, 499, 500, 501, 502, 503, 601]);
  });

  it('-t: a base state matches the state exactly; a flag matches jobs that have it', () => {
    expect(ids({ states: [jobStateNum('CD')!] })).toEqual([600]);
    expect(ids({ states: [jobStateNum('completing')!] })).toEqual([601]);
    expect(ids({ states: 'all' })).toHaveLength(9);
  });

  it('-n without case, -p, -w, -u; an account, QOS or reservation asked for leaves nothing', () => {
    expect(ids({ names: ['TQRUN', 'done'] })).toEqual([497]);
    expect(ids({ partitions: ['small'] })).toEqual([]);
    expect(ids({ nodes: new Set(['node3']) })).toEqual([498]);
    expect(ids({ users: [1000] })).toEqual([]);
    expect(ids({ none: true })).toEqual([]);
  });
});

describe('pieces', () => {
  it('slurmListSort is glibc\'s merge sort: stable, and reverses items an inconsistent comparator calls all greater', () => {
    const pairs = [3, 1, 2, 1, 3].map((k, i) => ({ k, i }));
    expect(slurmListSort(pairs, (a, b) => a.k - b.k).map((p) => p.i)).toEqual([1, 3, 2, 0, 4]);
    expect(slurmListSort([1, 2, 3, 4, 5], () => 1)).toEqual([5, 4, 3, 2, 1]);
  });

  it('job states: names with flags first; -t names in any case', () => {
    expect(jobStateString(3 | 0x8000)).toBe('COMPLETING');
    expect(jobStateCompact(0 | 0x400)).toBe('RQ');
    expect(jobStateNum('pd')).toBe(0);
    expect(jobStateNum('Running')).toBe(1);
    expect(jobStateNum('OOM')).toBe(11);
    expect(jobStateNum('CG')).toBe(0x8000);
    expect(jobStateNum('bogus')).toBeUndefined();
  });

  it('-j ids are read as strtol() reads them', () => {
    expect(parseJobList('12,13_2,,14abc,15_')).toEqual([
      { id: 12, task: undefined },
      { id: 13, task: 2 },
      { id: 14, task: undefined },
      { id: 15, task: 0 },
    ]);
    expect(() => parseJobList('abc')).toThrow('Invalid job id: abc');
    expect(() => parseJobList('12,-5')).toThrow('Invalid job id: -5');
  });

  it('sizes as squeue prints them (observed: --mem=100 -c2 --ntasks-per-node=2 -w node1 -x node3; --mem-per-cpu=2048)', () => {
    const layout = layoutFromFormat('%m|%c|%n|%x|%C');
    const a = buildRecords([view({ memPerNode: 100, cpusPerTask: 2, ntasksPerNode: 2, numCpus: 4, reqNodes: 'node1', excNodes: 'node3' })])[0]!;
    const b = buildRecords([view({ memPerCpu: 2048 })])[0]!;
    expect(renderRecord(a, layout, ctx)).toBe('100M|4|node1|node3|4\n');
    expect(renderRecord(b, layout, ctx)).toBe('2G|1|||1\n');
    expect(renderRecord(b, layout, { ...ctx, noConvert: true })).toBe('2048M|1|||1\n');
  });

  it('task lists as bit_fmt() writes them', () => {
    expect(formatTaskIds([0, 1, 2, 3, 5, 7, 8])).toBe('0-3,5,7-8');
    expect(formatTaskIds([4])).toBe('4');
  });
});
