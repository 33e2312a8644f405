// One JSON message per line over a stream socket, in both directions, optionally sealed and
// opened by the auth plugin. Sealing may be asynchronous (a plugin hook), so outgoing
// messages are queued to leave in the order they were sent; incoming ones are opened in
// order too. A message that fails to open is dropped and reported, never handed on.
//
// Incoming lines are bounded as they arrive (input-limits.ts): the first message of a link may
// be smaller than the later ones, and until a message is accepted (a verified credential on
// TCP, any message on the Unix socket) the bytes waiting for a newline count against the
// daemon's budget for unauthenticated peers. A peer that passes a limit is cut off.
import type net from 'node:net';
import { lineReader } from '../protocol/rpc.js';
import type { MessageAuth, PeerIdentity } from './message-auth.js';
import type { InputBudget } from './input-budget.js';
import { clientLimits, type InputLimits } from './input-limits.js';

export interface JsonLinkOptions {
  /** Seal what is sent and open what arrives; undefined: plain messages (the Unix socket). */
  auth?: MessageAuth | undefined;
  onMessage(message: Record<string, unknown>, identity: PeerIdentity | undefined): void;
  /** A line that is not JSON, or a message whose credential was refused. */
  onRefused?(reason: string): void;
  onClose?(): void;
  /** Line limits; default: a client's (only the ceiling, from the environment). */
  limits?: Pick<InputLimits, 'maxMessageBytes' | 'maxFirstMessageBytes'>;
  /** Shared by the links of one daemon: what unauthenticated peers hold together. */
  budget?: InputBudget;
  /** The peer was cut off (a line too long, a budget passed); the link is closed right after. */
  onCut?(reason: string): void;
  /** The last words to a peer cut off (unsealed), if any: it stops reading, sends them and closes. */
  farewell?(reason: string): object | undefined;
  /** The first message accepted on this link. */
  onEstablished?(): void;
}

/** How long a peer cut off has to read the farewell before its socket is destroyed. */
const FAREWELL_MS = 2000;

export class JsonLink {
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();
  private closedFlag = false;
  private establishedFlag = false;
  private cutOff = false;

  constructor(
    readonly socket: net.Socket,
    private readonly options: JsonLinkOptions,
  ) {
    const peer = `${socket.remoteAddress ?? 'local'}${socket.remotePort !== undefined ? `:${socket.remotePort}` : ''}`;
    const limits = options.limits ?? clientLimits();
    const budget = options.budget;
    const cut = (why: string): void => {
      if (this.cutOff) return;
      this.cutOff = true;
      feed.stop();
      options.onCut?.(`closing connection from ${peer}: ${why}`);
      const last = options.farewell?.(why);
      if (!last) return void this.socket.destroy();
      // Nothing more is read; the peer gets a moment to read why before the socket goes.
      this.socket.pause();
      this.socket.end(`${JSON.stringify(last)}\n`);
      setTimeout(() => this.socket.destroy(), FAREWELL_MS).unref();
    };
    const holder = { cut };
    const feed = lineReader(
      (message) => this.receive(message, peer),
      (line) => options.onRefused?.(`unreadable message (${line.length} bytes) from ${peer}`),
      {
        maxBytes: () => (this.establishedFlag ? limits.maxMessageBytes : limits.maxFirstMessageBytes),
        onTooLong: (bytes, limit) =>
          cut(`a message of more than ${limit} bytes${this.establishedFlag ? '' : ' before authentication'} (${bytes} so far)`),
        onHeld: (delta) => {
          if (budget && !this.establishedFlag) budget.add(holder, delta);
        },
      },
    );
    socket.on('data', feed);
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closedFlag = true;
      budget?.release(holder);
      options.onClose?.();
    });
    this.release = () => budget?.release(holder);
  }

  private readonly release: () => void;

  /** Whether a message was accepted on this link (its peer authenticated, on TCP). */
  get established(): boolean {
    return this.establishedFlag;
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
      this.accepted();
      this.options.onMessage(message as Record<string, unknown>, undefined);
      return;
    }
    this.receiving = this.receiving.then(async () => {
      if (this.cutOff) return; // nothing a peer that was cut off sent is acted on
      const opened = await auth.open(message as Record<string, unknown>, peer).catch((error: Error) => ({ ok: false as const, reason: error.message }));
      if (opened.ok) {
        this.accepted();
        this.options.onMessage(opened.message, opened.identity);
      } else this.options.onRefused?.(opened.reason);
    });
  }

  // From now on the peer is known: larger lines, and no longer on the unauthenticated budget.
  private accepted(): void {
    if (this.establishedFlag) return;
    this.establishedFlag = true;
    this.release();
    this.options.onEstablished?.();
  }
}
