// What a simulation reports: per-job waits and slowdowns folded into the usual scheduling
// metrics, and the utilisation / queue-length series for the chart.

/** One simulated job that ran. */
export interface JobOutcome {
  readonly submit: number;
  readonly start: number;
  readonly end: number;
  /** CPUs the select plugin gave it (all of its nodes' for whole-node allocations). */
  readonly cpus: number;
  readonly timedOut: boolean;
}

/** The state after one event time: CPUs busy, jobs pending. */
export interface Sample {
  readonly time: number;
  readonly busyCpus: number;
  readonly queued: number;
}

export interface Summary {
  readonly jobs: { readonly total: number; readonly ran: number; readonly rejected: number; readonly neverStarted: number; readonly invalidLines: number; readonly timedOut: number };
  /** Seconds from the first submit to the last end. */
  readonly makespan: number;
  /** CPU-seconds used / (CPUs of the usable nodes × makespan), 0..1. */
  readonly utilisation: number;
  readonly wait: { readonly mean: number; readonly median: number; readonly p95: number; readonly max: number };
  /** Mean of max(1, (wait + run) / max(run, bound)). */
  readonly boundedSlowdown: { readonly mean: number; readonly bound: number };
  readonly totalCpus: number;
  readonly passes: number;
}

/** Feitelson's usual threshold: jobs shorter than this count as this long. */
export const SLOWDOWN_BOUND = 10;

export function summarise(
  outcomes: readonly JobOutcome[],
  counts: { total: number; rejected: number; neverStarted: number; invalidLines: number },
  totalCpus: number,
  passes: number,
): Summary {
  const waits = outcomes.map((o) => o.start - o.submit).sort((a, b) => a - b);
  const firstSubmit = Math.min(...outcomes.map((o) => o.submit));
  const lastEnd = Math.max(...outcomes.map((o) => o.end));
  const makespan = outcomes.length > 0 ? lastEnd - firstSubmit : 0;
  const cpuSeconds = outcomes.reduce((sum, o) => sum + o.cpus * (o.end - o.start), 0);
  const slowdowns = outcomes.map((o) => {
    const run = o.end - o.start;
    return Math.max(1, (o.start - o.submit + run) / Math.max(run, SLOWDOWN_BOUND));
  });
  return {
    jobs: { ...counts, ran: outcomes.length, timedOut: outcomes.filter((o) => o.timedOut).length },
    makespan,
    utilisation: makespan > 0 && totalCpus > 0 ? cpuSeconds / (totalCpus * makespan) : 0,
    wait: { mean: mean(waits), median: percentile(waits, 0.5), p95: percentile(waits, 0.95), max: waits.at(-1) ?? 0 },
    boundedSlowdown: { mean: mean(slowdowns), bound: SLOWDOWN_BOUND },
    totalCpus,
    passes,
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
