// Task output as srun passes it on: whole lines by default (so lines of different tasks never
// mix), each with its `--label` prefix; with -u, bytes as they come.
import type { Writable } from 'node:stream';

export class TaskLineWriter {
  private pending: Buffer | undefined;

  constructor(
    private readonly out: Writable,
    private readonly prefix: string,
    private readonly unbuffered: boolean,
  ) {}

  write(chunk: Buffer): void {
    if (this.unbuffered) {
      this.out.write(this.prefix === '' ? chunk : this.prefixLines(chunk, false));
      return;
    }
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const lastNewline = data.lastIndexOf(10);
    if (lastNewline === -1) {
      this.pending = data;
      return;
    }
    const complete = data.subarray(0, lastNewline + 1);
    this.pending = lastNewline + 1 < data.length ? data.subarray(lastNewline + 1) : undefined;
    this.out.write(this.prefix === '' ? complete : this.prefixLines(complete, true));
  }

  /** At the task's end: a last line without a newline is passed on as it is, like srun. */
  flush(): void {
    if (!this.pending) return;
    const rest = this.pending;
    this.pending = undefined;
    this.out.write(this.prefix === '' ? rest : Buffer.concat([Buffer.from(this.prefix), rest]));
  }

  private atLineStart = true;

  private prefixLines(data: Buffer, wholeLines: boolean): Buffer {
    const parts: Buffer[] = [];
    const prefix = Buffer.from(this.prefix);
    let start = 0;
    while (start < data.length) {
      if (wholeLines || this.atLineStart) parts.push(prefix);
      const nl = data.indexOf(10, start);
      const end = nl === -1 ? data.length : nl + 1;
      parts.push(data.subarray(start, end));
      this.atLineStart = nl !== -1;
      start = end;
    }
    return Buffer.concat(parts);
  }
}
