// Splits one task's PMI byte stream into messages. A connection starts in line mode (every
// client's first message is the PMI-1 style `cmd=init` line) and switches to frame mode when
// that line asks for PMI-2. Reads may split a message or carry several: nothing is assumed
// about chunk boundaries. Bytes map to string characters one to one (latin1), so values pass
// through unchanged and a frame's length counts characters.
import { PMI2_LEN_DIGITS } from './pmi2-wire.js';

export type WireMode = 'line' | 'frame';

export class MessageReader {
  private buffer = '';
  mode: WireMode = 'line';

  push(chunk: Buffer): void {
    this.buffer += chunk.toString('latin1');
  }

  /** The next whole message in the current mode (a line without its '\n', or a frame's payload). */
  next(): string | undefined {
    if (this.mode === 'line') {
      const end = this.buffer.indexOf('\n');
      if (end === -1) return undefined;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      return line;
    }
    if (this.buffer.length < PMI2_LEN_DIGITS) return undefined;
    const length = Number.parseInt(this.buffer.slice(0, PMI2_LEN_DIGITS).trim(), 10);
    if (!Number.isInteger(length) || length < 0) throw new PmiWireError(`bad PMI-2 length "${this.buffer.slice(0, PMI2_LEN_DIGITS)}"`);
    if (this.buffer.length < PMI2_LEN_DIGITS + length) return undefined;
    const payload = this.buffer.slice(PMI2_LEN_DIGITS, PMI2_LEN_DIGITS + length);
    this.buffer = this.buffer.slice(PMI2_LEN_DIGITS + length);
    return payload;
  }

  /** Bytes received but not yet part of a whole message. */
  get pending(): number {
    return this.buffer.length;
  }
}

/** A stream that is not PMI: the connection cannot go on. */
export class PmiWireError extends Error {}
