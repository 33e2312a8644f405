// A step launched through tsstepd node daemons (DESIGN.md §2, daemon mode): what tsrun sends
// (one request for the whole step, fanned out through a tree of daemons as Slurm's TreeWidth
// does), and what each node's daemon then says on its own I/O connection back to tsrun
// (srun's I/O and exit messages). Plain data; the launch request is sealed by the auth plugin
// like every TCP message, and each I/O connection is opened with a sealed hello carrying the
// step's key.
import type { LaunchRequest, RemoteLaunch } from './stepd-messages.js';
import type { TaskExit } from '../core/exit-status.js';
import type { NodeUsage } from './step-usage.js';

// The launch request and its parts are described in protocol/stepd-messages.ts.
export type { LaunchRequest, RemoteLaunch };
export type RemoteNode = RemoteLaunch['nodes'][number];

export interface NodeLaunchResult {
  node: string;
  ok: boolean;
  error?: string;
}

/** Node → tsrun, on the I/O connection. */
export type NodeToTsrun =
  | { t: 'hello'; key: string; nodeId: number }
  | { t: 'out' | 'err'; k: number; d: string }
  | { t: 'exit'; exit: TaskExit }
  /** `k`: the task on whose behalf the line is printed (labelled with it under -l). */
  | { t: 'derr'; line: string; k?: number }
  | { t: 'abort'; message: string; error: boolean }
  | { t: 'usage'; usage: NodeUsage; final: boolean }
  | { t: 'done' };

/** tsrun → node. */
export type TsrunToNode = { t: 'in'; k: number; d: string } | { t: 'eof'; k: number } | { t: 'sig'; s: NodeJS.Signals };

/**
 * Slurm's forwarding split: the nodes after the sender are cut into at most `width`
 * consecutive spans of near-equal size; the first node of each span is sent the span.
 */
export function forwardSpans(start: number, end: number, width: number): Array<[number, number]> {
  const count = end - start;
  if (count <= 0) return [];
  const spans = Math.min(width, count);
  const out: Array<[number, number]> = [];
  let at = start;
  for (let i = 0; i < spans; i++) {
    const size = Math.floor(count / spans) + (i < count % spans ? 1 : 0);
    out.push([at, at + size]);
    at += size;
  }
  return out;
}
