// A node daemon's tie to the controller (slurmd's registration and the controller's pings):
// register with the node's address and resources, then heartbeat at the interval the
// controller asks for. A controller that is down or restarting is retried quietly until it
// answers; one that no longer counts the node as up is registered with again.
import { CtldClient, type CallArgs } from '../../client/ctld-client.js';
import type { Logger } from '../../core/log.js';
import type { NodeRegistration, RegisterAnswer } from '../../protocol/node-messages.js';
import type { MessageAuth } from '../../net/message-auth.js';

const RETRY_MS = 1000;

export class ControllerLink {
  private client: CtldClient | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private complained = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly endpoint: { host: string; port: number },
    private readonly auth: MessageAuth,
    private readonly registration: () => NodeRegistration,
    private readonly log: Logger,
    /** What the controller answered a registration with (batch jobs it no longer expects here). */
    private readonly onRegistered: (answer: RegisterAnswer) => void,
  ) {}

  /** Runs until stop(): registers, heartbeats, reconnects. */
  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        this.client ??= await CtldClient.connect(this.endpoint, this.auth);
        const answer = await this.client.call<RegisterAnswer>('node-register', this.registration());
        this.onRegistered(answer);
        if (this.complained) this.log.info(`registered with the controller at ${this.endpoint.host}:${this.endpoint.port}`);
        this.complained = false;
        await this.heartbeats(answer.heartbeatSeconds);
      } catch (error) {
        this.client?.close();
        this.client = undefined;
        if (!this.complained && !this.stopped) this.log.error(`controller ${this.endpoint.host}:${this.endpoint.port}: ${(error as Error).message}; retrying`);
        this.complained = true;
        await this.sleep(RETRY_MS);
      }
    }
  }

  /** Calls the controller on this daemon's connection (e.g. to report a batch job's end). */
  call<T>(...[op, body]: CallArgs): Promise<T> {
    if (!this.client) return Promise.reject(new Error('not connected to the controller'));
    return this.client.call<T>(...([op, body] as CallArgs));
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    this.client?.close();
  }

  /** Heartbeats until the controller wants a registration again (or the connection fails). */
  private async heartbeats(seconds: number): Promise<void> {
    while (!this.stopped) {
      await this.sleep(seconds * 1000);
      if (this.stopped) return;
      const answer = await this.client!.call<{ reregister: boolean }>('node-heartbeat', { node: this.registration().node });
      if (answer.reregister) return;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = () => resolve();
      this.timer = setTimeout(resolve, ms);
    }).finally(() => clearTimeout(this.timer));
  }
}
