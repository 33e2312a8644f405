// Running tsrestd: the app (restd/server.ts) on the state directory's Unix socket and on each
// --listen address, one start line per place it listens, until SIGINT or SIGTERM.
import http from 'node:http';
import net from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { chmodSync, rmSync } from 'node:fs';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { resilientSink } from '../../os/log-sink.js';
import { UserError } from '../../core/errors.js';
import { loadCluster } from '../../config/load.js';
import { prepareStateDir, resolveStateDir } from '../../config/state-dir.js';
import { ControllerLink } from '../../restd/controller-link.js';
import { authenticator, localSockets } from '../../restd/auth.js';
import { peerCredAvailable } from '../../restd/peer-cred.js';
import type { RestContext } from '../../restd/context.js';

export interface ServeOptions {
  cluster?: string;
  verbose: number;
  listen: Array<{ host: string; port: number }>;
  socket?: string;
  bin: string;
}

export async function serve(options: ServeOptions): Promise<number> {
  const config = await loadCluster({ file: options.cluster });
  const stateDir = resolveStateDir(config);
  prepareStateDir(stateDir);
  const log = createLogger(options.bin, levelFromVerbosity(options.verbose), resilientSink(options.bin));
  const controller = new ControllerLink({ config, stateDir, clusterFile: config.source.startsWith('/') ? config.source : undefined });
  const ctx: RestContext = {
    controller,
    clusterName: config.clusterName,
    controllerHost: config.control.host ?? hostname().split('.')[0]!,
    stateDir,
    log,
    authenticate: authenticator(stateDir),
  };
  const { buildApp } = await import('../../restd/server.js');
  const app = await buildApp(ctx);
  await app.ready();

  const socketPath = path.resolve(options.socket ?? path.join(stateDir, 'tsrestd.sock'));
  const servers: http.Server[] = [];
  // One app, several listeners: each server hands its requests to fastify's own.
  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => app.server.emit('request', request, response);
  const local = http.createServer(handle);
  local.on('connection', (socket) => localSockets.add(socket));
  // A socket another tsrestd still serves is its; one nobody answers on is left over.
  if (await answers(socketPath)) throw new UserError(`another tsrestd already listens on ${socketPath}`);
  rmSync(socketPath, { force: true });
  await listen(local, { path: socketPath }, `unix:${socketPath}`);
  // Who may connect is the directory's to say (the state directory is its owner's only); a
  // --socket in a shared place serves every local user, each told apart by its uid.
  chmodSync(socketPath, 0o666);
  servers.push(local);
  const lines = [`${options.bin}: listening on unix:${socketPath}${peerCredAvailable() ? '' : ' (token required: the peer-credential helper was not built)'}`];
  for (const address of options.listen) {
    const tcp = http.createServer(handle);
    await listen(tcp, address, `${address.host}:${address.port}`);
    const bound = tcp.address() as { address: string; port: number };
    servers.push(tcp);
    const url = `http://${bound.address.includes(':') ? `[${bound.address}]` : bound.address}:${bound.port}/`;
    lines.push(`${options.bin}: listening on ${url}`, `${options.bin}: dashboard: ${app.dashboardLink(url)}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const server of servers) server.close();
  for (const server of servers) server.closeAllConnections();
  rmSync(socketPath, { force: true });
  controller.close();
  return 0;
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function listen(server: http.Server, where: { path: string } | { host: string; port: number }, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new UserError(`cannot listen on ${name}: ${error.code === 'EADDRINUSE' ? 'address already in use' : error.message}`)));
    server.listen(where, () => resolve());
  });
}
