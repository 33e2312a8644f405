// tsrun --mpi=pmi2 with real PMI clients: MPICH programs (PMI-1 over PMI_FD), Slurm's libpmi2
// (PMI-2), and a bash PMI-1 client that needs no MPI. Expected lines are what Slurm 22.05's
// srun --mpi=pmi2 printed for the same programs and layouts (a 3-node cluster of 4-CPU nodes).
// The MPI programs are compiled here; without mpicc or libpmi2 these tests fail under CI and
// are skipped elsewhere (apt-get install mpich libmpich-dev libpmi2-0-dev).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runBin } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs each
const eight = fixture('clusters', 'eight-nodes.yaml'); // node[1-8], 2 CPUs each
const host = hostname(); // MPI_Get_processor_name: the real host, whatever the node is called

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

// Debian's mpicc may be Open MPI's when both are installed; MPICH's is always mpicc.mpich.
const mpicc = onPath('mpicc.mpich') ?? onPath('mpicc');
const cc = onPath('cc') ?? onPath('gcc');
const pmi2Header = '/usr/include/slurm/pmi2.h';
const missing = [!mpicc && 'mpicc (MPICH)', !cc && 'cc', !existsSync(pmi2Header) && `${pmi2Header} (libpmi2)`].filter(Boolean);
const toolchain = missing.length === 0 || Boolean(process.env.CI);
if (!toolchain) {
  console.warn(`mpi-pmi2 e2e: skipping the MPI tests, ${missing.join(', ')} not found (apt-get install mpich libmpich-dev libpmi2-0-dev)`);
}

const bin: Record<'hello' | 'abort' | 'pmi2', string> = { hello: '', abort: '', pmi2: '' };

async function tsrun(args: string[], env: Record<string, string> = {}, cluster = small) {
  return runBin('tsrun', ['--cluster', cluster, '--mpi=pmi2', ...args], { env: { TSLURM_KILL_WAIT: '5', ...env } });
}

/** Labelled output in task order, pids blanked. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/\(pid \d+\)/, '(pid N)'))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
}

function hello(n: number): string[] {
  const out = Array.from({ length: n }, (_, r) => `${r}: hello from rank ${r} of ${n} on ${host} (pid N)`);
  const sum = (n * (n - 1)) / 2;
  out.splice(1, 0, `0: rank 0: allreduce sum=${sum} ring token=${sum} expected=${sum} OK`);
  return out;
}

describe.runIf(toolchain)('MPICH and libpmi2 programs under --mpi=pmi2', () => {
  beforeAll(() => {
    if (missing.length > 0) throw new Error(`${missing.join(', ')} not found: apt-get install mpich libmpich-dev libpmi2-0-dev`);
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-mpi-'));
    const build = (compiler: string, source: string, out: string, libs: string[] = []): string => {
      const file = path.join(dir, out);
      execFileSync(compiler, ['-O', '-o', file, fixture('programs', source), ...libs], { stdio: 'pipe' });
      return file;
    };
    bin.hello = build(mpicc!, 'mpi-hello.c', 'hello');
    bin.abort = build(mpicc!, 'mpi-abort.c', 'abort');
    bin.pmi2 = build(cc!, 'pmi2-client.c', 'pmi2-client', ['-lpmi2']);
  });

  it.each([
    [['-n1'], 1],
    [['-n4'], 4],
    [['-N2', '-n4'], 4],
    [['-N2', '-n3'], 3],
    [['-n4', '-m', 'cyclic'], 4],
    [['-N2', '-n4', '-m', 'cyclic'], 4],
    [['-N4', '-n4'], 4],
  ])('hello %j: every rank starts, allreduce and ring are right', async (args, n) => {
    const r = await tsrun(['-l', ...args, bin.hello]);
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({ exitCode: 0, stdout: hello(n), stderr: '' });
  });

  it.each([1, 2, 3, 4, 7])('hello on %i node(s) through a fence tree of width 2 (SLURM_PMI2_TREE_WIDTH=2)', async (n) => {
    const r = await tsrun(['-l', `-N${n}`, `-n${n}`, bin.hello], { SLURM_PMI2_TREE_WIDTH: '2' }, eight);
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({ exitCode: 0, stdout: hello(n), stderr: '' });
  });

  it('TSLURM_PMI_PORT=1: a wrapper that closes fd 3 and unsets PMI_FD still starts MPICH, through PMI_PORT', async () => {
    const wrapped = ['sh', '-c', `exec 3>&-; unset PMI_FD; exec ${bin.hello}`];
    const r = await tsrun(['-l', '-N2', '-n4', ...wrapped], { TSLURM_PMI_PORT: '1', SLURM_PMI2_TREE_WIDTH: '2' });
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({ exitCode: 0, stdout: hello(4), stderr: '' });
  });

  it('MPI_Abort(MPI_COMM_WORLD, 3) kills the step at once, as srun does: 137, every task Killed', async () => {
    const started = Date.now();
    const r = await tsrun(['-l', '-N2', '-n4', bin.abort]);
    expect(Date.now() - started).toBeLessThan(20_000); // the other ranks wait in a barrier for ever
    expect(r.exitCode).toBe(137);
    expect(lines(r.stdout)).toEqual([0, 1, 2, 3].map((t) => `${t}: rank ${t} of 4 ready`));
    const stderr = r.stderr.replace(/CANCELLED AT \S+/, 'CANCELLED AT <time>');
    expect(stderr.split('\n').filter(Boolean).sort()).toEqual(
      [
        '1: Abort(3) on node 1 (rank 1 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 3) - process 1',
        'tsrun: Job step aborted: Waiting up to 7 seconds for job step to finish.',
        '0: tsstepd-node1: error: *** STEP 1.0 ON node1 CANCELLED AT <time> ***',
        'tsrun: error: node1: tasks 0-2: Killed',
        'tsrun: error: node2: task 3: Killed',
      ].sort(),
    );
  });

  it('MPI_Abort of a single rank: MPICH exits with the code, as under srun', async () => {
    const r = await tsrun([bin.abort]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('rank 0 of 1 ready\n');
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'Abort(3) on node 0 (rank 0 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 3) - process 0',
      'tsrun: error: node1: task 0: Exited with exit code 3',
    ]);
  });

  it("Slurm's libpmi2 client: job id, mapping, KVS with ';', node attributes (-N2 -n3)", async () => {
    const r = await tsrun(['-l', '-N2', '-n3', bin.pmi2]);
    const common = 'spawned=0 appnum=-1 jobid=1.0 mapping=(vector,(0,1,2),(1,1,1)) universeSize=3 kvs=ok';
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [
        `0: rank 0 of 3: ${common} leader=from-rank-0;node1`,
        `1: rank 1 of 3: ${common} leader=from-rank-0;node1`,
        `2: rank 2 of 3: ${common} leader=from-rank-2;node2`,
      ],
      stderr: '',
    });
  });

  it("Slurm's libpmi2 client on one node (-n3): its fences complete on the node, which is the whole tree", async () => {
    const r = await tsrun(['-l', '-n3', bin.pmi2]);
    const common = 'spawned=0 appnum=-1 jobid=1.0 mapping=(vector,(0,1,3)) universeSize=3 kvs=ok leader=from-rank-0;node1';
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2].map((t) => `${t}: rank ${t} of 3: ${common}`),
      stderr: '',
    });
  });

  it("libpmi2 client with -m cyclic: Slurm's cyclic mapping", async () => {
    const r = await tsrun(['-l', '-N2', '-n4', '-m', 'cyclic', bin.pmi2]);
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout).map((l) => l.replace(/ leader=.*/, ''))).toEqual(
      [0, 1, 2, 3].map(
        (t) => `${t}: rank ${t} of 4: spawned=0 appnum=-1 jobid=1.0 mapping=(vector,(0,2,1),(0,1,1),(0,1,1)) universeSize=4 kvs=ok`,
      ),
    );
  });
});

describe('the PMI server with a bash PMI-1 client (no MPI needed)', () => {
  const client = fixture('programs', 'pmi1-client.sh');

  it("gives every task Slurm's PMI variables and a socket as fd 3", async () => {
    const r = await tsrun(['-l', '-N2', '-n3', 'sh', '-c', 'env | grep ^PMI_ | sort; test -S /proc/self/fd/3 && echo fd3 is a socket']);
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2].flatMap((t) => [
        `${t}: PMI_FD=3`,
        `${t}: PMI_JOBID=1.0`,
        `${t}: PMI_RANK=${t}`,
        `${t}: PMI_SIZE=3`,
        `${t}: fd3 is a socket`,
      ]).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b)),
      stderr: '',
    });
  });

  it('serves put, barrier and get across nodes', async () => {
    const r = await tsrun(['-l', '-N2', '-n3', client]);
    const cards = '[card of 0][card of 1][card of 2]';
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2].map((t) => `${t}: rank ${t} of 3: kvsname=1.0 cards=${cards}`),
      stderr: '',
    });
  });

  it('a task that dies after init ends the step instead of leaving the others in the barrier', async () => {
    const started = Date.now();
    const r = await tsrun(['-N2', '-n3', client], { PMI1_DIE_AFTER_INIT: '1' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(137);
    expect(r.stdout).toBe('');
    expect(r.stderr.replace(/CANCELLED AT \S+/, 'CANCELLED AT <time>').split('\n').filter(Boolean).sort()).toEqual(
      [
        'tsrun: error: mpi/pmi2: task 1 closed its PMI connection before finalize',
        'tsrun: Job step aborted: Waiting up to 7 seconds for job step to finish.',
        'tsstepd-node1: error: *** STEP 1.0 ON node1 CANCELLED AT <time> ***',
        'tsrun: error: node1: task 0: Killed',
        'tsrun: error: node1: task 1: Exited with exit code 4',
        'tsrun: error: node2: task 2: Killed',
      ].sort(),
    );
  });

  it("tsrun's port for the step daemons does not reach the tasks; a tree width the user set does (as Slurm)", async () => {
    const r = await tsrun(['-l', '-N3', 'sh', '-c', 'env | grep -E "^(SLURM_)?PMI2?_(SRUN|TREE|PORT|ID)" | sort'], { SLURM_PMI2_TREE_WIDTH: '2' });
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2].map((t) => `${t}: SLURM_PMI2_TREE_WIDTH=2`),
      stderr: '',
    });
  });

  it('TSLURM_PMI_PORT=1 adds PMI_PORT (the node\'s loopback listener) and PMI_ID (the rank)', async () => {
    const r = await tsrun(['-l', '-N2', '-n3', 'sh', '-c', 'echo $PMI_ID $PMI_PORT'], { TSLURM_PMI_PORT: '1' });
    expect(r.exitCode).toBe(0);
    expect(lines(r.stdout)).toEqual([0, 1, 2].map((t) => expect.stringMatching(new RegExp(`^${t}: ${t} 127\\.0\\.0\\.1:\\d+$`))));
  });

  it('serves put, barrier and get across seven nodes in a tree of width 2', async () => {
    const r = await tsrun(['-l', '-N7', '-n7', client], { SLURM_PMI2_TREE_WIDTH: '2' }, eight);
    const cards = [0, 1, 2, 3, 4, 5, 6].map((t) => `[card of ${t}]`).join('');
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2, 3, 4, 5, 6].map((t) => `${t}: rank ${t} of 7: kvsname=1.0 cards=${cards}`),
      stderr: '',
    });
  });

  it('tasks that never use PMI run as under --mpi=none', async () => {
    const r = await tsrun(['-n2', 'true']);
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});
