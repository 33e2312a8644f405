// One JSON message per line over a stream socket, in both directions, optionally sealed and
// opened by the auth plugin. Sealing may be asynchronous (a plugin hook), so outgoing
// messages are queued to leave in the order they were sent; incoming ones are opened in
// order too. A message that fails to open is dropped and reported, never handed on.
import type net from 'node:net';
import { lineReader } from '../protocol/rpc.js';
import type { MessageAuth, PeerIdentity } from './message-auth.js';

export interface JsonLinkOptions {
  /** Seal what is sent and open what arrives; undefined: plain messages (the Unix socket). */
  auth?: MessageAuth | undefined;
  onMessage(message: Record<string, unknown>, identity: PeerIdentity | undefined): void;
  /** A line that is not JSON, or a message whose credential was refused. */
  onRefused?(reason: string): void;
  onClose?(): void;
}

export class JsonLink {
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();
  private closedFlag = false;

  constructor(
    readonly socket: net.Socket,
    private readonly options: JsonLinkOptions,
  ) {
    const peer = `${socket.remoteAddress ?? 'local'}${socket.remotePort !== undefined ? `:${socket.remotePort}` : ''}`;
    socket.on(
      'data',
      lineReader(
        (message) => this.receive(message, peer),
        (line) => options.onRefused?.(`unreadable message (${line.length} bytes) from ${peer}`),
      ),
    );
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closedFlag = true;
      options.onClose?.();
    });
  }

  get closed(): boolean {
    return this.closedFlag || this.socket.destroyed;
  }

  /** Queues a message; resolves once it was handed to the socket. */
  send(message: object): Promise<void> {
    const auth = this.options.auth;
    this.sending = this.sending.then(async () => {
      const wire = auth ? await auth.seal(message) : message;
      if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(wire)}\n`);
    });
    return this.sending;
  }

  end(): void {
    void this.sending.then(() => this.socket.end());
  }

  destroy(): void {
    this.socket.destroy();
  }

  private receive(message: unknown, peer: string): void {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.options.onRefused?.(`malformed message from ${peer}`);
      return;
    }
    const auth = this.options.auth;
    if (!auth) {
      this.options.onMessage(message as Record<string, unknown>, undefined);
      return;
    }
    this.receiving = this.receiving.then(async () => {
      const opened = await auth.open(message as Record<string, unknown>, peer).catch((error: Error) => ({ ok: false as const, reason: error.message }));
      if (opened.ok) this.options.onMessage(opened.message, opened.identity);
      else this.options.onRefused?.(opened.reason);
    });
  }
}
