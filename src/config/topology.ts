// A node's CPU layout from whichever of cpus/sockets/cores/threads the file gives, inferred
// and checked the way slurm.conf's NodeName lines are (src/common/read_config.c,
// _parse_nodename): missing Sockets = CPUs / (CoresPerSocket * ThreadsPerCore), missing CPUs
// = the product, and CPUs must equal Sockets, Sockets*Cores or Sockets*Cores*Threads.
import type { NodeEntry } from './schema.js';

export interface Topology {
  cpus: number;
  sockets: number;
  coresPerSocket: number;
  threadsPerCore: number;
}

export function topologyOf(entry: Pick<Partial<NodeEntry>, 'cpus' | 'sockets' | 'cores' | 'threads'>): Topology {
  const coresPerSocket = entry.cores ?? 1;
  const threadsPerCore = entry.threads ?? 1;
  const perSocket = coresPerSocket * threadsPerCore;
  const sockets = entry.sockets ?? (entry.cpus === undefined ? 1 : Math.max(1, Math.floor(entry.cpus / perSocket)));
  const cpus = entry.cpus ?? sockets * coresPerSocket * threadsPerCore;
  return { cpus, sockets, coresPerSocket, threadsPerCore };
}

export const MAX_NODE_CPUS = 0xffff;

/** Why the layout is inconsistent, or undefined when Slurm would accept it. */
export function topologyProblem(t: Topology): string | undefined {
  const perSocket = t.sockets * t.coresPerSocket;
  const total = perSocket * t.threadsPerCore;
  // A node's CPU count is 16 bits in Slurm, however it is made up.
  if (total > MAX_NODE_CPUS) return `sockets*cores*threads (${total}) is more than ${MAX_NODE_CPUS} CPUs`;
  if (t.cpus === t.sockets || t.cpus === perSocket || t.cpus === total) return undefined;
  return (
    `cpus ${t.cpus} match no sockets (${t.sockets}), sockets*cores (${perSocket}) ` +
    `or sockets*cores*threads (${total})`
  );
}
