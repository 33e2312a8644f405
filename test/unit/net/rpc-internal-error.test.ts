// A bug in a daemon's handler (an exception that is not a UserError) is the daemon's to log,
// with its stack, and the requester's to report as one line in Slurm's words: what failed
// (the command's own prefix) and ESLURM_INTERNAL's text, never the bug's message or a stack.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { RpcServer, type Route } from '../../../src/net/rpc-server.js';
import { CtldClient } from '../../../src/client/ctld-client.js';
import { createLogger } from '../../../src/core/log.js';
import { UserError } from '../../../src/core/errors.js';
import { reportError } from '../../../src/cli/run-cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A controller-like server whose `submit` handler has a bug; its log lines are kept. */
async function buggyServer(): Promise<{ socketPath: string; logged: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tslurm-rpc-'));
  const logged: string[] = [];
  const routes = new Map<string, Route>([
    [
      'submit',
      {
        body: v.unknown(),
        handle: async () => {
          const job = undefined as unknown as { record: { job_id: number } };
          return job.record.job_id;
        },
      },
    ],
  ]);
  const server = new RpcServer(routes, createLogger('tsctld', 'info', (line) => logged.push(line)));
  const socketPath = path.join(dir, 'tsctld.sock');
  await server.listen(socketPath);
  cleanups.push(() => server.close(), () => rmSync(dir, { recursive: true, force: true }));
  return { socketPath, logged };
}

describe('an internal error in a daemon handler', () => {
  it('is logged with its stack and answered as ESLURM_INTERNAL, which the command prints as one line', async () => {
    const { socketPath, logged } = await buggyServer();
    const client = await CtldClient.connect(socketPath);
    cleanups.push(() => client.close());
    const error = await client.call('submit', { desc: {} as never }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).code).toBe('ESLURM_INTERNAL');
    expect((error as UserError).message).toBe('Slurm internal error, contact system administrator');

    // The controller's log: what failed, the bug's message and where (the stack).
    const line = logged.join('');
    expect(line).toMatch(/^tsctld: error: rpc: submit failed: TypeError: Cannot read properties of undefined \(reading 'record'\)\n\s+at /);

    // tsbatch words a refused submission so; the boundary prints it as one line, no hint, no stack.
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
    const status = reportError('tsbatch', new UserError(`Batch job submission failed: ${(error as UserError).message}`, { code: (error as UserError).code }));
    expect(stderr).toBe('tsbatch: error: Batch job submission failed: Slurm internal error, contact system administrator\n');
    expect(status).toBe(1);
  });
});
