// tsrun --mpi=pmix with Open MPI programs: each node's PMIx server helper (dist/native, built
// by `npm run build` against libpmix-dev) hands the ranks their PMIx environment, and fences
// cross the emulated nodes through tsrun. Without Open MPI's mpicc or the built helper these
// tests fail under CI and are skipped elsewhere
// (apt-get install openmpi-bin libopenmpi-dev libpmix-dev pkg-config, then npm run build).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs each
const host = hostname(); // MPI_Get_processor_name: the real host, whatever the node is called

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = executable(path.join(dir, name));
    if (file) return file;
  }
  return undefined;
}

// Debian's mpicc is MPICH's when both are installed and pinned; Open MPI's is always mpicc.openmpi.
const mpicc = onPath('mpicc.openmpi');
const helper = executable(path.join(repoRoot, 'dist', 'native', 'tspmix_server'));
const missing = [
  !mpicc && 'mpicc.openmpi (openmpi-bin libopenmpi-dev)',
  !helper && 'dist/native/tspmix_server (libpmix-dev pkg-config, then npm run build)',
].filter(Boolean);
const toolchain = missing.length === 0 || Boolean(process.env.CI);
if (!toolchain) console.warn(`mpi-pmix e2e: skipping the Open MPI tests, ${missing.join(', ')} not found`);

const bin: Record<'hello' | 'abort' | 'exit-early', string> = { hello: '', abort: '', 'exit-early': '' };

// Open MPI names its shared-memory segments after the host and the local rank, so two emulated
// nodes on one host would share them (pmi-findings §4.8): steps over several nodes use TCP only.
async function tsrun(args: string[], env: Record<string, string> = {}) {
  const btl = args.some((a) => /^-N[2-9]/.test(a)) ? { OMPI_MCA_btl: 'self,tcp' } : {};
  return runBin('tsrun', ['--cluster', small, '--mpi=pmix', ...args], { env: { TSLURM_KILL_WAIT: '5', ...btl, ...env } });
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

describe.runIf(toolchain)('Open MPI programs under --mpi=pmix', () => {
  beforeAll(() => {
    if (missing.length > 0) throw new Error(`${missing.join(', ')} not found`);
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-ompi-'));
    for (const name of ['hello', 'abort', 'exit-early'] as const) {
      bin[name] = path.join(dir, name);
      execFileSync(mpicc!, ['-O', '-o', bin[name], fixture('programs', `mpi-${name}.c`)], { stdio: 'pipe' });
    }
  });

  it.each([
    [['-n1'], 1],
    [['-n2'], 2],
    [['-n4'], 4],
    [['-N2', '-n4'], 4],
    [['-N2', '-n4', '-m', 'cyclic'], 4],
  ])('hello %j: every rank starts, allreduce and ring are right', async (args, n) => {
    const r = await tsrun(['-l', ...args, bin.hello]);
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({ exitCode: 0, stdout: hello(n), stderr: '' });
  });

  it('MPI_Abort(MPI_COMM_WORLD, 3) of rank 1 kills the step at once: 137, the waiting ranks Killed', async () => {
    const started = Date.now();
    const r = await tsrun(['-l', '-N2', '-n4', bin.abort]);
    expect(Date.now() - started).toBeLessThan(20_000); // the other ranks wait in a barrier for ever
    expect(r.exitCode).toBe(137);
    expect(lines(r.stdout)).toEqual([0, 1, 2, 3].map((t) => `${t}: rank ${t} of 4 ready`));
    const tsrunLines = r.stderr
      .split('\n')
      .filter((l) => /^(tsrun|0: tsstepd)/.test(l)) // under -l the step daemon's line is task 0's, as in Slurm
      .map((l) => l.replace(/CANCELLED AT \S+/, 'CANCELLED AT <time>'))
      .sort();
    // Rank 1 returns from PMIx_Abort and exits 3 unless the kill reaches it first (Slurm's
    // mpi/pmix releases the aborting client too), so its own line is either.
    const killedAll = ['tsrun: error: node1: tasks 0-2: Killed'];
    const rank1Exited = ['tsrun: error: node1: task 1: Exited with exit code 3', 'tsrun: error: node1: tasks 0,2: Killed'];
    const common = [
      'tsrun: Job step aborted: Waiting up to 7 seconds for job step to finish.',
      '0: tsstepd-node1: error: *** STEP 1.0 ON node1 CANCELLED AT <time> ***',
      'tsrun: error: node2: task 3: Killed',
    ];
    expect([[...common, ...killedAll].sort(), [...common, ...rank1Exited].sort()]).toContainEqual(tsrunLines);
    expect(r.stderr).toContain('1: MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\n1: with errorcode 3.\n');
  });

  it('a rank that exits without MPI_Finalize ends the step instead of leaving the others in the barrier', async () => {
    const started = Date.now();
    const r = await tsrun(['-l', '-N2', '-n4', bin['exit-early']]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(137);
    expect(lines(r.stdout)).toEqual([0, 1, 2, 3].map((t) => `${t}: rank ${t} of 4 ready`));
    expect(r.stderr.replace(/CANCELLED AT \S+/, 'CANCELLED AT <time>').split('\n').filter(Boolean).sort()).toEqual(
      [
        'tsrun: error: mpi/pmix: task 1 exited without calling PMIx_Finalize',
        'tsrun: Job step aborted: Waiting up to 7 seconds for job step to finish.',
        '0: tsstepd-node1: error: *** STEP 1.0 ON node1 CANCELLED AT <time> ***',
        'tsrun: error: node1: task 1: Exited with exit code 4',
        'tsrun: error: node1: tasks 0,2: Killed',
        'tsrun: error: node2: task 3: Killed',
      ].sort(),
    );
  });
});

describe.runIf(toolchain)('the PMIx helper without MPI', () => {
  it('tasks that never call PMIx_Init run as under --mpi=none', async () => {
    const r = await tsrun(['-N2', '-n3', 'true']);
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('gives every task its PMIx variables, under --mpi=pmix_v4 too', async () => {
    const script = 'echo "$PMIX_NAMESPACE $PMIX_RANK $SLURM_PMIX_MAPPING_SERV"; test -n "$PMIX_SERVER_URI41" && echo uri';
    const r = await runBin('tsrun', ['--cluster', small, '--mpi=pmix_v4', '-l', '-N2', '-n3', 'sh', '-c', script]);
    expect({ exitCode: r.exitCode, stdout: lines(r.stdout), stderr: r.stderr }).toEqual({
      exitCode: 0,
      stdout: [0, 1, 2].flatMap((t) => [`${t}: slurm.pmix.1.0 ${t} (vector,(0,1,2),(1,1,1))`, `${t}: uri`]),
      stderr: '',
    });
  });
});

describe('--mpi=pmix without the helper', () => {
  it('fails at plugin load with the install hint', async () => {
    const r = await tsrun(['true'], { TSLURM_PMIX_SERVER: '/nonexistent/tspmix_server' });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'tsrun: error: mpi/pmix: Plugin init() callback failed: init() threw: the PMIx server helper is not built: ' +
        `install libpmix-dev and a C compiler, then npm run build (${path.join(repoRoot, 'dist', 'plugins', 'mpi_pmix.js')})\n`,
    );
  });
});
