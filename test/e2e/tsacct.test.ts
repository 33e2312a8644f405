// tsacct against real jobs: each kind of end (completed, failed, cancelled, timed out), steps
// run by tsrun inside tsbatch, an array, tsrun's own job, read back from the accounting store
// in sacct's documented formats (sacct(1) 22.05: default fields JobID JobName Partition
// Account AllocCPUS State ExitCode, fixed widths with a `+` where a value is cut, -P/-p, -n,
// -X, -j, -s with a window, --json's data_parser keys), and sacct's own refusals
// (/work/ref/sacct.txt).
import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const ctl = testController({ TSLURM_CONF: fixture('clusters', 'one-node.yaml'), TSLURM_MINUTE_SECONDS: '2' });
const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
const uid = process.getuid?.() ?? 0;
afterAll(() => ctl.stop());

async function submit(args: string[]): Promise<string> {
  const r = await ctl.run('tsbatch', ['--parsable', '-o', '/dev/null', ...args]);
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

async function ended(id: string): Promise<void> {
  await ctl.until(async () => ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT'].includes(await ctl.jobField(id, 'JobState')), 60_000);
}

const acct = (args: string[]) => ctl.run('tsacct', args);

beforeAll(async () => {
  // One at a time, so the ids are 1, 2, 3, ... whatever the scheduler does.
  await ended(await submit(['-J', 'steps', '-n2', '--wrap', `${tsrun} -n2 true; ${tsrun} -n1 sh -c 'exit 3'; exit 0`])); // 1
  await ended(await submit(['-J', 'bad', '--wrap', 'exit 7'])); // 2
  const long = await submit(['-J', 'long', '--wrap', 'sleep 300']); // 3
  await ctl.until(async () => (await ctl.jobField(long, 'JobState')) === 'RUNNING');
  expect((await ctl.run('tscancel', [long])).exitCode).toBe(0);
  await ended(long);
  await ended(await submit(['-J', 'slow', '-t', '1', '--wrap', 'sleep 300'])); // 4: a 1-minute limit of 2 s
  const array = await submit(['-J', 'arr', '--array=1-3', '--wrap', 'exit $SLURM_ARRAY_TASK_ID']); // 5_1..5_3 (ids 5-7)
  for (const task of [1, 2, 3]) await ended(`${array}_${task}`);
  // srun names its step after the job (-J); inside an allocation after the program.
  expect((await ctl.run('tsrun', ['-J', 'direct', 'true'])).exitCode).toBe(0); // 8
}, 180_000);

// As mem-oom.test.ts: the oom case needs a writable memory controller; it runs under CI.
const v2Root = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(`${dir}/cgroup.controllers`) && writable(dir));
const memory = (v2Root !== undefined && readFileSync(`${v2Root}/cgroup.controllers`, 'utf8').split(/\s+/).includes('memory')) || (existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes') && writable('/sys/fs/cgroup/memory'));
const oomRunnable = memory || Boolean(process.env.CI);

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

describe('tsacct', () => {
  it.skipIf(!oomRunnable)(`records a batch job the oom killer ended as OUT_OF_MEMORY, 0:125 (${memory ? 'memory controller found' : 'SKIPPED: no writable memory controller'})`, async () => {
    const oom = testController({ TSLURM_CONF: fixture('clusters', 'proctrack-cgroup-memory.yaml') });
    try {
      const r = await oom.run('tsbatch', ['--parsable', '-o', '/dev/null', '--mem=50M', '--wrap', `${process.execPath} ${fixture('programs', 'memory-hog.js')} 200`]);
      const id = r.stdout.trim();
      await oom.until(async () => (await oom.jobField(id, 'JobState')) === 'OUT_OF_MEMORY', 60_000);
      expect((await oom.run('tsacct', ['-j', id, '-P', '-o', 'JobID,State,ExitCode'])).stdout).toBe(`JobID|State|ExitCode\n${id}|OUT_OF_MEMORY|0:125\n${id}.batch|OUT_OF_MEMORY|0:125\n`);
      expect((await oom.run('tsacct', ['-j', id, '-X', '-n', '-o', 'State'])).stdout).toBe('OUT_OF_ME+ \n');
    } finally {
      await oom.stop();
    }
  }, 90_000);

  it("prints sacct's default fields and widths, a line per job and per step", async () => {
    const r = await acct(['-S', 'now-1hours']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'JobID           JobName  Partition    Account  AllocCPUS      State ExitCode ',
        '------------ ---------- ---------- ---------- ---------- ---------- -------- ',
        '1                 steps      debug                     2  COMPLETED      0:0 ',
        '1.batch           batch                                2  COMPLETED      0:0 ',
        '1.0                true                                2  COMPLETED      0:0 ',
        '1.1                  sh                                2     FAILED      3:0 ',
        '2                   bad      debug                     1     FAILED      7:0 ',
        '2.batch           batch                                1     FAILED      7:0 ',
        '3                  long      debug                     1 CANCELLED+     0:15 ',
        '3.batch           batch                                1  CANCELLED     0:15 ',
        '4                  slow      debug                     1    TIMEOUT     0:15 ',
        '4.batch           batch                                1  CANCELLED     0:15 ',
        '5_1                 arr      debug                     1     FAILED      1:0 ',
        '5_1.batch         batch                                1     FAILED      1:0 ',
        '5_2                 arr      debug                     1     FAILED      2:0 ',
        '5_2.batch         batch                                1     FAILED      2:0 ',
        '5_3                 arr      debug                     1     FAILED      3:0 ',
        '5_3.batch         batch                                1     FAILED      3:0 ',
        '8                direct      debug                     1  COMPLETED      0:0 ',
        '8.0              direct                                1  COMPLETED      0:0 ',
        '',
      ].join('\n'),
    );
  });

  it('-P, -p, --delimiter, -n, -X, widths and cut values', async () => {
    const parsable = await acct(['-j', '3', '-P', '-o', 'JobID,State,ExitCode,DerivedExitCode']);
    expect(parsable.stdout).toBe(`JobID|State|ExitCode|DerivedExitCode\n3|CANCELLED by ${uid}|0:15|0:0\n3.batch|CANCELLED|0:15|\n`);
    const ending = await acct(['-j', '2', '-X', '-p', '-n', '-o', 'JobIDRaw,JobName,NNodes,NodeList']);
    expect(ending.stdout).toBe('2|bad|1|node1|\n');
    const delimited = await acct(['-j', '1', '-P', '-n', '--delimiter=,', '-o', 'jobid,ntasks,ncpus,derivedexitcode']);
    expect(delimited.stdout).toBe('1,,2,3:0\n1.batch,1,2,\n1.0,2,2,\n1.1,1,2,\n');
    const wide = await acct(['-j', '5_2', '-o', 'JobID%20,JobIDRaw,State%3']);
    expect(wide.stdout).toBe(
      ['               JobID JobIDRaw     Sta ', '-------------------- ------------ --- ', '                 5_2 6            FA+ ', '           5_2.batch 6.batch      FA+ ', ''].join('\n'),
    );
  });

  it('-j takes steps and array tasks; -s with a window; --name; -b; -l', async () => {
    expect((await acct(['-j', '1.1', '-n', '-P', '-o', 'JobID,State'])).stdout).toBe('1.1|FAILED\n');
    expect((await acct(['-j', '5', '-X', '-n', '-P', '-o', 'JobID'])).stdout).toBe('5_1\n5_2\n5_3\n');
    // States ask about a time: alone, the window is now, and no job ended just now.
    expect((await acct(['-s', 'CD', '-n', '-X', '-P', '-o', 'JobID'])).stdout).toBe('');
    expect((await acct(['-s', 'CD,TO', '-S', 'now-1hours', '-n', '-X', '-P', '-o', 'JobID,State'])).stdout).toBe('1|COMPLETED\n4|TIMEOUT\n8|COMPLETED\n');
    expect((await acct(['--name', 'bad,direct', '-S', 'now-1hours', '-n', '-X', '-P', '-o', 'JobName'])).stdout).toBe('bad\ndirect\n');
    expect((await acct(['-S', 'now+1hours', '-n'])).stdout).toBe('');
    expect((await acct(['-j', '2', '-b'])).stdout).toBe(
      ['JobID             State ExitCode ', '------------ ---------- -------- ', '2                FAILED      7:0 ', '2.batch          FAILED      7:0 ', ''].join('\n'),
    );
    const long = (await acct(['-j', '2', '-l', '-P'])).stdout.split('\n')[0]!.split('|');
    expect(long.slice(0, 4)).toEqual(['JobID', 'JobIDRaw', 'JobName', 'Partition']);
    expect(long).toHaveLength(54);
  });

  it('times, limits, TRES and the submit line', async () => {
    const r = await acct(['-j', '4', '-X', '-n', '-P', '-o', 'Timelimit,TimelimitRaw,Elapsed,Submit,Start,End,NCPUS,AllocTRES,ReqMem,User,UID,WorkDir,SubmitLine,Reason']);
    const [limit, raw, elapsed, submit, start, end, ncpus, tres, reqMem, user, uidText, workDir, line, reason] = r.stdout.trim().split('|');
    expect({ limit, raw, ncpus, tres, reqMem, uidText, workDir, reason }).toEqual({
      limit: '00:01:00',
      raw: '1',
      ncpus: '1',
      tres: 'billing=1,cpu=1,mem=4000M,node=1',
      reqMem: '4000M',
      uidText: String(uid),
      workDir: ctl.workDir,
      reason: 'TimeLimit',
    });
    expect(user).not.toBe('');
    expect(elapsed).toMatch(/^00:00:0[1-9]$/);
    for (const date of [submit, start, end]) expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(line).toBe('tsbatch --parsable -o /dev/null -J slow -t 1 --wrap sleep 300');
  });

  it("--json carries 22.05's data_parser keys for jobs and steps", async () => {
    const doc = JSON.parse((await acct(['-j', '1', '--json'])).stdout) as { meta: unknown; errors: unknown[]; jobs: Array<Record<string, any>> };
    expect(doc.errors).toEqual([]);
    const [job] = doc.jobs;
    expect(job).toMatchObject({
      job_id: 1,
      name: 'steps',
      partition: 'debug',
      state: { current: 'COMPLETED', reason: 'None' },
      exit_code: { status: 'SUCCESS', return_code: 0 },
      derived_exit_code: { status: 'FAILED', return_code: 3 },
      nodes: 'node1',
      tres: { allocated: [{ type: 'billing', count: 2 }, { type: 'cpu', count: 2 }, { type: 'mem', count: 4000 }, { type: 'node', count: 1 }] },
    });
    expect(Object.keys(job!.time)).toEqual(['elapsed', 'eligible', 'end', 'start', 'submission', 'suspended', 'system', 'limit', 'total', 'user']);
    expect(job!.steps.map((s: any) => [s.step.id, s.state, s.exit_code.status])).toEqual([
      ['1.batch', 'COMPLETED', 'SUCCESS'],
      ['1.0', 'COMPLETED', 'SUCCESS'],
      ['1.1', 'FAILED', 'FAILED'],
    ]);
  });

  it("refuses what sacct refuses, with sacct's words", async () => {
    expect(await acct(['-s', 'XX'])).toEqual({ exitCode: 1, stdout: '', stderr: "tsacct: fatal: unrecognized job state value 'XX'\n" });
    expect(await acct(['-S', 'badtime'])).toEqual({ exitCode: 1, stdout: '', stderr: 'Invalid time specification (pos=0): badtime\n' });
    expect(await acct(['-o', 'JobID,Bogus'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsacct: error: Invalid field requested: "Bogus"\n' });
    const dropIn = await runBin('slurm-name', ['sacct', '-s', 'XX'], { env: ctl.env });
    expect(dropIn.stderr).toBe("sacct: fatal: unrecognized job state value 'XX'\n");
  });

  it('is the only client command that loads the SQLite driver (dist/main bundles: the controller writes the store)', () => {
    const main = path.join(repoRoot, 'dist', 'main');
    const loading = readdirSync(main).filter((f) => f.endsWith('.cjs') && readFileSync(path.join(main, f), 'utf8').includes('better-sqlite3'));
    expect(loading).toEqual(['tsacct.cjs', 'tsctld.cjs']);
  });

  it('answers from the store with no controller running, and with none yet an empty list', async () => {
    await ctl.stop();
    expect((await acct(['-j', '2', '-X', '-n', '-P', '-o', 'State'])).stdout).toBe('FAILED\n');
    const empty = await runBin('tsacct', ['-n']);
    expect(empty).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});
