// One node's PMIx server helper process (native/pmix-server/tspmix_server.c), seen from the
// step daemon: start it, register the namespace, ask for each rank's environment, relay fences,
// and hear about finalized and aborting clients. Requests are answered in order, one line each.
import { createInterface } from 'node:readline';
import { startProgram, type StartedProgram } from '../../../src/plugin-api/index.js';
import {
  fenceDoneRequest,
  fenceFailRequest,
  forkRequest,
  jobRequest,
  parseHelperLine,
  type HelperEvent,
  type JobRegistration,
} from './helper-protocol.js';

/** What the helper reports without being asked. */
export interface HelperHandlers {
  /** Every local client entered fence `seq`; `hex` is this node's blob. */
  fence(seq: number, hex: string): void;
  connected(rank: number): void;
  finalized(rank: number): void;
  abort(rank: number, status: number, message: string): void;
  /** The helper died or broke the protocol while the step still needed it. */
  failed(message: string): void;
}

interface Waiter {
  expect: 'ready' | 'ok' | 'env';
  resolve(event: HelperEvent): void;
  reject(error: Error): void;
}

// How long a helper gets to finalize libpmix and remove its files after `quit`.
const QUIT_GRACE_MS = 2000;

export class PmixHelper {
  private readonly waiters: Waiter[] = [];
  private closing = false;
  private readonly exited: Promise<void>;
  private readonly child: StartedProgram['child'];

  private constructor(
    started: StartedProgram,
    private readonly handlers: HelperHandlers,
  ) {
    const { child } = started;
    this.child = child;
    this.exited = started.closed;
    // An EPIPE when the helper has died is reported as its end.
    void started.ended.then((end) => {
      if (end.kind === 'exec-failed') this.lost(`the PMIx server helper could not run: ${end.message}`);
      else if (!this.closing) this.lost(`the PMIx server helper exited (${end.kind === 'signaled' ? end.signal : `status ${end.code}`})`);
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.receive(line));
  }

  /** Starts `binary TMPDIR HOSTNAME` and waits for its `ready` line. */
  static async start(binary: string, tmpdir: string, hostname: string, handlers: HelperHandlers): Promise<PmixHelper> {
    const helper = new PmixHelper(startProgram([binary, tmpdir, hostname], { stdio: ['pipe', 'pipe', 'inherit'] }), handlers);
    await helper.request('ready', undefined);
    return helper;
  }

  async registerJob(job: JobRegistration): Promise<void> {
    await this.request('ok', jobRequest(job));
  }

  /** The environment rank `rank` must start with (PMIx_server_setup_fork). */
  async fork(rank: number): Promise<[string, string][]> {
    const event = await this.request('env', forkRequest(rank));
    return event.kind === 'env' ? event.env : [];
  }

  fenceDone(seq: number, blobsHex: readonly string[]): void {
    this.send(fenceDoneRequest(seq, blobsHex));
  }

  fenceFail(seq: number): void {
    this.send(fenceFailRequest(seq));
  }

  /** Asks the helper to finalize libpmix and exit; kills it if it does not. */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    this.closing = true;
    this.send('quit\n');
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), QUIT_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private send(line: string): void {
    if (this.child.stdin!.writable) this.child.stdin!.write(line);
  }

  private request(expect: Waiter['expect'], line: string | undefined): Promise<HelperEvent> {
    return new Promise((resolve, reject) => {
      if (this.closing) return reject(new Error('the PMIx server helper has exited'));
      this.waiters.push({ expect, resolve, reject });
      if (line !== undefined) this.send(line);
    });
  }

  private receive(line: string): void {
    const event = parseHelperLine(line);
    if (!event) return this.lost(`the PMIx server helper said something unexpected: ${line.slice(0, 200)}`);
    switch (event.kind) {
      case 'fence':
        return this.handlers.fence(event.seq, event.hex);
      case 'connected':
        return this.handlers.connected(event.rank);
      case 'finalized':
        return this.handlers.finalized(event.rank);
      case 'abort':
        return this.handlers.abort(event.rank, event.status, event.message);
      case 'error': {
        const waiter = this.waiters.shift();
        if (waiter) return waiter.reject(new Error(event.message));
        return this.lost(`the PMIx server helper failed: ${event.message}`);
      }
      default: {
        const waiter = this.waiters.shift();
        if (waiter?.expect === event.kind) return waiter.resolve(event);
        waiter?.reject(new Error(`the PMIx server helper answered ${event.kind} instead of ${waiter.expect}`));
      }
    }
  }

  private lost(message: string): void {
    if (this.closing) return;
    this.closing = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(message));
    this.child.kill('SIGKILL');
    this.handlers.failed(message);
  }
}
