// tsrun's launch through step hosts when a node's I/O connection never arrives, though its host
// answered that it launched (closed before its hello was taken, or its hello refused): the node
// is lost after the unauthenticated timeout, as one whose connection drops, and its tasks count
// as killed. tsrun waited for it forever before (seen: a tsrun hung 15 minutes, SIGTERM or not).
// And one whose connection tsrun takes only after its host answered (still in the listener's
// backlog: a node whose tasks all ended at once) is not lost: the port stays open for it.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { launchThroughHosts } from '../../../../src/commands/tsrun/node-hosts.js';
import { localAuth } from '../../../../src/net/local-auth.js';
import type { NodeLaunchSpec, StepFacts } from '../../../../src/stepd/launch-spec.js';
import type { TaskExit } from '../../../../src/core/exit-status.js';

const saved = process.env['TSLURM_UNAUTH_TIMEOUT'];
afterEach(() => {
  if (saved === undefined) delete process.env['TSLURM_UNAUTH_TIMEOUT'];
  else process.env['TSLURM_UNAUTH_TIMEOUT'] = saved;
});

function spec(): NodeLaunchSpec {
  const step = { jobId: 7, stepId: 0, nodeNames: ['n1'], tids: [[0, 1]], ntasks: 2 } as unknown as StepFacts;
  return { step, nodeId: 0, cpusOnNode: 2, gpus: [], argv: [['true'], ['true']], cwd: '/', env: [], stdin: 'none', killWaitSeconds: 1 };
}

describe('launchThroughHosts', () => {
  it('loses a launched node whose I/O connection never says hello, and counts its tasks killed', async () => {
    process.env['TSLURM_UNAUTH_TIMEOUT'] = '0.3';
    const exits: TaskExit[] = [];
    const aborts: string[] = [];
    const lost: string[] = [];
    const [result] = await launchThroughHosts({
      specs: [spec()],
      nodes: [{ name: 'n1', host: '127.0.0.1', port: 1 }],
      auth: localAuth,
      plugins: {} as never,
      endsJob: true,
      treeWidth: 50,
      sink: { stdout: () => {}, stderr: () => {}, daemonError: () => {}, taskExited: (exit) => exits.push(exit), abortStep: (message) => aborts.push(message) },
      io: { listen: '127.0.0.1', reachedAt: async () => '127.0.0.1' },
      // The host answers ok; its node's connection comes, then closes without a hello.
      send: async (launch) => {
        const socket = net.connect(launch.io.port, launch.io.host);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.destroy();
        return [{ node: 'n1', ok: true }];
      },
      onNodeLost: (node) => lost.push(node),
    });
    expect(result!.status).toBe('fulfilled');
    const node = (result as PromiseFulfilledResult<{ done: Promise<TaskExit[]> }>).value;
    const done = await Promise.race([node.done, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 5000))]);
    expect(done).toEqual([
      { taskId: 0, nodeName: 'n1', exitCode: null, signal: 'SIGKILL' },
      { taskId: 1, nodeName: 'n1', exitCode: null, signal: 'SIGKILL' },
    ]);
    expect({ exits: exits.length, aborts, lost }).toEqual({ exits: 2, aborts: ['Node failure on n1'], lost: ['n1'] });
  });

  it("keeps its I/O port open for a node whose connection comes after its host's answer", async () => {
    process.env['TSLURM_UNAUTH_TIMEOUT'] = '0.5';
    const lost: string[] = [];
    const [result] = await launchThroughHosts({
      specs: [spec()],
      nodes: [{ name: 'n1', host: '127.0.0.1', port: 1 }],
      auth: localAuth,
      plugins: {} as never,
      endsJob: true,
      treeWidth: 50,
      sink: { stdout: () => {}, stderr: () => {}, daemonError: () => {} },
      io: { listen: '127.0.0.1', reachedAt: async () => '127.0.0.1' },
      // The host answers ok at once; its node connects a moment later, reports and is done.
      send: async (launch) => {
        setTimeout(() => {
          void (async () => {
            const socket = net.connect(launch.io.port, launch.io.host);
            socket.on('error', () => {});
            const hello = await localAuth.seal({ t: 'hello', key: launch.io.key, nodeId: 0 });
            const exits = [0, 1].map((taskId) => ({ t: 'exit', exit: { taskId, nodeName: 'n1', exitCode: 0, signal: null } }));
            socket.end([hello, ...exits, { t: 'done' }].map((m) => `${JSON.stringify(m)}\n`).join(''));
          })();
        }, 50);
        return [{ node: 'n1', ok: true }];
      },
      onNodeLost: (node) => lost.push(node),
    });
    const node = (result as PromiseFulfilledResult<{ done: Promise<TaskExit[]> }>).value;
    const done = await Promise.race([node.done, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 5000))]);
    expect(done).toEqual([
      { taskId: 0, nodeName: 'n1', exitCode: 0, signal: null },
      { taskId: 1, nodeName: 'n1', exitCode: 0, signal: null },
    ]);
    expect(lost).toEqual([]);
  });
});
