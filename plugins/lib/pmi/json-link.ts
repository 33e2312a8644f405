// One link of the PMI tree: a TCP connection carrying one JSON message per line. JSON escapes
// every control character in strings, so KVS values (any byte but '\n', held as latin1
// strings) pass through. Nagle is off: fences are small messages that someone waits for.
import type { Socket } from 'node:net';

export interface LinkHandlers<In> {
  message(message: In): void;
  /** The peer closed the link, it broke, or it sent something that is not a message. */
  lost(): void;
}

export class JsonLink<In, Out> {
  private buffer = '';
  private closing = false;
  private wasLost = false;
  private handlers: LinkHandlers<In> | undefined;
  private readonly early: In[] = [];

  constructor(readonly socket: Socket) {
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
    socket.on('end', lost);
    socket.on('close', lost);
    socket.on('error', lost);
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
  }
}
