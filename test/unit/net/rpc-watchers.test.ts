// A watcher's requests (RpcRequest.watch: tsrestd's dashboard polls) leave a daemon's idle
// clock alone, and a connection that sends only those does not count as one that keeps it up;
// any other request, or a connection that has sent nothing yet, does.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { RpcServer, type Route } from '../../../src/net/rpc-server.js';
import { CtldClient } from '../../../src/client/ctld-client.js';
import { createLogger } from '../../../src/core/log.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function server(): Promise<{ server: RpcServer; socketPath: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tslurm-rpc-'));
  const routes = new Map<string, Route>([['ping', { body: v.unknown(), handle: async () => ({ pid: 1 }) }]]);
  const rpc = new RpcServer(routes, createLogger('tsctld', 'info', () => {}));
  const socketPath = path.join(dir, 'tsctld.sock');
  await rpc.listen(socketPath);
  cleanups.push(() => rpc.close(), () => rmSync(dir, { recursive: true, force: true }));
  return { server: rpc, socketPath };
}

const connect = async (socketPath: string): Promise<CtldClient> => {
  const client = await CtldClient.connect(socketPath);
  cleanups.push(() => client.close());
  return client;
};
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('watchers of an RPC server', () => {
  it('neither restart the idle clock nor count as busy connections, until they ask otherwise', async () => {
    const { server: rpc, socketPath } = await server();
    const watcher = await connect(socketPath);
    // Connected, nothing sent yet: it counts (a command about to submit).
    await until(() => rpc.connections === 1);
    expect(rpc.busyConnections).toBe(1);
    rpc.lastActive = 0;
    await watcher.watch('ping');
    expect([rpc.busyConnections, rpc.lastActive]).toEqual([0, 0]);

    const user = await connect(socketPath);
    await user.call('ping');
    expect(rpc.busyConnections).toBe(1);
    expect(rpc.lastActive).toBeGreaterThan(0);

    // A watcher's connection closing is no activity either; another's is.
    rpc.lastActive = 0;
    watcher.close();
    await until(() => rpc.connections === 1);
    expect(rpc.lastActive).toBe(0);
    user.close();
    await until(() => rpc.connections === 0);
    expect(rpc.lastActive).toBeGreaterThan(0);
  });

  it('counts a watcher that sends another request from then on', async () => {
    const { server: rpc, socketPath } = await server();
    const client = await connect(socketPath);
    await client.watch('ping');
    expect(rpc.busyConnections).toBe(0);
    await client.call('ping');
    expect(rpc.busyConnections).toBe(1);
    await client.watch('ping');
    expect(rpc.busyConnections).toBe(1);
  });
});
