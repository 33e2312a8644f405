// The Standard Workload Format (SWF, Feitelson's Parallel Workloads Archive): one job per line,
// 18 whitespace-separated numeric fields, -1 for "unknown"; lines starting with `;` are
// comments, and header comments of the form `; Key: value` describe the log (UnixStartTime,
// MaxProcs, ...). A job the simulation cannot use is skipped and counted, not guessed at.

/** One job of an SWF trace (times in seconds, memory in KB per processor; -1: unknown). */
export interface SwfJob {
  /** Field 1. */
  readonly id: number;
  /** Field 2: seconds since the start of the log. */
  readonly submit: number;
  /** Field 3: the wait the job had on the original system (not used: the simulation makes its own). */
  readonly wait: number;
  /** Field 4. */
  readonly runTime: number;
  /** Field 5. */
  readonly allocatedProcs: number;
  /** Field 6. */
  readonly avgCpuTime: number;
  /** Field 7. */
  readonly usedMemory: number;
  /** Field 8. */
  readonly requestedProcs: number;
  /** Field 9: the time limit the user gave. */
  readonly requestedTime: number;
  /** Field 10. */
  readonly requestedMemory: number;
  /** Field 11: 1 completed, 0 failed, 5 cancelled (others: partial executions). */
  readonly status: number;
  readonly userId: number;
  readonly groupId: number;
  readonly executable: number;
  readonly queue: number;
  readonly partition: number;
  /** Field 17 and 18: the job this one waited for, and the think time after it. */
  readonly precedingJob: number;
  readonly thinkTime: number;
}

export interface SwfTrace {
  readonly jobs: SwfJob[];
  /** Job lines skipped: too few fields, not numbers, or no usable submit time, run time or size. */
  readonly invalid: number;
  /** The first few problems, `line N: why`, for the log. */
  readonly problems: string[];
  /** `; Key: value` header comments. */
  readonly header: ReadonlyMap<string, string>;
}

const FIELDS = 18;
const MAX_PROBLEMS = 5;

export function parseSwf(text: string): SwfTrace {
  const jobs: SwfJob[] = [];
  const problems: string[] = [];
  const header = new Map<string, string>();
  let invalid = 0;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '') continue;
    if (line.startsWith(';')) {
      const match = /^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*)$/.exec(line);
      if (match) header.set(match[1]!, match[2]!.trim());
      continue;
    }
    const why = problemOf(line);
    if (typeof why === 'string') {
      invalid++;
      if (problems.length < MAX_PROBLEMS) problems.push(`line ${n + 1}: ${why}`);
      continue;
    }
    jobs.push(why);
  }
  return { jobs, invalid, problems, header };
}

// The job on a line, or why it cannot be used.
function problemOf(line: string): SwfJob | string {
  const parts = line.split(/\s+/);
  if (parts.length < FIELDS) return `${parts.length} fields, SWF has ${FIELDS}`;
  const f = parts.slice(0, FIELDS).map(Number);
  const bad = f.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) return `field ${bad + 1} is not a number: ${parts[bad]}`;
  const job: SwfJob = {
    id: f[0]!,
    submit: f[1]!,
    wait: f[2]!,
    runTime: f[3]!,
    allocatedProcs: f[4]!,
    avgCpuTime: f[5]!,
    usedMemory: f[6]!,
    requestedProcs: f[7]!,
    requestedTime: f[8]!,
    requestedMemory: f[9]!,
    status: f[10]!,
    userId: f[11]!,
    groupId: f[12]!,
    executable: f[13]!,
    queue: f[14]!,
    partition: f[15]!,
    precedingJob: f[16]!,
    thinkTime: f[17]!,
  };
  if (job.submit < 0) return 'no submit time';
  if (job.runTime < 0) return 'no run time';
  if (processorsOf(job) <= 0) return 'no processor count';
  return job;
}

/** Processors the job asked for (field 8), else those it was given (field 5). */
export function processorsOf(job: SwfJob): number {
  return job.requestedProcs > 0 ? job.requestedProcs : job.allocatedProcs;
}
