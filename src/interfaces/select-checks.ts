// The invariants the Resource Selection Plugin API asks a select plugin to keep, checked by the
// facade after each hook (STYLE.md §3.4: the host validates hook outputs before using them).
// Each check returns what is wrong, in words, or undefined.
import { Bitstr } from '../core/bitstr.js';
import type { job_resources_t } from '../plugin-api/records.js';
import { SLURM_SUCCESS } from '../plugin-api/common.js';
import type { SelectJobTestArgs } from '../plugin-api/select.js';

/** Problems with a select_p_job_test answer, given the candidates the host offered. */
export function jobTestProblem(result: unknown, args: SelectJobTestArgs, candidates: Bitstr): string | undefined {
  if (typeof result !== 'object' || result === null || typeof (result as { rc?: unknown }).rc !== 'number') {
    return 'returned no { rc } result';
  }
  const { rc, nodes, job_resources, preempted } = result as { rc: number; nodes?: unknown; job_resources?: job_resources_t; preempted?: unknown };
  if (rc !== SLURM_SUCCESS) return nodes === undefined ? undefined : `returned nodes with the failure rc ${rc}`;
  if (preempted !== undefined) {
    const offered = new Set((args.preemptee_candidates ?? []).map((job) => job.job_id));
    if (!Array.isArray(preempted) || preempted.some((id) => !offered.has(id as number))) {
      return 'named jobs to preempt that were not among the preemption candidates';
    }
  }
  if (!isBitstr(nodes) || nodes.size !== candidates.size) return `returned no node bitmap of ${candidates.size} bits`;
  if (!within(nodes, candidates)) return `returned node index ${firstOutside(nodes, candidates)}, which is not among the candidate nodes`;
  const req = args.job.details.req_node_bitmap;
  if (req && !within(req, nodes)) return `left out required node index ${firstOutside(req, nodes)}`;
  const count = nodes.setCount();
  const max = args.max_nodes > 0 ? args.max_nodes : Infinity;
  if (count < args.min_nodes || count > max) {
    return `returned ${count} nodes, outside the ${args.min_nodes}-${args.max_nodes > 0 ? args.max_nodes : 'any'} asked for`;
  }
  return job_resources === undefined ? undefined : jobResourcesProblem(job_resources, nodes);
}

/** Problems with a job_resources_t describing an allocation on `nodes`. */
export function jobResourcesProblem(res: job_resources_t, nodes: Bitstr): string | undefined {
  if (!isBitstr(res.node_bitmap)) return 'job_resources has no node_bitmap';
  const count = res.node_bitmap.setCount();
  if (res.nhosts !== count) return `job_resources.nhosts is ${res.nhosts} but node_bitmap has ${count} nodes`;
  if (!sameBits(res.node_bitmap, nodes)) return 'job_resources.node_bitmap differs from the nodes chosen';
  for (const field of ['cpus', 'memory_allocated', 'gres_allocated'] as const) {
    const length = Array.isArray(res[field]) ? res[field].length : -1;
    if (length !== res.nhosts) return `job_resources.${field} has ${length} entries for ${res.nhosts} hosts`;
  }
  const total = res.cpus.reduce((a, b) => a + b, 0);
  if (res.ncpus !== total) return `job_resources.ncpus is ${res.ncpus} but cpus add up to ${total}`;
  return undefined;
}

function isBitstr(value: unknown): value is Bitstr {
  return value instanceof Bitstr || (typeof value === 'object' && value !== null && typeof (value as Bitstr).test === 'function');
}

// Bitmaps of the host's own Bitstr class are compared a word at a time; a plugin bundle may
// bring its own copy of the class, whose private words only its public methods can read.
function within(a: Bitstr, b: Bitstr): boolean {
  if (a instanceof Bitstr && b instanceof Bitstr && a.size === b.size) return a.isSubsetOf(b);
  return firstOutside(a, b) === undefined;
}

function sameBits(a: Bitstr, b: Bitstr): boolean {
  if (a instanceof Bitstr && b instanceof Bitstr) return a.equal(b);
  return within(a, b) && within(b, a);
}

// The first bit set in `a` but not in `b`.
function firstOutside(a: Bitstr, b: Bitstr): number | undefined {
  for (let i = a.nextSet(0); i >= 0; i = a.nextSet(i + 1)) if (i >= b.size || !b.test(i)) return i;
  return undefined;
}
