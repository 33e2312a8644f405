// The controller's side of the embedded step host (stepd/node-daemon/local-host.ts): the
// batch steps of emulated nodes go to one `tsstepd --embedded` on a Unix socket in the state
// directory, started on demand — detached, so it outlives this controller, with its log in
// tsstepd.log and a pipe on which it says `ready`, `raced` or why it could not start (as the
// controller itself is started, client/start-step-host.ts). One connection serves every
// request; a lost one is opened again, and a host that went away is started again.
import type { Logger } from '../core/log.js';
import { ConnectionLost, CtldClient, type CallArgs } from '../client/ctld-client.js';
import { startStepHost } from '../client/start-step-host.js';
import { isStepHost, localHostPaths } from '../stepd/node-daemon/local-host-paths.js';
import type { BatchJobsAnswer } from '../stepd/node-daemon/batch-handlers.js';

export class LocalStepHost {
  private client: Promise<{ client: CtldClient; jobs: BatchJobsAnswer }> | undefined;
  private readonly paths: ReturnType<typeof localHostPaths>;

  constructor(
    private readonly stateDir: string,
    /** The cluster file the controller runs with, for the host (undefined: the built-in one). */
    private readonly clusterFile: string | undefined,
    private readonly log: Logger,
  ) {
    this.paths = localHostPaths(stateDir);
  }

  /** Where the host keeps the job directories (and results not yet delivered). */
  get spool(): string {
    return this.paths.spool;
  }

  /** Sends a request, starting the host when none serves; resolves to its answer and the host's pid. */
  async send<T>(...args: CallArgs): Promise<{ answer: T; pid: number }> {
    return this.request<T>(true, args);
  }

  /** Sends a request to a running host only (a kill or signal has nothing to do without one). */
  async sendIfRunning<T>(...args: CallArgs): Promise<{ answer: T; pid: number }> {
    return this.request<T>(false, args);
  }

  /** What a running host runs and holds (for a restarted controller); undefined when none runs. */
  async attach(): Promise<BatchJobsAnswer | undefined> {
    try {
      const { client } = await this.connect(false);
      const jobs = await client.call<BatchJobsAnswer>('batch-jobs');
      return jobs;
    } catch {
      return undefined;
    }
  }

  /** Whether `pid` is still a live step host. */
  alive(pid: number): boolean {
    return isStepHost(pid);
  }

  close(): void {
    void this.client?.then(({ client }) => client.close(), () => {});
    this.client = undefined;
  }

  private async request<T>(start: boolean, [op, body]: CallArgs): Promise<{ answer: T; pid: number }> {
    for (let attempt = 0; ; attempt++) {
      const { client, jobs } = await this.connect(start);
      try {
        const answer = await client.call<T>(...([op, body] as CallArgs));
        return { answer, pid: jobs.pid };
      } catch (error) {
        // The host went away (its idle exit, or killed) between two requests: once more, on a new one.
        if (!(error instanceof ConnectionLost) || attempt > 0) throw error;
        this.close();
      }
    }
  }

  private connect(start: boolean): Promise<{ client: CtldClient; jobs: BatchJobsAnswer }> {
    const connecting = (this.client ??= (async () => {
      let client: CtldClient;
      try {
        client = await CtldClient.connect(this.paths.socket);
      } catch (error) {
        if (!start) throw error;
        await this.start();
        client = await CtldClient.connect(this.paths.socket);
      }
      return { client, jobs: await client.call<BatchJobsAnswer>('batch-jobs') };
    })());
    connecting.catch(() => {
      if (this.client === connecting) this.client = undefined;
    });
    return connecting;
  }

  /** Starts `tsstepd --embedded` and waits until it serves (or another one does). */
  private async start(): Promise<void> {
    const said = await startStepHost(this.stateDir, this.clusterFile);
    this.log.verbose(`step host ${said === 'raced' ? 'found' : 'started'} for ${this.stateDir}`);
  }
}
