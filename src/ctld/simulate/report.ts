// The simulation's outputs: summary.json (everything, machine-readable) and the lines printed
// for a person.
import type { SimulationResult } from './run-simulation.js';

export function summaryJson(result: SimulationResult, trace: string, cluster: string): string {
  return `${JSON.stringify({ trace, cluster, select: result.select, sched: result.sched, startTime: result.start, ...result.summary }, null, 2)}\n`;
}

export function summaryText(result: SimulationResult, trace: string, cluster: string): string {
  const s = result.summary;
  const j = s.jobs;
  const skipped = [
    j.rejected > 0 ? `${j.rejected} rejected` : '',
    j.neverStarted > 0 ? `${j.neverStarted} never started` : '',
    j.invalidLines > 0 ? `${j.invalidLines} invalid line(s) skipped` : '',
  ].filter(Boolean);
  return [
    `Simulated ${trace} on cluster ${cluster} (${result.select}, ${result.sched})`,
    `  jobs               ${j.total} submitted, ${j.ran} ran${skipped.length > 0 ? `, ${skipped.join(', ')}` : ''}`,
    `  makespan           ${duration(s.makespan)} (${s.makespan} s)`,
    `  utilisation        ${(s.utilisation * 100).toFixed(1)} % of ${s.totalCpus} CPUs`,
    `  wait               mean ${seconds(s.wait.mean)}, median ${seconds(s.wait.median)}, p95 ${seconds(s.wait.p95)}, max ${seconds(s.wait.max)}`,
    `  bounded slowdown   mean ${s.boundedSlowdown.mean.toFixed(2)} (bound ${s.boundedSlowdown.bound} s)`,
    `  timed out          ${j.timedOut}`,
    `  scheduling passes  ${s.passes}`,
    '',
  ].join('\n');
}

function seconds(value: number): string {
  return `${Math.round(value)} s`;
}

/** Slurm's [days-]hours:minutes:seconds. */
export function duration(total: number): string {
  const t = Math.round(total);
  const days = Math.floor(t / 86400);
  const hms = [Math.floor((t % 86400) / 3600), Math.floor((t % 3600) / 60), t % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return days > 0 ? `${days}-${hms}` : hms;
}
