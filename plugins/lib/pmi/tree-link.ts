// One link of the PMI tree: a TCP connection carrying one JSON message per line. JSON escapes
// every control character in strings, so KVS values (any byte but '\n', held as latin1
// strings) pass through. Nagle is off: fences are small messages that someone waits for.
//
// Lines are bounded while they arrive: until the peer's hello (which carries the step's key)
// has been accepted, at HELLO_MAX characters and for HELLO_TIMEOUT_MS; then at TREE_MAX, which a
// fence's merged key-value set (every rank's puts) stays far below. Anyone who can reach the
// port may connect; one that passes a limit is closed like a peer that is not PMI.
//
// Not the daemons' JSON line link (src/net/json-link.ts): a plugin reaches the host only through
// the public plugin API, and this link has other bounds (a hello deadline, then trust) and no
// auth sealing, so it stays a small class of its own.
import type { Socket } from 'node:net';

/** The longest hello (a few hundred characters in practice). */
export const HELLO_MAX = 64 * 1024;
/** The longest message once the peer is known. */
export const TREE_MAX = 256 * 1024 * 1024;
/** How long a new connection may take to say hello. */
export const HELLO_TIMEOUT_MS = 10_000;

export interface LinkHandlers<In> {
  message(message: In): void;
  /** The peer closed the link, it broke, or it sent something that is not a message. */
  lost(): void;
}

export class TreeLink<In, Out> {
  private buffer = '';
  private closing = false;
  private wasLost = false;
  private handlers: LinkHandlers<In> | undefined;
  private readonly early: In[] = [];
  /** The longest line accepted now (characters); see trust(). */
  private limit: number;
  private helloTimer: NodeJS.Timeout | undefined;

  /** `known`: the peer is known already (a link this side opened); else it must say hello. */
  constructor(
    readonly socket: Socket,
    known = true,
  ) {
    this.limit = known ? TREE_MAX : HELLO_MAX;
    if (!known) this.helloTimer = setTimeout(() => this.socket.destroy(), HELLO_TIMEOUT_MS).unref();
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => this.receive(text));
    const lost = (): void => {
      if (this.closing) return;
      this.closing = true;
      this.wasLost = true;
      socket.destroy();
      this.handlers?.lost();
    };
    socket.once('close', () => clearTimeout(this.helloTimer));
    socket.on('end', lost);
    socket.on('close', lost);
    socket.on('error', lost);
  }

  /** The peer's hello was accepted: larger messages, no deadline. */
  trust(): void {
    this.limit = TREE_MAX;
    clearTimeout(this.helloTimer);
  }

  /** Who handles what arrives from now on (messages that came before are handed over first). */
  handle(handlers: LinkHandlers<In>): void {
    this.handlers = handlers;
    for (const message of this.early.splice(0)) handlers.message(message);
    if (this.wasLost) handlers.lost();
  }

  get open(): boolean {
    return !this.closing;
  }

  send(message: Out): void {
    if (!this.closing) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Closes the link from this side: `lost` is not called for it. */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.socket.end();
    this.socket.destroySoon();
  }

  private receive(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf('\n'); end !== -1 && !this.closing; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      let message: In;
      try {
        message = JSON.parse(line) as In;
      } catch {
        this.socket.destroy(); // not a PMI tree peer: 'close' reports the loss
        return;
      }
      if (this.handlers) this.handlers.message(message);
      else this.early.push(message);
    }
    // What is left waits for its newline: past the limit it never will be a message.
    if (this.buffer.length > this.limit) {
      this.buffer = '';
      this.socket.destroy();
    }
  }
}
