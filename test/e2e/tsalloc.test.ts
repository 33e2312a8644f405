// tsalloc (salloc): an allocation from the controller (started on demand), the command run in
// it with salloc's environment, tsrun/srun inside running steps of that job, and salloc's
// lines and exit statuses. Expectations are what Slurm 22.05's salloc printed on the real
// Slurm (/work/ref/salloc.txt, /work/ref/env.txt).
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import path from 'node:path';
import { fixture, repoRoot, startBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs each; default partition debug

/** SLURM_* names of `salloc -N1 env` on Slurm 22.05, in the order printed (/work/ref/env.txt). */
const SALLOC_N1_NAMES = [
  'SLURM_CONF', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST', 'SLURM_JOB_ID', 'SLURM_JOB_NAME', 'SLURM_JOB_NUM_NODES',
  'SLURM_JOB_NODELIST', 'SLURM_NODE_ALIASES', 'SLURM_JOB_PARTITION', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOBID',
  'SLURM_NNODES', 'SLURM_NODELIST', 'SLURM_TASKS_PER_NODE', 'SLURM_CLUSTER_NAME',
];
/** `salloc -N1 -n2 env`: SLURM_NTASKS and SLURM_NPROCS come before SLURM_CLUSTER_NAME. */
const SALLOC_N1_n2_NAMES = [...SALLOC_N1_NAMES.slice(0, -1), 'SLURM_NTASKS', 'SLURM_NPROCS', 'SLURM_CLUSTER_NAME'];
/** `salloc -N1 -c1 --mem=100 --ntasks-per-node=1 env`. */
const SALLOC_OPTIONS_NAMES = [
  'SLURM_CONF', 'SLURM_NTASKS_PER_NODE', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST', 'SLURM_JOB_ID', 'SLURM_JOB_NAME',
  'SLURM_JOB_NUM_NODES', 'SLURM_JOB_NODELIST', 'SLURM_NODE_ALIASES', 'SLURM_JOB_PARTITION', 'SLURM_JOB_CPUS_PER_NODE',
  'SLURM_MEM_PER_NODE', 'SLURM_JOBID', 'SLURM_NNODES', 'SLURM_NODELIST', 'SLURM_TASKS_PER_NODE', 'SLURM_NTASKS',
  'SLURM_NPROCS', 'SLURM_CPUS_PER_TASK', 'SLURM_CLUSTER_NAME',
];

/** The environment without SLURM_* variables of whatever runs the tests. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(process.env)) if (name.startsWith('SLURM_')) env[name] = undefined;
  return { ...env, ...extra };
}

const slurmNames = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith('SLURM_')).map((line) => line.slice(0, line.indexOf('=')));

describe('tsalloc / salloc', () => {
  const ctl = testController(cleanEnv({ TSLURM_CONF: small }) as Record<string, string>);
  afterAll(() => ctl.stop());
  const tsalloc = (args: string[]) => ctl.run('tsalloc', args);
  /** The drop-in name, as bin/slurm-name.js runs it. */
  const salloc = (args: string[]) =>
    execa(process.execPath, [path.join(repoRoot, 'bin', 'slurm-name.js'), 'salloc', ...args], {
      cwd: ctl.workDir,
      reject: false,
      stripFinalNewline: false,
      timeout: 60_000,
      env: { ...ctl.env, NO_COLOR: '1' },
    });

  it("runs the command with salloc's variables in salloc's order, between its two lines", async () => {
    const result = await tsalloc(['-N1', 'env']);
    expect(result.exitCode).toBe(0);
    const id = /^tsalloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result.stderr).toBe(`tsalloc: Granted job allocation ${id}\ntsalloc: Relinquishing job allocation ${id}\n`);
    expect(slurmNames(result.stdout)).toEqual(SALLOC_N1_NAMES);
    expect(result.stdout).toContain(`\nSLURM_JOB_ID=${id}\n`);
    expect(result.stdout).toContain('\nSLURM_JOB_NAME=interactive\n');
    expect(result.stdout).toContain('\nSLURM_NODE_ALIASES=(null)\n');
    expect(result.stdout).toContain('\nSLURM_CLUSTER_NAME=small\n');
    expect(result.stdout).toContain(`\nSLURM_CONF=${small}\n`);
    expect(await ctl.jobField(id!, 'JobState')).toBe('COMPLETED');
    expect(await ctl.jobField(id!, 'BatchFlag')).toBe('0');
  });

  it('exports -n, -c, --mem and --ntasks-per-node where salloc does', async () => {
    expect(slurmNames((await tsalloc(['-N1', '-n2', 'env'])).stdout)).toEqual(SALLOC_N1_n2_NAMES);
    const shown = await salloc(['-N1', '-c1', '--mem=100', '--ntasks-per-node=1', 'env']);
    expect(slurmNames(shown.stdout)).toEqual(SALLOC_OPTIONS_NAMES);
    expect(shown.stdout).toContain('\nSLURM_MEM_PER_NODE=100\n');
  });

  it('srun inside salloc runs steps 0, 1 of the allocation on its nodes; salloc exits with the command', async () => {
    const script = 'srun -l printenv SLURM_JOB_ID SLURM_STEP_ID; srun -N1 -n1 printenv SLURM_STEP_ID SLURMD_NODENAME; exit 3';
    const result = await execa('sh', ['-c', `PATH=$(node ${path.join(repoRoot, 'bin', 'tslurm-dropin.js')} dropin):$PATH; salloc -N2 -n2 sh -c '${script}'`], {
      cwd: ctl.workDir,
      reject: false,
      timeout: 60_000,
      stripFinalNewline: false,
      env: { ...ctl.env, NO_COLOR: '1' },
    });
    const id = /^salloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result.stderr).toBe(`salloc: Granted job allocation ${id}\nsalloc: Relinquishing job allocation ${id}\n`);
    expect(result.exitCode).toBe(3);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 4).sort()).toEqual([`0: ${id}`, '0: 0', `1: ${id}`, '1: 0'].sort());
    expect(lines.slice(4)).toEqual(['1', 'node1', '']);
    expect(await ctl.jobField(id!, 'JobState')).toBe('FAILED');
    expect(await ctl.jobField(id!, 'ExitCode')).toBe('3:0');
    expect(await ctl.jobField(id!, 'NodeList')).toBe('node[1-2]');
  });

  it("without a command runs the user's login shell (not $SHELL), which reads its commands from stdin", async () => {
    const result = await ctl.run('tsalloc', ['-N1'], { env: { SHELL: '/bin/echo' }, input: 'echo in-$SLURM_JOB_ID\n' });
    const id = /^tsalloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result).toMatchObject({ exitCode: 0, stdout: `in-${id}\n` });
  });

  it("exits 0 for a command killed by SIGKILL, 1 for SIGTERM, 1 for a command it cannot find (salloc's rules)", async () => {
    expect((await tsalloc(['-N1', 'sh', '-c', 'kill -KILL $$'])).exitCode).toBe(0);
    expect((await tsalloc(['-N1', 'sh', '-c', 'kill -TERM $$'])).exitCode).toBe(1);
    const missing = await salloc(['-N1', 'no-such-command-here']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(
      /^salloc: Granted job allocation (\d+)\nsalloc: error: _fork_command: Unable to find command "no-such-command-here"\nsalloc: Relinquishing job allocation \1\n$/,
    );
  });

  it('scancel revokes the allocation: salloc says so, the command runs on, no Relinquishing line', async () => {
    const result = await salloc(['-N1', 'sh', '-c', `node ${path.join(repoRoot, 'bin', 'tscancel.js')} $SLURM_JOB_ID; sleep 1; echo after`]);
    const id = /^salloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result).toMatchObject({ exitCode: 0, stdout: 'after\n', stderr: `salloc: Granted job allocation ${id}\nsalloc: Job allocation ${id} has been revoked.\n` });
    expect(await ctl.jobField(id!, 'JobState')).toBe('CANCELLED');
  });

  it('--no-shell keeps the allocation after salloc exits; -I refuses and -I1 gives up while it is held; a waiter gets it once cancelled', async () => {
    const held = await salloc(['--no-shell', '-N4', '--exclusive', '-J', 'holder']);
    const holder = /^salloc: Granted job allocation (\d+)\n$/.exec(held.stderr)?.[1];
    expect(held).toMatchObject({ exitCode: 0, stdout: '' });
    expect(holder).toBeDefined();
    expect(await ctl.jobField(holder!, 'JobState')).toBe('RUNNING');
    expect(await ctl.jobField(holder!, 'JobName')).toBe('holder');

    const now = await salloc(['-I', '-N1', 'true']);
    expect(now.exitCode).toBe(1);
    expect(now.stderr).toMatch(/^salloc: error: Unable to allocate resources: Requested nodes are busy\nsalloc: Job allocation \d+ has been revoked\.\n$/);
    const soon = await salloc(['-I1', '-N1', 'true']);
    expect(soon.exitCode).toBe(1);
    expect(soon.stderr).toMatch(
      /^salloc: Pending job allocation (\d+)\nsalloc: job \1 queued and waiting for resources\nsalloc: error: Unable to allocate resources: Connection timed out\nsalloc: Job allocation \1 has been revoked\.\n$/,
    );

    const waiter = startBin('tsalloc', ['-N1', '-J', 'waiter', 'true'], { cwd: ctl.workDir, env: ctl.env });
    let waiterId = '';
    await ctl.until(async () => {
      const shown = await ctl.run('tscontrol', ['-o', 'show', 'job']);
      waiterId = /JobId=(\d+) JobName=waiter .* JobState=PENDING/.exec(shown.stdout)?.[1] ?? '';
      return waiterId !== '';
    });
    expect((await ctl.run('tscancel', [holder!])).exitCode).toBe(0);
    const done = await waiter;
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toBe(
      [
        `tsalloc: Pending job allocation ${waiterId}`,
        `tsalloc: job ${waiterId} queued and waiting for resources`,
        `tsalloc: job ${waiterId} has been allocated resources`,
        `tsalloc: Granted job allocation ${waiterId}`,
        `tsalloc: Relinquishing job allocation ${waiterId}`,
        '',
      ].join('\n'),
    );
    expect(await ctl.jobField(holder!, 'JobState')).toBe('CANCELLED');
  }, 60_000);

  it("refuses a bad option with getopt's two lines and 255; --usage and --version as salloc's", async () => {
    expect(await salloc(['-N1', '--bogus', 'true'])).toMatchObject({
      exitCode: 255,
      stdout: '',
      stderr: "salloc: unrecognized option '--bogus'\nTry \"salloc --help\" for more information\n",
    });
    const usage = await salloc(['--usage']);
    expect(usage.exitCode).toBe(0);
    expect(usage.stdout).toMatch(/^Usage: salloc \[-N numnodes\|\[min nodes\]-\[max nodes\]\] \[-n num-processors\]\n/);
    expect((await salloc(['--version'])).stdout).toBe('slurm 22.05.8\n');
    expect((await salloc(['--help'])).stdout).toMatch(/^Usage: salloc \[OPTIONS\(0\)\.\.\.\] /);
  });
});

describe('salloc options: the shared table, SALLOC_* variables and -v', () => {
  const ctl = testController(cleanEnv({ TSLURM_CONF: small }) as Record<string, string>);
  afterAll(() => ctl.stop());
  const salloc = (args: string[], env: Record<string, string> = {}) =>
    execa(process.execPath, [path.join(repoRoot, 'bin', 'slurm-name.js'), 'salloc', ...args], {
      cwd: ctl.workDir,
      reject: false,
      timeout: 60_000,
      env: { ...ctl.env, NO_COLOR: '1', ...env },
    });

  it("prints salloc's defined-options block under -v: SALLOC_* values below the command line's", async () => {
    const env = { SALLOC_PARTITION: 'small', SALLOC_TIMELIMIT: '7', SALLOC_ACCOUNT: 'envacc', SALLOC_BELL: '1', SALLOC_NO_KILL: '' };
    const result = await salloc(['-v', '-t', '3', '-N1', '-K', '-I5', '--nice', 'true'], env);
    expect(result.exitCode).toBe(0);
    // As salloc 22.05 prints the same (/work/ref/salloc-v.txt).
    expect(result.stderr.split('\n').slice(0, 17)).toEqual([
      'salloc: defined options',
      'salloc: -------------------- --------------------',
      'salloc: account             : envacc',
      'salloc: bell                : bell-always',
      'salloc: immediate           : 5',
      'salloc: kill-command        : TERM',
      'salloc: nice                : 100',
      'salloc: no-kill             : set',
      'salloc: nodes               : 1',
      'salloc: partition           : small',
      'salloc: time                : 00:03:00',
      'salloc: verbose             : 1',
      'salloc: -------------------- --------------------',
      'salloc: end of defined options',
      'salloc: --account: tslurm has no accounting associations; the account is recorded only',
      expect.stringMatching(/^salloc: Granted job allocation \d+$/),
      expect.stringMatching(/^salloc: Relinquishing job allocation \d+$/),
    ]);
  });

  it('takes the allocation from SALLOC_* variables, and the options srun and sbatch act on act here too', async () => {
    const env = { SALLOC_PARTITION: 'small', SALLOC_TIMELIMIT: '7', SALLOC_ACCOUNT: 'envacc', SALLOC_QOS: 'q1', SALLOC_MEM_PER_NODE: '100' };
    const show = `node ${path.join(repoRoot, 'bin', 'tscontrol.js')} show job $SLURM_JOB_ID`;
    const result = await salloc(['-N1', '--comment=hello', '--mincpus=2', '-J', 'named', 'sh', '-c', show], env);
    expect(result.exitCode).toBe(0);
    for (const field of ['Partition=small ', 'TimeLimit=00:07:00 ', 'Account=envacc ', 'QOS=q1', 'Comment=hello ', 'MinCPUsNode=2 ', 'JobName=named', 'MinMemoryNode=100M']) {
      expect(result.stdout).toContain(field);
    }
    // The command line wins over the variable.
    const over = await salloc(['-N1', '-p', 'debug', '-t', '2', 'sh', '-c', show], env);
    expect(over.stdout).toContain('Partition=debug ');
    expect(over.stdout).toContain('TimeLimit=00:02:00 ');
  });

  it("refuses bad values, from the command line or a variable, with salloc's words and exit statuses", async () => {
    expect(await salloc(['-N1', 'true'], { SALLOC_TIMELIMIT: 'abc' })).toMatchObject({ exitCode: 255, stderr: 'salloc: error: Invalid --time specification' });
    expect(await salloc(['-N1', 'true'], { SALLOC_IMMEDIATE: 'abc' })).toMatchObject({ exitCode: 1, stderr: 'salloc: error: Invalid numeric value "abc" for immediate.' });
    expect(await salloc(['-N1', 'true'], { SALLOC_KILL_CMD: 'BOGUS' })).toMatchObject({ exitCode: 255, stderr: 'salloc: error: Invalid --kill-command specification' });
    expect(await salloc(['-k1', 'true'])).toMatchObject({ exitCode: 255, stderr: 'salloc: error: Invalid --no-kill specification' });
    expect(await salloc(['-v', '-Q', 'true'])).toMatchObject({ exitCode: 1, stderr: "salloc: error: don't specify both --verbose (-v) and --quiet (-Q)" });
    expect(await salloc(['-b', 'xyz', 'true'])).toMatchObject({
      exitCode: 255,
      stderr: 'Invalid time specification (pos=0): xyz\nsalloc: error: Invalid --begin specification',
    });
  });

  it("reads none of srun's SLURM_* input variables", async () => {
    const result = await salloc(['-v', '-I', '--hold', 'true'], { SLURM_PARTITION: 'nosuch', SLURM_NNODES: '5', SLURM_TIMELIMIT: '9' });
    expect(result.stderr).not.toMatch(/partition|nodes|time /);
    expect(result.stderr).toContain('salloc: hold                : set\n');
  });
});

describe('tsalloc and the time limit', () => {
  // A minute of time limit lasts a second here.
  const ctl = testController(cleanEnv({ TSLURM_CONF: small, TSLURM_MINUTE_SECONDS: '1' }) as Record<string, string>);
  afterAll(() => ctl.stop());

  it("revokes the allocation at its time limit with salloc's line; the command runs on and its status is salloc's", async () => {
    const result = await ctl.run('tsalloc', ['-N1', '-t', '1', 'sh', '-c', 'sleep 4; echo done; exit 2']);
    const id = /^tsalloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result).toMatchObject({
      exitCode: 2,
      stdout: 'done\n',
      stderr: `tsalloc: Granted job allocation ${id}\ntsalloc: Job ${id} has exceeded its time limit and its allocation has been revoked.\n`,
    });
    expect(await ctl.jobField(id!, 'JobState')).toBe('TIMEOUT');
  });
});

describe('tsalloc on a job_container/tmpfs cluster', () => {
  const ctl = testController(cleanEnv({ TSLURM_CONF: fixture('clusters', 'job-container-tmpfs.yaml') }) as Record<string, string>);
  afterAll(() => ctl.stop());

  it("waits for the job's configuration with salloc's two lines (PrologFlags=Contain on Slurm)", async () => {
    const result = await ctl.run('tsalloc', ['-N2', 'true']);
    const id = /^tsalloc: Granted job allocation (\d+)\n/.exec(result.stderr)?.[1];
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      [
        `tsalloc: Granted job allocation ${id}`,
        'tsalloc: Waiting for resource configuration',
        'tsalloc: Nodes node[1-2] are ready for job',
        `tsalloc: Relinquishing job allocation ${id}`,
        '',
      ].join('\n'),
    );
  });
});
