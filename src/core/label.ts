// srun --label: each output line of a task gets "<task id>: ", right-aligned to the width
// of the largest task id (src/api/step_io.c _wid, src/common/write_labelled_message.c).
// Where lines are cut matters too: slurmstepd sends whole lines of at most 1024 bytes
// unless -u (src/slurmd/slurmstepd/io.c), and srun ends every cut piece with a newline.

/** Bytes in one I/O message between slurmstepd and srun (MAX_MSG_LEN in io_hdr.h). */
export const MAX_MSG_LEN = 1024;

const NEWLINE = 0x0a;

/** Digits of the largest task id: 1 for up to 10 tasks, 2 for 11 to 100, 3 for 101 to 1000. */
export function labelWidth(ntasks: number): number {
  return String(Math.max(0, ntasks - 1)).length;
}

/** The label of one task: " 3: " among 12 tasks, "0: " among 4. */
export function labelPrefix(taskId: number, ntasks: number): string {
  return `${String(taskId).padStart(labelWidth(ntasks))}: `;
}

/** One message as srun writes it: every line labelled, and (when labelled) a last partial line ended with "\n". */
export function labelMessage(message: Buffer, prefix: string): Buffer {
  const parts: Buffer[] = [];
  const label = Buffer.from(prefix);
  for (let start = 0; start < message.length; ) {
    const newline = message.indexOf(NEWLINE, start);
    const end = newline < 0 ? message.length : newline + 1;
    parts.push(label, message.subarray(start, end));
    // A labelled partial line is ended so the next label starts a line; unlabelled output
    // passes through byte for byte.
    if (newline < 0 && prefix !== '') parts.push(Buffer.from('\n'));
    start = end;
  }
  return Buffer.concat(parts);
}

/**
 * Labels one task's stdout or stderr as it streams. By default whole lines are passed on
 * and a line of 1024 bytes or more is cut into 1024-byte pieces (each labelled and ended);
 * with `unbuffered` (srun -u) every read is passed on at once, so partial lines get labels.
 */
export class TaskOutputLabeller {
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly prefix: string,
    private readonly unbuffered = false,
  ) {}

  /** Labelled output for a chunk the task wrote; may be empty while a line is incomplete. */
  write(chunk: Buffer): Buffer {
    if (this.unbuffered) return this.messages(chunk);
    this.pending = Buffer.concat([this.pending, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      const newline = this.pending.indexOf(NEWLINE);
      const lineLength = newline < 0 ? this.pending.length : newline + 1;
      // A line that cannot fit one message goes out in 1024-byte pieces.
      if (lineLength >= MAX_MSG_LEN) out.push(this.take(MAX_MSG_LEN));
      else if (newline >= 0) out.push(this.take(lineLength));
      else break;
    }
    return Buffer.concat(out);
  }

  /** What is left when the task closes the stream: the last partial line, ended with "\n". */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return this.messages(rest);
  }

  private take(length: number): Buffer {
    const piece = this.pending.subarray(0, length);
    this.pending = this.pending.subarray(length);
    return labelMessage(piece, this.prefix);
  }

  private messages(data: Buffer): Buffer {
    const out: Buffer[] = [];
    for (let i = 0; i < data.length; i += MAX_MSG_LEN) {
      out.push(labelMessage(data.subarray(i, i + MAX_MSG_LEN), this.prefix));
    }
    return Buffer.concat(out);
  }
}
