// What `scontrol -d show job` adds to a job (protocol/job-view.ts JobDetails): its steps'
// highest exit status and, per allocated node, the CPU numbers, memory and generic resources
// it was given, as slurmctld reports them from the job's resources.
import type { gres_spec_t } from '../plugin-api/records.js';
import type { JobDetails } from '../protocol/job-view.js';
import type { Controller } from './controller.js';
import { cpuIdText } from './cpu-ids.js';
import type { CtldJob } from './job.js';

export function jobDetails(ctl: Controller, job: CtldJob): JobDetails {
  const res = job.record.job_resrcs;
  const derivedExitStatus = job.derivedExitStatus ?? 0;
  if (res === null) return { derivedExitStatus, gres: null, nodes: null };
  const names = ctl.table.namesFromBitmap(res.node_bitmap);
  const nodes = names.map((name, k) => ({
    name,
    cpuIds: job.cpuIds?.[name] ?? '',
    memory: res.memory_allocated[k] ?? 0,
    gres: (res.gres_allocated[k] ?? []).map(nodeGresText).join(','),
  }));
  return { derivedExitStatus, gres: totalGres(res.gres_allocated), nodes };
}

// `gpu:a100:2(IDX:0-1)`, as slurmctld prints a node's share of the job's gres.
function nodeGresText(g: gres_spec_t): string {
  const indices = g.indices && g.indices.length > 0 ? `(IDX:${cpuIdText(g.indices)})` : '';
  return `${gresName(g)}:${g.count}${indices}`;
}

// `gpu:4`: the job's gres summed over its nodes, or null when it has none.
function totalGres(perNode: readonly (readonly gres_spec_t[])[]): string | null {
  const sums = new Map<string, number>();
  for (const list of perNode) for (const g of list) sums.set(gresName(g), (sums.get(gresName(g)) ?? 0) + g.count);
  return sums.size === 0 ? null : [...sums].map(([name, count]) => `${name}:${count}`).join(',');
}

function gresName(g: gres_spec_t): string {
  return g.type === undefined ? g.name : `${g.name}:${g.type}`;
}
