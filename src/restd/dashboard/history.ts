// The last hour of the cluster's load, one sample per poll of the controller, kept in memory
// (a restart of tsrestd starts a new hour): what the page's utilisation and queue chart draws.
import type { DashJob, DashNode } from './view.js';

export interface LoadSample {
  /** Unix milliseconds. */
  t: number;
  cpus: number;
  allocCpus: number;
  /** MB. */
  memory: number;
  allocMemory: number;
  running: number;
  pending: number;
}

export const HISTORY_SPAN_MS = 60 * 60 * 1000;

/** One sample of the nodes and jobs at `t`. */
export function loadSample(t: number, nodes: readonly DashNode[], jobs: readonly DashJob[]): LoadSample {
  const sample: LoadSample = { t, cpus: 0, allocCpus: 0, memory: 0, allocMemory: 0, running: 0, pending: 0 };
  for (const node of nodes) {
    // Down and drained nodes still count in the total: they are capacity the cluster lacks.
    sample.cpus += node.cpus;
    sample.allocCpus += node.allocCpus;
    sample.memory += node.memory;
    sample.allocMemory += node.allocMemory;
  }
  for (const job of jobs) {
    if (job.state === 'PENDING') sample.pending += 1;
    else if (job.state === 'RUNNING' || job.state === 'SUSPENDED') sample.running += 1;
  }
  return sample;
}

/** Samples in time order; those older than the span fall off as new ones come. */
export class LoadHistory {
  private samples: LoadSample[] = [];

  constructor(private readonly spanMs = HISTORY_SPAN_MS) {}

  add(sample: LoadSample): void {
    this.samples.push(sample);
    const oldest = sample.t - this.spanMs;
    let drop = 0;
    while (drop < this.samples.length && this.samples[drop]!.t < oldest) drop += 1;
    // At one sample every few seconds the array stays near a thousand entries; splice is cheap.
    if (drop > 0) this.samples.splice(0, drop);
  }

  list(): readonly LoadSample[] {
    return this.samples;
  }
}
