// tsqueue against squeue. The queue below is built on small.yaml (node[1-4], 4 CPUs; partition
// small: node[1-2]) the way the same queue was built on the reference Slurm 22.05 cluster, and
// the expectations are squeue's output for it: columns, widths, the pending array as
// `9_[1-3%2]`, the order (partition, state, priority), the reasons. Only the TIME column of
// running and finished jobs depends on the clock; it is masked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userInfo } from 'node:os';
import { fixture, runBin } from '../helpers/run-bin.js';
import { startQueueController, type QueueController } from '../helpers/queue-jobs.js';

const small = fixture('clusters', 'small.yaml');
const lines = (...l: string[]) => l.map((s) => `${s}\n`).join('');
const HEADER = '             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)';
const DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\n/;
// `%.8u` of whoever runs the tests (jobs are submitted as them).
const U = userInfo().username.slice(0, 8).padStart(8);
const uid = String(process.getuid?.() ?? 0);

/** The 10 columns of TIME (`%.10M`) starting at `at`, on every line but the header. */
function maskTime(text: string, at = 50): string {
  return text
    .split('\n')
    .map((l) => (l.length > at + 10 && !l.includes('JOBID') ? `${l.slice(0, at)}      M:SS${l.slice(at + 10)}` : l))
    .join('\n');
}

describe('tsqueue with no controller running', () => {
  const tsqueue = (args: string[]) => runBin('tsqueue', ['--cluster', small, ...args]);

  it('prints the header alone and starts no controller', async () => {
    expect(await tsqueue([])).toEqual({ exitCode: 0, stdout: lines(HEADER), stderr: '' });
    expect(await tsqueue(['-h'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('-j of a job it does not know: slurm_load_jobs error, exit 1 (observed `squeue -j 99999`)', async () => {
    expect(await tsqueue(['-j', '99999'])).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified\n' });
  });

  it('refuses bad ids, states and options with squeue\'s words and status', async () => {
    expect(await tsqueue(['-j', 'abc'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsqueue: error: Invalid job id: abc\n' });
    expect(await tsqueue(['-j', '12,0'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsqueue: error: Invalid job id: 0\n' });
    expect(await tsqueue(['-t', 'pd,badstate'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'tsqueue: error: Invalid job state specified: badstate\n' +
        'tsqueue: error: Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n\n',
    });
    expect(await tsqueue(['-i', '0'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsqueue: error: --iterate=0\n\n' });
    expect(await tsqueue(['-w', 'node9'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsqueue: error: Invalid node name node9\n' });
    expect(await tsqueue(['-l', '-o', '%i'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsqueue: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n',
    });
    expect((await tsqueue(['-o', '%i', '-O', 'jobid'])).stderr).toBe('tsqueue: error: -O (--Format) is incompatible with -o (--format)\n');
    expect((await tsqueue(['-O', 'jobid', '-o', '%i'])).stderr).toBe('tsqueue: error: -o (--format) is incompatible with -O (--Format)\n');
    expect(await tsqueue(['--bogus'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsqueue: unrecognized option \'--bogus\'\nTry "tsqueue --help" for more information\n',
    });
    expect((await tsqueue(['-x'])).stderr).toBe('tsqueue: invalid option -- \'x\'\nTry "tsqueue --help" for more information\n');
    const extra = await tsqueue(['-j', '5', 'extra']);
    expect(extra.exitCode).toBe(1);
    expect(extra.stderr).toBe('tsqueue: error: Unrecognized option: extra\n');
    expect(extra.stdout).toMatch(/^Usage: tsqueue \[-A account\]/);
  });

  it('goes on after an unknown user, an unknown partition or an unknown field, as squeue does', async () => {
    // squeue: the user is reported (its message ends in a newline of its own), the rest listed; exit 0.
    expect(await tsqueue(['-u', 'no-such-user-here'])).toEqual({ exitCode: 0, stdout: lines(HEADER), stderr: 'tsqueue: error: Invalid user: no-such-user-here\n\n' });
    expect(await tsqueue(['-p', 'nosuch'])).toEqual({ exitCode: 0, stdout: lines(HEADER), stderr: '' });
    // An unknown -o field is printed as written; an unknown -O field prints nothing.
    expect(await tsqueue(['-o', '%i %5= %j'])).toEqual({
      exitCode: 0,
      stdout: lines('JOBID %5= NAME'),
      stderr: 'tsqueue: error: Invalid job format specification: =\n',
    });
    expect(await tsqueue(['-O', 'jobid:5,bad:5x,name:5'])).toEqual({
      exitCode: 0,
      stdout: lines('JOBIDxNAME '),
      stderr: 'tsqueue: error: Invalid job format specification: bad\n',
    });
  });
});

describe('tsqueue on a queue', () => {
  let q: QueueController;
  const tsqueue = (args: string[]) => runBin('tsqueue', ['--cluster', small, ...args], { env: q.env });

  beforeAll(async () => {
    q = await startQueueController(small);
    await q.submit({ name: 'done', script: '#!/bin/sh\ntrue\n' }); // 1
    await q.submit({ name: 'failed', script: '#!/bin/sh\nexit 3\n' }); // 2
    await q.until((jobs) => jobs.every((j) => !j.active && (j.state & 0xff) > 2));
    await q.submit({ name: 'run4', ntasks: 4, timeLimit: 30 }); // 3: node1
    await q.submit({ name: 'wide', minNodes: 2, exclusive: true }); // 4: node[2-3]
    await q.until((jobs) => jobs.filter((j) => (j.state & 0xff) === 1).length === 2);
    await q.submit({ name: 'big', ntasks: 8, minNodes: 2 }); // 5: Resources (node4 alone is free)
    await q.submit({ name: 'prio' }); // 6: Priority
    await q.submit({ name: 'held', hold: true }); // 7
    await q.submit({ name: 'dep', dependency: { combine: 'all', terms: [{ type: 'afterok', jobs: [{ jobId: 3 }] }], text: 'afterok:3' } }); // 8
    await q.submit({ name: 'arr', array: { taskIds: [1, 2, 3], maxRunning: 2, text: '1-3%2' } }); // 9, 10, 11
    await q.submit({ name: 'short', partition: 'small', timeLimit: 5 }); // 12
    const gone = await q.submit({ name: 'gone', hold: true }); // 13
    await q.call('cancel', { ids: [String(gone)], userId: process.getuid?.() ?? 0 });
    // 12 (partition small, node[1-2]) waits for Resources: under sched/builtin, job 5 blocks
    // partition debug and holds back its nodes, which include all of small's, and Slurm's
    // schedule() gives a job whose partition has no node left WAIT_RESOURCES ("too many nodes
    // ... reserved for jobs in higher priority partition"). The reference squeue showed
    // (Priority) there under sched/backfill, Slurm's default; the rest is as it printed.
    const reasons: Record<number, string> = { 5: 'Resources', 6: 'Priority', 7: 'JobHeldUser', 8: 'Dependency', 9: 'Priority', 12: 'Resources' };
    await q.until((jobs) => jobs.every((j) => reasons[j.jobId] === undefined || j.reason === reasons[j.jobId]) && (jobs.find((j) => j.jobId === 13)!.state & 0xff) === 4);
  });
  afterAll(() => q?.stop());

  it('squeue: the default format, pending and running by partition, state and priority', async () => {
    const r = await tsqueue([]);
    expect(r.stderr).toBe('');
    expect(maskTime(r.stdout)).toBe(
      lines(
        HEADER,
        `                 5     debug      big ${U} PD       M:SS      2 (Resources)`,
        `                 6     debug     prio ${U} PD       M:SS      1 (Priority)`,
        `                 8     debug      dep ${U} PD       M:SS      1 (Dependency)`,
        `         9_[1-3%2]     debug      arr ${U} PD       M:SS      1 (Priority)`,
        `                 7     debug     held ${U} PD       M:SS      1 (JobHeldUser)`,
        `                 3     debug     run4 ${U}  R       M:SS      1 node1`,
        `                 4     debug     wide ${U}  R       M:SS      2 node[2-3]`,
        `                12     small    short ${U} PD       M:SS      1 (Resources)`,
      ),
    );
    // Pending jobs have used no time.
    expect(r.stdout).toContain(`                 5     debug      big ${U} PD       0:00      2 (Resources)\n`);
  });

  it('squeue -h -j ID -o %T: what a script polls', async () => {
    expect(await tsqueue(['-h', '-j', '3', '-o', '%T'])).toEqual({ exitCode: 0, stdout: 'RUNNING\n', stderr: '' });
    expect((await tsqueue(['-h', '-j', '1', '-o', '%T'])).stdout).toBe('');
    expect((await tsqueue(['-h', '-j', '1', '-t', 'all', '-o', '%T %r'])).stdout).toBe('COMPLETED None\n');
  });

  it('squeue -l: the date, STATE and TIME_LIMIT', async () => {
    const r = await tsqueue(['-l']);
    expect(r.stdout).toMatch(DATE);
    expect(maskTime(r.stdout.replace(DATE, ''), 56)).toBe(
      lines(
        '             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)',
        `                 5     debug      big ${U}  PENDING       M:SS UNLIMITED      2 (Resources)`,
        `                 6     debug     prio ${U}  PENDING       M:SS UNLIMITED      1 (Priority)`,
        `                 8     debug      dep ${U}  PENDING       M:SS UNLIMITED      1 (Dependency)`,
        `         9_[1-3%2]     debug      arr ${U}  PENDING       M:SS UNLIMITED      1 (Priority)`,
        `                 7     debug     held ${U}  PENDING       M:SS UNLIMITED      1 (JobHeldUser)`,
        `                 3     debug     run4 ${U}  RUNNING       M:SS     30:00      1 node1`,
        `                 4     debug     wide ${U}  RUNNING       M:SS UNLIMITED      2 node[2-3]`,
        `                12     small    short ${U}  PENDING       M:SS      5:00      1 (Resources)`,
      ),
    );
    expect((await tsqueue(['-l', '-h'])).stdout).not.toMatch(DATE);
  });

  it('squeue -r: array tasks one per line, in task order', async () => {
    const r = await tsqueue(['-r', '-p', 'debug', '-t', 'PD']);
    expect(r.stdout).toBe(
      lines(
        HEADER,
        `                 5     debug      big ${U} PD       0:00      2 (Resources)`,
        `                 6     debug     prio ${U} PD       0:00      1 (Priority)`,
        `                 8     debug      dep ${U} PD       0:00      1 (Dependency)`,
        `               9_1     debug      arr ${U} PD       0:00      1 (Priority)`,
        `               9_2     debug      arr ${U} PD       0:00      1 (Priority)`,
        `               9_3     debug      arr ${U} PD       0:00      1 (Priority)`,
        `                 7     debug     held ${U} PD       0:00      1 (JobHeldUser)`,
      ),
    );
  });

  it('-j picks jobs and array tasks: 9_[1,3] for two tasks of the pending array, 9_2 for one', async () => {
    const f = ['-h', '-o', '%i|%A|%F|%K'];
    expect((await tsqueue([...f, '-j', '9'])).stdout).toBe('9_[1-3%2]|9|9|1-3%2\n');
    expect((await tsqueue([...f, '-j', '9_1,9_3'])).stdout).toBe('9_[1,3]|9|9|1,3\n');
    expect((await tsqueue([...f, '-j', '9_2'])).stdout).toBe('9_2|9|9|2\n');
    expect((await tsqueue([...f, '-j', '3,12,99'])).stdout).toBe('3|3|3|N/A\n12|12|12|N/A\n');
  });

  it('-t: short and long names, flags, all', async () => {
    const f = ['-h', '-o', '%i %t %T'];
    expect((await tsqueue([...f, '-t', 'CD,failed,CA'])).stdout).toBe(lines('13 CA CANCELLED', '1 CD COMPLETED', '2 F FAILED'));
    expect((await tsqueue([...f, '-t', 'r'])).stdout).toBe(lines('3 R RUNNING', '4 R RUNNING'));
    expect((await tsqueue([...f, '-t', 'CG'])).stdout).toBe('');
    expect((await tsqueue([...f, '-t', 'ALL'])).stdout.split('\n')).toHaveLength(12);
    // Finished jobs: the reason shows for a failed one, the nodes for the others.
    const done = await tsqueue(['-t', 'CD,F,CA']);
    expect(maskTime(done.stdout)).toBe(
      lines(
        HEADER,
        `                13     debug     gone ${U} CA       M:SS      1 `,
        `                 1     debug     done ${U} CD       M:SS      1 node1`,
        `                 2     debug   failed ${U}  F       M:SS      1 (NonZeroExitCode)`,
      ),
    );
  });

  it('-u, --me, -n (any case), -p, -w filter', async () => {
    const f = ['-h', '-o', '%i'];
    expect((await tsqueue([...f, '-u', uid, '-t', 'R'])).stdout).toBe(lines('3', '4'));
    expect((await tsqueue([...f, '--me', '-t', 'R'])).stdout).toBe(lines('3', '4'));
    expect((await tsqueue([...f, '-n', 'PRIO,held'])).stdout).toBe(lines('6', '7'));
    expect((await tsqueue([...f, '-p', 'small'])).stdout).toBe(lines('12'));
    expect((await tsqueue([...f, '-w', 'node[1-2]'])).stdout).toBe(lines('3', '4'));
    expect((await tsqueue([...f, '--name=arr', '--part=debug'])).stdout).toBe(lines('9_[1-3%2]'));
  });

  it('-o with squeue\'s fields for pending jobs', async () => {
    const r = await tsqueue(['-t', 'PD', '-p', 'debug', '-o', '%i|%j|%T|%r|%D|%C|%l|%L|%E|%K|%F|%A|%Q|%p|%h|%c|%m|%b|%a|%q|%N|%B|%S|%e']);
    // Job 5 waits for node1, whose job (3) has a 30-minute limit: it is expected then.
    const end3 = (await tsqueue(['-h', '-j', '3', '-o', '%e'])).stdout.trim();
    expect(r.stdout).toBe(
      lines(
        'JOBID|NAME|STATE|REASON|NODES|CPUS|TIME_LIMIT|TIME_LEFT|DEPENDENCY|ARRAY_TASK_ID|ARRAY_JOB_ID|JOBID|PRIORITY|PRIORITY|OVER_SUBSCRIBE|MIN_CPUS|MIN_MEMORY|TRES_PER_NODE|ACCOUNT|QOS|NODELIST|EXEC_HOST|START_TIME|END_TIME',
        `5|big|PENDING|Resources|2|8|UNLIMITED|UNLIMITED|(null)|N/A|5|5|4294901755|0.99998474027961|OK|1|0|N/A|(null)|(null)||n/a|${end3}|N/A`,
        '6|prio|PENDING|Priority|1|1|UNLIMITED|UNLIMITED|(null)|N/A|6|6|4294901754|0.99998474004678|OK|1|0|N/A|(null)|(null)||n/a|N/A|N/A',
        '8|dep|PENDING|Dependency|1|1|UNLIMITED|UNLIMITED|afterok:3(unfulfilled)|N/A|8|8|4294901753|0.99998473981395|OK|1|0|N/A|(null)|(null)||n/a|N/A|N/A',
        '9_[1-3%2]|arr|PENDING|Priority|1|1|UNLIMITED|UNLIMITED|(null)|1-3%2|9|9|4294901752|0.99998473958112|OK|1|0|N/A|(null)|(null)||n/a|N/A|N/A',
        '7|held|PENDING|JobHeldUser|1|1|UNLIMITED|UNLIMITED|(null)|N/A|7|7|0|0.00000000000000|OK|1|0|N/A|(null)|(null)||n/a|N/A|N/A',
      ),
    );
  });

  it('-o widths, justification, prefix and suffixes as squeue cuts and pads them', async () => {
    expect((await tsqueue(['-t', 'R', '-o', 'pre %i %.3j|%5u%%%8T end'])).stdout).toBe(
      lines('pre JOBID NAM|USER STATE    end', `pre 3 run|${U.trim().slice(0, 5).padEnd(5)}RUNNING  end`, `pre 4 wid|${U.trim().slice(0, 5).padEnd(5)}RUNNING  end`),
    );
    expect((await tsqueue(['-t', 'R', '-o', '%.4N|%4N|%.15R|%h|%B'])).stdout).toBe(
      lines('NODELIST|NODE|NODELIST(REASON)|OVER_SUBSCRIBE|EXEC_HOST', 'node1|node|          node1|OK|node1', 'node[2-3]|node|      node[2-3]|NO|node2'),
    );
  });

  it('-O: names any case, 20 wide unless given, `.` right-justifies, text after the width follows', async () => {
    expect((await tsqueue(['-t', 'PD', '-p', 'debug', '-O', 'JobID,Name:20,State,Reason:30,ArrayTaskID,TimeLimit'])).stdout).toBe(
      lines(
        'JOBID               NAME                STATE               REASON                        ARRAY_TASK_ID       TIME_LIMIT          ',
        '5                   big                 PENDING             Resources                     N/A                 UNLIMITED           ',
        '6                   prio                PENDING             Priority                      N/A                 UNLIMITED           ',
        '8                   dep                 PENDING             Dependency                    N/A                 UNLIMITED           ',
        '9                   arr                 PENDING             Priority                      1-3%2               UNLIMITED           ',
        '7                   held                PENDING             JobHeldUser                   N/A                 UNLIMITED           ',
      ),
    );
    expect((await tsqueue(['-t', 'R', '-O', 'jobid:.6|,name:5,statecompact:.4 ,reasonlist,timelimit:8x,numcpus:0,cluster'])).stdout).toBe(
      lines(
        ' JOBID|NAME   ST NODELIST(REASON)    TIME_LIMxCPUSCLUSTER             ',
        '     3|run4    R node1               30:00   x4small               ',
        '     4|wide    R node[2-3]           UNLIMITEx8small               ',
      ),
    );
  });

  it('--start: pending jobs by expected start; only jobs waiting for resources have one', async () => {
    // Job 5 starts when job 3 (30:00, on node1) ends, on node1 and a node free now.
    const end3 = (await tsqueue(['-h', '-j', '3', '-o', '%e'])).stdout.trim();
    const sched5 = (await tsqueue(['-h', '-j', '5', '-o', '%Y'])).stdout.trim();
    expect(sched5).toMatch(/^node\[1,\d\]$/);
    expect((await tsqueue(['--start', '-p', 'debug'])).stdout).toBe(
      lines(
        '             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)',
        `                 5     debug      big ${U} PD ${end3}      2 ${sched5.padEnd(20)} (Resources)`,
        `                 6     debug     prio ${U} PD                 N/A      1 (null)               (Priority)`,
        `                 7     debug     held ${U} PD                 N/A      1 (null)               (JobHeldUser)`,
        `                 8     debug      dep ${U} PD                 N/A      1 (null)               (Dependency)`,
        `         9_[1-3%2]     debug      arr ${U} PD                 N/A      1 (null)               (Priority)`,
      ),
    );
  });

  it('-S sorts by the keys given; an unknown key fails after the header', async () => {
    const f = ['-h', '-o', '%i', '-t', 'PD'];
    expect((await tsqueue([...f, '-S', 'i'])).stdout).toBe(lines('5', '6', '7', '8', '9_[1-3%2]', '12'));
    expect((await tsqueue([...f, '-S', '-j'])).stdout).toBe(lines('12', '6', '7', '8', '5', '9_[1-3%2]'));
    expect(await tsqueue(['-o', '%i', '-S', 'X'])).toEqual({ exitCode: 1, stdout: 'JOBID\n', stderr: 'tsqueue: error: Invalid sort specification: X\n' });
  });

  it('--json: every job, in the data_parser shape', async () => {
    const r = await tsqueue(['--json', '-j', '3']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout) as { meta: { plugin: unknown }; errors: unknown[]; jobs: Array<Record<string, unknown>> };
    expect(Object.keys(doc)).toEqual(['meta', 'errors', 'jobs']);
    expect(doc.meta.plugin).toEqual({ type: 'openapi/v0.0.38', name: 'Slurm OpenAPI v0.0.38' });
    expect(doc.errors).toEqual([]);
    // squeue 22.05 dumps every job, whatever -j, -t or -u say; the array's pending tasks are one record.
    expect(doc.jobs.map((j) => j.job_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13]);
    const run4 = doc.jobs[2]!;
    expect(run4).toMatchObject({
      array_job_id: 0,
      array_task_id: null,
      batch_host: 'node1',
      cluster: 'small',
      job_id: 3,
      job_state: 'RUNNING',
      name: 'run4',
      nodes: 'node1',
      cpus: 4,
      node_count: 1,
      tasks: 4,
      partition: 'debug',
      priority: 4294901757, // the fourth job: slurmctld's TOP_PRIORITY - 4
      state_reason: 'None',
      time_limit: 30,
      user_id: Number(uid),
      user_name: userInfo().username,
    });
    expect(Object.keys(run4).slice(0, 6)).toEqual(['array_job_id', 'array_task_id', 'array_max_tasks', 'array_task_string', 'batch_flag', 'batch_host']);
    expect(doc.jobs.find((j) => j.job_id === 9)).toMatchObject({ array_job_id: 9, array_task_id: null, array_max_tasks: 2, array_task_string: '1-3%2' });
    expect(doc.jobs.find((j) => j.job_id === 8)).toMatchObject({ dependency: 'afterok:3(unfulfilled)', time_limit: null, nodes: '' });
    expect(doc.jobs.find((j) => j.job_id === 2)).toMatchObject({ job_state: 'FAILED', exit_code: 768, state_reason: 'NonZeroExitCode' });
    const yaml = await tsqueue(['--yaml']);
    expect(yaml.stdout).toMatch(/^meta:\n {2}plugin:\n {4}type: openapi\/v0\.0\.38\n/);
    expect(yaml.stdout).toContain('\njobs:\n  - array_job_id: 0\n');
  });

  it('-v: the options, the date and the number of records first', async () => {
    const r = await tsqueue(['-v', '-h', '-o', '%i', '-t', 'R', '-n', 'run4']);
    const out = r.stdout.split('\n');
    expect(out.slice(0, 6)).toEqual(['-----------------------------', 'all         = false', 'array       = false', 'federation  = false', 'format      = %i', 'iterate     = 0']);
    expect(out).toContain('names       = run4');
    expect(out).toContain('states      = R');
    expect(r.stdout).toMatch(/-----------------------------\n\n\nlast_update_time=\d+ records=11\n3\n$/);
    const two = await tsqueue(['-vv', '-h', '-j', '3', '-o', '%i']);
    expect(two.stdout).toContain('job_list[0] = 3\n-----------------------------\n\n\nlast_update_time=0 records=1\n3\n');
  });

  it('-i: the listing again, with the date, every so many seconds', async () => {
    const timed = await runBin('tsqueue', ['--cluster', small, '-i', '1', '-o', '%i', '-t', 'R'], { env: q.env, timeout: 3000 });
    const block = /[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\nJOBID\n3\n4\n\n/g;
    expect(timed.stdout.match(block)?.length).toBeGreaterThanOrEqual(2);
  });
});
