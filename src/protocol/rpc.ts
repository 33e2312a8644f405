// The controller's messages (DESIGN.md §2): one JSON object per line over a stream socket
// (a Unix socket in the state directory; TCP for daemons). Every message carries the
// protocol version; a peer speaking another version is refused with a clear answer rather
// than misread. Requests carry an id; the answer to a request carries the same id.
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../core/protocol-version.js';

export interface RpcRequest {
  v: number;
  id: number;
  op: string;
  body?: unknown;
  /**
   * A watcher's question (tsrestd's dashboard polling): it neither restarts the controller's
   * idle clock nor, when all a connection sends, keeps the controller from its idle exit.
   */
  watch?: true;
}

export interface RpcErrorBody {
  message: string;
  /** Slurm errno name, when the failure has one. */
  code?: string;
  /** Exit status a command should end with. */
  exitCode?: number;
}

export type RpcResponse =
  | { v: number; id: number; ok: true; body?: unknown }
  | { v: number; id: number; ok: false; error: RpcErrorBody };

export function encodeMessage(message: RpcRequest | RpcResponse): string {
  return `${JSON.stringify(message)}\n`;
}

export function request(id: number, op: string, body?: unknown, watch = false): RpcRequest {
  return { v: TSLURM_PROTOCOL_VERSION, id, op, body, ...(watch && { watch: true as const }) };
}

export function answer(id: number, body?: unknown): RpcResponse {
  return { v: TSLURM_PROTOCOL_VERSION, id, ok: true, body };
}

export function failure(id: number, error: RpcErrorBody): RpcResponse {
  return { v: TSLURM_PROTOCOL_VERSION, id, ok: false, error };
}

/** The refusal for a message of a version this build cannot read. */
export function versionProblem(v: unknown): string | undefined {
  if (typeof v === 'number' && isSupportedProtocolVersion(v)) return undefined;
  const theirs = typeof v === 'number' ? `${v >> 8}.${v & 0xff}` : 'none';
  const ours = `${TSLURM_PROTOCOL_VERSION >> 8}.${TSLURM_PROTOCOL_VERSION & 0xff}`;
  return `Incompatible protocol version (peer ${theirs}, this build ${ours})`;
}

/** Size limits of a {@link lineReader}, checked as bytes arrive (before decoding or auth). */
export interface LineLimit {
  /** The longest line accepted now, in bytes without its newline; may grow (a peer authenticated). */
  maxBytes(): number;
  /** The line in progress passed `limit`: the reader has dropped it and reads nothing more. */
  onTooLong(bytes: number, limit: number): void;
  /** The bytes held for an unfinished line changed by `delta` (for a budget shared by connections). */
  onHeld?(delta: number): void;
}

/** A reader: feed it chunks; `held` bytes wait for their newline; `stop()` drops them for good. */
export interface LineFeed {
  (chunk: Buffer): void;
  readonly held: number;
  stop(): void;
}

/**
 * Splits a byte stream into lines and hands each parsed message on. A line that is not JSON
 * is reported once through `onBad` and skipped. With `limit`, a line longer than its bytes
 * stops the reader (see LineLimit), however the bytes were cut.
 */
export function lineReader(onMessage: (message: unknown) => void, onBad: (line: string) => void, limit?: LineLimit): LineFeed {
  // The bytes of the line not yet ended. Only each new chunk is searched for the newline
  // (a 10,000-job answer arrives in ~130 chunks; rescanning all of it each time cost 0.5 s),
  // and bytes are decoded once the line is whole, so no character is split between chunks.
  let parts: Buffer[] = [];
  let held = 0;
  let stopped = false;
  const hold = (delta: number): void => {
    held += delta;
    if (delta !== 0) limit?.onHeld?.(delta);
  };
  const stop = (): void => {
    stopped = true;
    parts = [];
    hold(-held);
  };
  // False once the line in progress would pass the limit: then it is dropped and reading stops.
  const fits = (more: number): boolean => {
    const max = limit?.maxBytes() ?? Infinity;
    if (held + more <= max) return true;
    const bytes = held + more;
    stop();
    limit!.onTooLong(bytes, max);
    return false;
  };
  const feed = (chunk: Buffer): void => {
    if (stopped) return;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      if (!fits(newline - start)) return;
      parts.push(chunk.subarray(start, newline));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      hold(-held);
      start = newline + 1;
      if (line.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        onBad(line);
        parsed = undefined;
      }
      if (parsed !== undefined) onMessage(parsed);
      if (stopped) return;
    }
    if (start >= chunk.length || !fits(chunk.length - start)) return;
    // A short tail is copied, so it does not keep the rest of its chunk alive.
    parts.push(start === 0 ? chunk : Buffer.from(chunk.subarray(start)));
    hold(chunk.length - start);
  };
  // defineProperty, not Object.assign: assign would copy the getter's value once.
  return Object.defineProperties(feed, { stop: { value: stop }, held: { get: () => held } }) as LineFeed;
}
