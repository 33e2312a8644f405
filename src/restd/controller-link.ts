// tsrestd's way to the controller: one connection through the client the commands use
// (client/ctld-client.ts), opened on the first request (starting the controller on demand, as
// tsbatch does when none runs) and opened again after the controller went away, so a
// restarted or idle-exited controller costs the next request a reconnect, not an error.
import { ConnectionLost, connectController, type CallArgs, type ConnectOptions, type CtldClient } from '../client/ctld-client.js';

/** Requests that only read, safe to send again. */
const REPEATABLE = new Set<string>(['ping', 'jobs', 'cluster_info', 'resv_list', 'steps']);

export class ControllerLink {
  private client: Promise<CtldClient> | undefined;

  constructor(private readonly options: Omit<ConnectOptions, 'autostart'>) {}

  /** Sends one request; a refusal is the client's ControllerError (with the controller's errno). */
  async call<T>(...args: CallArgs): Promise<T> {
    let client = await this.connected();
    // Gone since the last request (stopped, idle-exited): a new controller gets this one.
    if (client.lost) {
      this.forget(client);
      client = await this.connected();
    }
    try {
      return await client.call<T>(...args);
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      this.forget(client);
      // The controller went away: a question is asked once more of a new one; a submission
      // or a cancel is not, since the old controller may have acted on it.
      if (!REPEATABLE.has(args[0])) throw error;
      return (await this.connected()).call<T>(...args);
    }
  }

  close(): void {
    void this.client?.then((client) => client.close(), () => {});
    this.client = undefined;
  }

  private connected(): Promise<CtldClient> {
    if (!this.client) {
      const opening = connectController({ ...this.options, autostart: true });
      this.client = opening;
      // A failed attempt is not kept: the next request tries again.
      opening.catch(() => {
        if (this.client === opening) this.client = undefined;
      });
    }
    return this.client;
  }

  private forget(client: CtldClient): void {
    client.close();
    this.client = undefined;
  }
}
