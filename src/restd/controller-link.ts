// tsrestd's way to the controller, through the client the commands use (client/ctld-client.ts).
// A user's request goes over a connection opened when needed (starting the controller on
// demand, as tsbatch does when none runs) and closed again a moment after the last answer, so
// that tsrestd holds nothing open on an idle controller: a controller started on demand still
// reaches its idle exit with tsrestd attached, and the next request starts one again. The
// dashboard's polls go over a watcher's connection of their own (`watch`): they never start a
// controller and do not keep one from its idle exit; with none running they fail, as
// slurmrestd's calls fail with slurmctld down.
import { ConnectionLost, connectController, type CallArgs, type ConnectOptions, type CtldClient } from '../client/ctld-client.js';

/** Requests that only read, safe to send again. */
const REPEATABLE = new Set<string>(['ping', 'jobs', 'jobs_since', 'cluster_info', 'resv_list', 'steps']);
/** How long a user's connection stays open after its last answer, for the requests that follow. */
const LINGER_MS = 1000;

export class ControllerLink {
  private readonly user: Channel;
  private readonly watcher: Channel;

  constructor(options: Omit<ConnectOptions, 'autostart'>) {
    this.user = new Channel({ ...options, autostart: true }, LINGER_MS);
    this.watcher = new Channel({ ...options, autostart: false }, undefined);
  }

  /** Sends one request; a refusal is the client's ControllerError (with the controller's errno). */
  call<T>(...args: CallArgs): Promise<T> {
    return this.user.send<T>(args, false);
  }

  /** A watcher's read (the dashboard's poll): no controller is started for it, none kept up by it. */
  watch<T>(...args: CallArgs): Promise<T> {
    return this.watcher.send<T>(args, true);
  }

  close(): void {
    this.user.close();
    this.watcher.close();
  }
}

class Channel {
  private client: Promise<CtldClient> | undefined;
  private inFlight = 0;
  private lingering: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ConnectOptions,
    /** Close the connection this long after the last answer; undefined: keep it. */
    private readonly lingerMs: number | undefined,
  ) {}

  async send<T>(args: CallArgs, watch: boolean): Promise<T> {
    clearTimeout(this.lingering);
    this.inFlight++;
    try {
      return await this.attempt<T>(args, watch);
    } finally {
      if (--this.inFlight === 0 && this.lingerMs !== undefined) this.lingering = setTimeout(() => this.close(), this.lingerMs).unref();
    }
  }

  close(): void {
    clearTimeout(this.lingering);
    void this.client?.then((client) => client.close(), () => {});
    this.client = undefined;
  }

  private async attempt<T>(args: CallArgs, watch: boolean): Promise<T> {
    const ask = (client: CtldClient) => (watch ? client.watch<T>(...args) : client.call<T>(...args));
    let client = await this.connected();
    // Gone since the last request (stopped, idle-exited): a new controller gets this one.
    if (client.lost) {
      this.forget(client);
      client = await this.connected();
    }
    try {
      return await ask(client);
    } catch (error) {
      if (!(error instanceof ConnectionLost)) throw error;
      this.forget(client);
      // The controller went away: a question is asked once more of a new one; a submission
      // or a cancel is not, since the old controller may have acted on it.
      if (!REPEATABLE.has(args[0])) throw error;
      return ask(await this.connected());
    }
  }

  private connected(): Promise<CtldClient> {
    if (!this.client) {
      const opening = connectController(this.options);
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
