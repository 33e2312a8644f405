// mpi/pmi2 with real MPICH ranks whose PMI_FD is a Unix socket each connected to a listener of
// the step daemon's before its exec, as a spawn server that forks outside Node provides a task's
// extra 'pipes' (no socketpair whose other end the host inherits): the plugin's hooks as the
// step daemon calls them, a one-node step (its own fence tree), four ranks, allreduce and ring.
// The connecting child is a few lines of Python standing in for the spawner's child side.
// Skipped without MPICH's mpicc or python3 (apt-get install mpich libmpich-dev).
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLURM_SUCCESS, type MpiStepLayout, type MpiTaskLaunch } from '../../../../src/plugin-api/index.js';
import { stepEnvOver } from '../../../../src/stepd/step-env.js';
import * as pmi2 from '../../../../plugins/mpi_pmi2.js';
import { fixture } from '../../../helpers/run-bin.js';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return path.join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

const mpicc = onPath('mpicc.mpich') ?? onPath('mpicc');
const python = onPath('python3');
const ready = Boolean(mpicc && python) || Boolean(process.env.CI);
const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-pmi-connected-'));
const hello = path.join(dir, 'hello');
const listenPath = path.join(dir, 'pmi.sock');

// The spawner's child side: connect, say which task this is, put the socket at fd 3, exec.
const connectThenExec = [
  'import os, socket, sys',
  's = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
  's.connect(sys.argv[1])',
  "s.sendall((sys.argv[2] + '\\n').encode())",
  'if s.fileno() != 3: os.dup2(s.fileno(), 3)',
  'os.set_inheritable(3, True)',
  'os.execv(sys.argv[3], sys.argv[3:])',
].join('\n');

beforeAll(() => {
  if (ready) execFileSync(mpicc!, ['-O', '-o', hello, fixture('programs', 'mpi-hello.c')]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(ready)('mpi/pmi2 over sockets connected to the step daemon', () => {
  it('starts four MPICH ranks whose PMI_FD was connected before the exec', async () => {
    const layout: MpiStepLayout = { node_cnt: 1, node_list: 'n1', node_names: ['n1'], task_cnt: 4, tasks: [4], tids: [[0, 1, 2, 3]], task_dist: 'block' };
    const aborts: string[] = [];
    const env: string[] = [`PATH=${process.env.PATH}`];
    const state = await pmi2.p_mpi_hook_client_prelaunch({ jobid: 7, stepid: 0, step_layout: layout, abort_step: (m) => aborts.push(m) }, stepEnvOver(env));
    const done = new AbortController();
    const step = { jobid: 7, stepid: 0, nnodes: 1, ntasks: 4, nodeid: 0, node_name: 'n1', ltasks: 4, gtids: [0, 1, 2, 3], step_layout: layout, step_done: done.signal, abort_step: (m: string) => aborts.push(m) };
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(step, stepEnvOver(env))).toBe(SLURM_SUCCESS);

    // The step daemon's listener: the first line a connection sends names its task.
    const launches = new Map<number, MpiTaskLaunch>();
    const server: Server = createServer((socket: Socket) => {
      let head = '';
      const onData = (chunk: Buffer): void => {
        head += chunk.toString('latin1');
        const end = head.indexOf('\n');
        if (end === -1) return;
        socket.off('data', onData);
        socket.pause();
        const rest = head.slice(end + 1);
        if (rest) socket.unshift(Buffer.from(rest, 'latin1'));
        launches.get(Number(head.slice(0, end)))!.attach!([socket]);
        socket.resume();
      };
      socket.on('data', onData);
    });
    await new Promise<void>((resolve) => server.listen(listenPath, resolve));

    const outputs = await Promise.all(
      [0, 1, 2, 3].map((rank) => {
        const taskEnv = [...env, `SLURM_PROCID=${rank}`];
        const launch = pmi2.p_mpi_hook_slurmstepd_task(
          { jobid: 7, stepid: 0, nnodes: 1, nodeid: 0, node_name: 'n1', ntasks: 4, ltasks: 4, gtaskid: rank, ltaskid: rank },
          stepEnvOver(taskEnv),
        ) as MpiTaskLaunch;
        expect(launch.pipes).toBe(1);
        launches.set(rank, launch);
        const vars = Object.fromEntries(taskEnv.map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]));
        const child = spawn(python!, ['-c', connectThenExec, listenPath, String(rank), hello], { env: vars, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        return new Promise<{ code: number | null; out: string }>((resolve) =>
          child.on('close', (code) => {
            launch.exited?.();
            resolve({ code, out });
          }),
        );
      }),
    );
    server.close();
    done.abort();
    pmi2.p_mpi_hook_client_fini(state);
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 0, 0]);
    expect(outputs.map((o) => o.out.match(/rank \d+ of \d+/)![0])).toEqual(['rank 0 of 4', 'rank 1 of 4', 'rank 2 of 4', 'rank 3 of 4']);
    expect(outputs[0]!.out).toContain('allreduce sum=6 ring token=6 expected=6 OK');
    expect(aborts).toEqual([]);
  }, 60_000);
});
