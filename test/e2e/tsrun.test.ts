// tsrun against the fixture clusters: task placement and environment, exit statuses and
// messages, and the bad input srun refuses — expectations observed on Slurm 22.05's srun.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs and 2000 MB each
const summary = 'echo $SLURM_PROCID $SLURM_NODEID $SLURM_LOCALID $SLURMD_NODENAME $SLURM_TASKS_PER_NODE $SLURM_JOB_CPUS_PER_NODE $SLURM_CPUS_ON_NODE $SLURM_GTIDS ${SLURM_CPUS_PER_TASK:--} ${SLURM_DISTRIBUTION:--}';

async function tsrun(args: string[], env: Record<string, string> = {}) {
  return runBin('tsrun', ['--cluster', small, ...args], { env });
}

/** Output lines of a labelled run, in task order. */
function byTask(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
}

describe('placement and task environment', () => {
  it.each([
    [
      ['-N2', '-n5'],
      [
        '0: 0 0 0 node1 4,1 4,1 4 0,1,2,3 - -',
        '1: 1 0 1 node1 4,1 4,1 4 0,1,2,3 - -',
        '2: 2 0 2 node1 4,1 4,1 4 0,1,2,3 - -',
        '3: 3 0 3 node1 4,1 4,1 4 0,1,2,3 - -',
        '4: 4 1 0 node2 4,1 4,1 1 4 - -',
      ],
    ],
    [
      ['-n4', '-c2'],
      [
        '0: 0 0 0 node1 2(x2) 4(x2) 4 0,1 2 -',
        '1: 1 0 1 node1 2(x2) 4(x2) 4 0,1 2 -',
        '2: 2 1 0 node2 2(x2) 4(x2) 4 2,3 2 -',
        '3: 3 1 1 node2 2(x2) 4(x2) 4 2,3 2 -',
      ],
    ],
    [
      ['-N2', '-n5', '--distribution=cyclic'],
      [
        '0: 0 0 0 node1 4,1 4,1 4 0,2,3,4 - cyclic',
        '1: 1 1 0 node2 4,1 4,1 1 1 - cyclic',
        '2: 2 0 1 node1 4,1 4,1 4 0,2,3,4 - cyclic',
        '3: 3 0 2 node1 4,1 4,1 4 0,2,3,4 - cyclic',
        '4: 4 0 3 node1 4,1 4,1 4 0,2,3,4 - cyclic',
      ],
    ],
    [
      ['-N2', '-n4', '-m', 'plane=2'],
      [
        '0: 0 0 0 node1 3,1 3,1 3 0,1,3 - plane',
        '1: 1 0 1 node1 3,1 3,1 3 0,1,3 - plane',
        '2: 2 1 0 node2 3,1 3,1 1 2 - plane',
        '3: 3 0 2 node1 3,1 3,1 3 0,1,3 - plane',
      ],
    ],
  ])('tsrun %j', async (args, expected) => {
    const r = await tsrun([...args, '-l', 'sh', '-c', summary]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(byTask(r.stdout)).toEqual(expected);
  });

  it('gives every task the whole set of Slurm variables', async () => {
    const r = await tsrun(['-N2', '-n3', '-J', 'myjob', '-l', fixture('programs', 'slurm-env.sh')]);
    expect(r.exitCode).toBe(0);
    const task0 = byTask(r.stdout).filter((l) => l.startsWith('0: ')).map((l) => l.slice(3));
    // tsrun's I/O port, where the step host connects back to it: a real one, as srun's.
    const port = task0.find((l) => l.startsWith('SLURM_SRUN_COMM_PORT='))?.split('=')[1];
    expect(Number(port)).toBeGreaterThan(0);
    expect(task0).toEqual([
      'SLURMD_NODENAME=node1',
      'SLURM_CLUSTER_NAME=small',
      `SLURM_CONF=${small}`,
      'SLURM_CPUS_ON_NODE=2',
      'SLURM_GTIDS=0,1',
      'SLURM_JOBID=1',
      'SLURM_JOB_CPUS_PER_NODE=2,1',
      `SLURM_JOB_GID=${os.userInfo().gid}`,
      'SLURM_JOB_ID=1',
      'SLURM_JOB_NAME=myjob',
      'SLURM_JOB_NODELIST=node[1-2]',
      'SLURM_JOB_NUM_NODES=2',
      'SLURM_JOB_PARTITION=debug',
      `SLURM_JOB_UID=${os.userInfo().uid}`,
      `SLURM_JOB_USER=${os.userInfo().username}`,
      'SLURM_LABELIO=1',
      'SLURM_LOCALID=0',
      'SLURM_NNODES=2',
      'SLURM_NODEID=0',
      'SLURM_NODELIST=node[1-2]',
      'SLURM_NPROCS=3',
      'SLURM_NTASKS=3',
      'SLURM_PRIO_PROCESS=0',
      'SLURM_PROCID=0',
      'SLURM_SRUN_COMM_HOST=127.0.0.1',
      `SLURM_SRUN_COMM_PORT=${port}`,
      'SLURM_STEPID=0',
      'SLURM_STEP_ID=0',
      `SLURM_STEP_LAUNCHER_PORT=${port}`,
      'SLURM_STEP_NODELIST=node[1-2]',
      'SLURM_STEP_NUM_NODES=2',
      'SLURM_STEP_NUM_TASKS=3',
      'SLURM_STEP_TASKS_PER_NODE=2,1',
      'SLURM_TASKS_PER_NODE=2,1',
      'SLURM_TOPOLOGY_ADDR=node1',
      'SLURM_TOPOLOGY_ADDR_PATTERN=node',
      'SLURM_WORKING_CLUSTER=small:127.0.0.1:6817:9728:109',
    ]);
  });

  it('takes job ids one after another from the state directory', async () => {
    const state = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/tslurm-ids-`);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await tsrun(['-n1', 'sh', '-c', 'echo $SLURM_JOB_ID'], { TSLURM_STATE_DIR: state })).stdout);
    expect(ids).toEqual(['1\n', '2\n', '3\n']);
  });

  it('runs a new step of the enclosing job when SLURM_JOB_ID is set', async () => {
    const env = { SLURM_JOB_ID: '42', SLURM_JOB_NODELIST: 'node[3-4]', SLURM_JOB_CPUS_PER_NODE: '4(x2)', SLURM_JOB_NAME: 'batch' };
    const first = await tsrun(['-N2', '-n2', '-l', 'sh', '-c', 'echo $SLURM_JOB_ID.$SLURM_STEP_ID $SLURMD_NODENAME $SLURM_JOB_NAME'], env);
    expect(byTask(first.stdout)).toEqual(['0: 42.0 node3 batch', '1: 42.0 node4 batch']);
    const second = await tsrun(['-n1', 'sh', '-c', 'echo $SLURM_JOB_ID.$SLURM_STEP_ID'], { ...env, TSLURM_STATE_DIR: '' });
    expect(second.exitCode).toBe(0);
  });
});

/** A Linux pipe's 64 KiB and 8,000 bytes more. */
const OUTPUT_BYTES = 65_536 + 8_000;

describe('output', () => {
  it('pads labels to the widest task id, as srun does', async () => {
    const r = await runBin('tsrun', ['-N2', '-n12', '-l', 'sh', '-c', 'echo x']);
    expect(byTask(r.stdout).slice(0, 2)).toEqual([' 0: x', ' 1: x']);
    expect(byTask(r.stdout).at(-1)).toBe('11: x');
  });

  it('passes whole lines, and a last line without newline as it is', async () => {
    const r = await runBin('tsrun', ['-n1', '-l', 'sh', '-c', "printf abc; sleep 0.2; printf 'def\\n'; printf xyz"]);
    expect(r.stdout).toBe('0: abcdef\n0: xyz\n'); // srun ends a labelled partial line (observed)
  });

  it('sends stdin to every task by default', async () => {
    const r = await runBin('tsrun', ['-n2', '-l', 'cat'], { input: 'hello\n' });
    expect(byTask(r.stdout)).toEqual(['0: hello', '1: hello']);
  });

  it('sends stdin to one task with -i N', async () => {
    const r = await runBin('tsrun', ['-n2', '-i', '1', '-l', 'sh', '-c', 'cat; echo end'], { input: 'hello\n' });
    expect(byTask(r.stdout)).toEqual(['0: end', '1: hello', '1: end']);
  });

  it('gives a reader that is behind all of its output before it exits, after its job has ended', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tslurm-test-'));
    const stateDir = path.join(dir, 'state');
    const go = path.join(dir, 'go');
    // The reader reads nothing until told to: what the pipe cannot hold then waits in tsrun
    // (less than its stream's high-water mark, so tsrun goes on reading the node and the job ends).
    const script = '"$0" "$1" -n1 head -c "$2" /dev/zero | { while [ ! -e "$3" ]; do sleep 0.05; done; wc -c; }; echo "tsrun=${PIPESTATUS[0]}"';
    const env = { ...process.env, NO_COLOR: '1', TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '2', TSLURM_STEPD_IDLE_EXIT: '2', TSLURM_CONF: undefined, SLURM_CONF: undefined };
    const shell = spawn('bash', ['-c', script, process.execPath, path.join(repoRoot, 'bin', 'tsrun.js'), String(OUTPUT_BYTES), go], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ended = new Promise((resolve) => shell.on('close', resolve));
    for (let tries = 0; ; tries++) {
      const job = await runBin('tscontrol', ['show', 'job', '1'], { env: { TSLURM_STATE_DIR: stateDir } });
      if (job.stdout.includes('JobState=COMPLETED')) break;
      if (tries > 200) throw new Error(`job 1 did not complete: ${job.stdout}${job.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Time for a tsrun that ends regardless to do so, leaving its reader the pipe's 64 KiB.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    writeFileSync(go, '');
    await ended;
    expect(out.split(/\s+/).filter(Boolean)).toEqual([String(OUTPUT_BYTES), 'tsrun=0']);
  }, 60_000);
});

describe('-o, -e and -i', () => {
  it('writes a file per task with %j and %2t, stderr following -o', async () => {
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/tslurm-io-`);
    const r = await runBin('tsrun', ['-n2', '-D', dir, '-o', 'out-%j-%2t.txt', 'sh', '-c', 'echo out $SLURM_PROCID; echo err >&2'], { cwd: dir });
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`${dir}/out-1-00.txt`, 'utf8')).toMatch(/^(out 0\nerr\n|err\nout 0\n)$/);
    expect(readFileSync(`${dir}/out-1-01.txt`, 'utf8')).toMatch(/^(out 1\nerr\n|err\nout 1\n)$/);
  });

  it('shows only one task\'s output with -o N', async () => {
    const r = await runBin('tsrun', ['-n3', '-o', '1', 'sh', '-c', 'echo $SLURM_PROCID']);
    expect(r.stdout).toBe('1\n');
  });

  it('reads each task\'s stdin from its own file with -i in-%t', async () => {
    const fs = await import('node:fs');
    const dir = fs.mkdtempSync(`${(await import('node:os')).tmpdir()}/tslurm-in-`);
    fs.writeFileSync(`${dir}/in-0`, 'zero\n');
    fs.writeFileSync(`${dir}/in-1`, 'one\n');
    const r = await runBin('tsrun', ['-n2', '-l', '-D', dir, '-i', 'in-%t', 'cat']);
    expect(byTask(r.stdout)).toEqual(['0: zero', '1: one']);
    const missing = await runBin('tsrun', ['-n2', '-D', dir, '-i', 'nope-%t', 'cat']);
    expect(missing).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: Could not open stdin file: No such file or directory\n' });
  });
});

describe('exit status and messages', () => {
  it('the highest exit code, with a line per node and status', async () => {
    const r = await tsrun(['-n4', 'sh', '-c', 'exit $SLURM_PROCID']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'tsrun: error: node1: task 1: Exited with exit code 1',
      'tsrun: error: node1: task 2: Exited with exit code 2',
      'tsrun: error: node1: task 3: Exited with exit code 3',
    ]);
  });

  it('a signal beats any exit code: 128 + signal', async () => {
    const r = await tsrun(['-n3', 'sh', '-c', 'kill -9 $$']);
    expect(r).toEqual({ exitCode: 137, stdout: '', stderr: 'tsrun: error: node1: tasks 0-2: Killed\ntsrun: Force Terminated StepId=1.0\n' });
  });

  it('a missing program exits 2, a non-executable one 13, with the step daemon\'s line', async () => {
    const missing = await tsrun(['-n1', '/nonexistent']);
    expect(missing).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'tsstepd-node1: error: execve(): /nonexistent: No such file or directory\ntsrun: error: node1: task 0: Exited with exit code 2\n',
    });
    const denied = await tsrun(['-n1', '/etc/passwd']);
    expect(denied.exitCode).toBe(13);
    expect(denied.stderr).toContain('execve(): /etc/passwd: Permission denied');
  });

  it('-K ends the step after the first task that fails', async () => {
    const r = await tsrun(['-K', '-n3', 'sh', '-c', 'if [ $SLURM_PROCID = 1 ]; then exit 4; fi; sleep 30'], { TSLURM_KILL_WAIT: '2' });
    expect(r.exitCode).toBe(143);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('tsrun: error: node1: task 1: Exited with exit code 4');
    expect(lines).toContain('tsrun: launch/slurm: _step_signal: Terminating StepId=1.0');
    expect(lines).toContain('tsrun: error: node1: tasks 0,2: Terminated');
    expect(r.stderr).toMatch(/tsstepd-node1: error: \*\*\* STEP 1\.0 ON node1 CANCELLED AT \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \*\*\*/);
  });

  it('-t ends the step at its limit', async () => {
    const r = await tsrun(['-t', '1', '-n2', 'sleep', '30'], { TSLURM_MINUTE_SECONDS: '1', TSLURM_KILL_WAIT: '2' });
    expect(r.exitCode).toBe(143);
    expect(r.stderr).toMatch(/tsstepd-node1: error: \*\*\* STEP 1\.0 ON node1 CANCELLED AT \S+ DUE TO TIME LIMIT \*\*\*/);
    expect(r.stderr).toContain('tsrun: error: node1: tasks 0-1: Terminated');
  });
});

describe('bad input: one line, srun\'s words, a non-zero status', () => {
  it.each([
    [['-n', '0', 'true'], 1, 'tsrun: error: Invalid numeric value "0" for --ntasks.\n'],
    [['-n', 'abc', 'true'], 1, 'tsrun: error: Invalid numeric value "abc" for --ntasks.\n'],
    [['-N', '0', 'true'], 1, 'tsrun: error: Unable to allocate resources: Node count specification invalid\n'],
    [['-N', '5', 'true'], 1, 'tsrun: error: Unable to allocate resources: Requested node configuration is not available\n'],
    [['-n', '17', 'true'], 1, 'tsrun: error: Unable to allocate resources: Requested node configuration is not available\n'],
    [['-p', 'nope', 'true'], 1, 'tsrun: error: invalid partition specified: nope\ntsrun: error: Unable to allocate resources: Invalid partition name specified\n'],
    [['-w', 'node9', 'true'], 1, 'tsrun: error: Unable to allocate resources: Invalid node name specified\n'],
    [['-x', 'node1', '-w', 'node1', 'true'], 1, 'tsrun: error: Unable to allocate resources: Invalid node name specified\n'],
    [['--mem=99999', 'true'], 1, 'tsrun: error: Memory specification can not be satisfied\ntsrun: error: Unable to allocate resources: Requested node configuration is not available\n'],
    [['-p', 'small', '-N3', 'true'], 1, 'tsrun: error: Unable to allocate resources: Node count specification invalid\n'],
    [['-p', 'small', '-t', '20', 'true'], 1, 'tsrun: error: Unable to allocate resources: Requested time limit is invalid (missing or exceeds some limit)\n'],
    [['-t', 'garbage', 'true'], 255, 'tsrun: error: Invalid --time specification\n'],
    [['--mem=1x', 'true'], 255, 'tsrun: error: Invalid --mem specification\n'],
    [['-N', '2-1', 'true'], 255, 'tsrun: error: Maximum node count 1 is less than minimum node count 2\n'],
    [['-m', 'foo', 'true'], 255, 'tsrun: error: Invalid --distribution specification\n'],
    [[], 1, 'tsrun: fatal: No command given to execute.\n'],
  ])('tsrun %j', async (args, status, stderr) => {
    const r = await tsrun(args);
    expect(r).toEqual({ exitCode: status, stdout: '', stderr });
  });

  it('a bad --multi-prog file', async () => {
    const r = await tsrun(['-n2', '--multi-prog', fixture('programs', 'no-such.conf')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`tsrun: error: Unable to open multi-prog file ${fixture('programs', 'no-such.conf')}: No such file or directory\n`);
  });
});

describe('more options', () => {
  it('--export=NONE passes only SLURM_* variables; NAME=value adds one', async () => {
    const r = await tsrun(['-n1', '--export=NONE,FOO=bar', 'sh', '-c', 'echo ${HOME:-nohome} $FOO $SLURM_NTASKS'], { HOME: '/home/x' });
    expect(r.stdout).toBe('nohome bar 1\n');
    const all = await tsrun(['-n1', 'sh', '-c', 'echo $HOME'], { HOME: '/home/x' });
    expect(all.stdout).toBe('/home/x\n');
  });

  it('-O lets more tasks than CPUs run; without it the request is refused', async () => {
    expect((await tsrun(['-n20', 'true'])).stderr).toBe('tsrun: error: Unable to allocate resources: Requested node configuration is not available\n');
    const r = await tsrun(['-n20', '-O', '-N1', 'sh', '-c', 'echo $SLURM_TASKS_PER_NODE']);
    expect(r.exitCode).toBe(0);
    expect(new Set(r.stdout.trim().split('\n'))).toEqual(new Set(['20']));
  });

  it('reads SLURM_NTASKS as the default for -n, as srun does', async () => {
    const r = await tsrun(['sh', '-c', 'echo $SLURM_PROCID'], { SLURM_NTASKS: '3' });
    expect(r.stdout.trim().split('\n').sort()).toEqual(['0', '1', '2']);
  });

  it('-D runs the tasks in another directory', async () => {
    const r = await tsrun(['-n1', '-D', '/tmp', 'pwd']);
    expect(r.stdout).toBe('/tmp\n');
  });
});

describe('GPUs and features (fixtures/clusters/gpu.yaml)', () => {
  const gpu = fixture('clusters', 'gpu.yaml');
  it('sets CUDA_VISIBLE_DEVICES to the allocated GPUs', async () => {
    const r = await runBin('tsrun', ['--cluster', gpu, '-p', 'gpu', '--gres=gpu:1', '-N2', '-l', 'sh', '-c', 'echo $SLURMD_NODENAME $CUDA_VISIBLE_DEVICES']);
    expect(r.stderr).toBe('');
    expect(byTask(r.stdout)).toEqual(['0: gpu1 0', '1: gpu2 0']);
  });

  it('places a job on the nodes with the features asked for', async () => {
    const r = await runBin('tsrun', ['--cluster', gpu, '-p', 'gpu', '-C', 'a100', '-n1', 'sh', '-c', 'echo $SLURMD_NODENAME']);
    expect(r.stdout).toBe('gpu3\n');
  });

  it.each([
    [['-C', 'nosuch'], 'tsrun: error: Unable to allocate resources: Invalid feature specification\n'],
    [['--gres=fpga:1'], 'tsrun: error: Invalid generic resource (gres) specification\n'],
    [['--gpus=x'], 'tsrun: error: Invalid generic resource (gres) specification\n'],
  ])('refuses %j as srun does', async (args, stderr) => {
    const r = await runBin('tsrun', ['--cluster', gpu, ...args, '-n1', 'true']);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr });
  });
});

describe('--multi-prog errors', () => {
  it('names the file and line of a bad rank', async () => {
    const conf = fixture('programs', 'bad-multi-prog.conf');
    const r = await tsrun(['-n2', '--multi-prog', conf]);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: `tsrun: error: ${conf}:3: invalid --multi-prog line: task rank "7" outside 0-1\n` });
  });
});

describe('--exclusive', () => {
  it('gives whole nodes', async () => {
    const r = await tsrun(['-n1', '--exclusive', 'sh', '-c', 'echo $SLURM_CPUS_ON_NODE $SLURM_JOB_CPUS_PER_NODE']);
    expect(r.stdout).toBe('4 4\n');
  });
});

describe('--mpi=list and --test-only', () => {
  it('lists the mpi plugins on stdout as srun does', async () => {
    const r = await runBin('tsrun', ['--mpi=list']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: 'MPI plugin types are...\n\tnone\n\tpmi2\n\tpmix\nspecific pmix plugin versions available: pmix_v4\n',
      stderr: '',
    });
  });

  it('says where the job would run and runs nothing', async () => {
    const r = await tsrun(['--test-only', '-N2', '-n3', 'sh', '-c', 'echo ran']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tsrun: Job 1 to start at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d using 3 processors on nodes node\[1-2\] in partition debug\n$/);
  });
});

describe('--multi-prog', () => {
  it('runs a program per task', async () => {
    const conf = fixture('programs', 'multi-prog.conf');
    const r = await tsrun(['-n4', '-l', '--multi-prog', conf]);
    expect(r.stderr).toBe('');
    expect(byTask(r.stdout)).toEqual(['0: leader 0', '1: worker 1 0', '2: worker 2 1', '3: worker 3 2']);
  });
});
