// What tsrun sends to task 0 of a --pty step: its stdin, escaped for the pty helper
// (native/pty/tspty.c), and its new window size whenever its terminal changes (SIGWINCH), as
// srun passes a resize on to the task's terminal. A 0xFF byte goes as 0xFF 0xFF; a size as
// 0xFF 'W' ROWS COLS, two big-endian bytes each.
const ESCAPE = 0xff;
const RESIZE = 0x57; // 'W'

/** The bytes of `chunk`, 0xFF doubled. */
export function escapePtyInput(chunk: Buffer): Buffer {
  if (!chunk.includes(ESCAPE)) return chunk;
  const out: number[] = [];
  for (const byte of chunk) {
    out.push(byte);
    if (byte === ESCAPE) out.push(ESCAPE);
  }
  return Buffer.from(out);
}

/** The frame telling the helper the terminal's new size. */
export function ptyResizeFrame(rows: number, cols: number): Buffer {
  return Buffer.from([ESCAPE, RESIZE, (rows >> 8) & 0xff, rows & 0xff, (cols >> 8) & 0xff, cols & 0xff]);
}
