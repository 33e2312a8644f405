// What one scheduling pass has already learnt about a shape of job. Within a pass, resources
// are only taken (jobs start; none end until the pass is over), so a job that failed for want
// of resources, or got a WILL_RUN plan, answers the same for every later job of the same
// shape on the same candidate nodes: the pass reuses the answer instead of asking select
// again. With 100,000 queued jobs of a few hundred shapes this is what keeps a pass short
// (Slurm's schedule() skips a partition once a job in it is blocked for the same reason).
// Jobs naming nodes (-w, -x) or a reservation are never shared: their answers are their own.
import type { Bitstr, job_record_t } from '../plugin-api/records.js';
import type { SchedStartResult, SchedWillRunResult } from '../plugin-api/sched.js';

type Failure = Extract<SchedStartResult, { reason: string }>;

export class PassCache {
  // By job shape, then by avail's name: two lookups of strings made once, no key to build.
  private readonly failures = new Map<string, Map<string, Failure>>();
  private failureCount = 0;
  private readonly plans = new Map<string, Map<string, SchedWillRunResult>>();
  // The distinct `avail` bitmaps of the pass, by hash, each with a short name for the keys
  // (a sched plugin hands one per job; formatting 10,000 bits per job costs more than select).
  private readonly avails = new Map<number, { bits: Bitstr; name: string }[]>();
  private availCount = 0;
  // Each job's key but for `avail`, worked out once a pass (a job is looked up several times), by job id.
  private readonly shapes = new Map<number, string | null>();

  constructor(
    /** Reservations exist: a job's time limit decides which nodes it may use. */
    private readonly timeMatters: boolean,
  ) {}

  failure(record: job_record_t, avail: Bitstr | undefined, reserved: boolean): Failure | undefined {
    // Until a job has failed there is nothing to find (and no key worth making).
    if (this.failureCount === 0) return undefined;
    const shape = this.shapeOf(record, reserved);
    return shape === null ? undefined : this.failures.get(shape)?.get(this.availName(avail));
  }

  rememberFailure(record: job_record_t, avail: Bitstr | undefined, reserved: boolean, result: Failure): void {
    const shape = this.shapeOf(record, reserved);
    if (shape === null) return;
    let byAvail = this.failures.get(shape);
    if (byAvail === undefined) this.failures.set(shape, (byAvail = new Map()));
    byAvail.set(this.availName(avail), result);
    this.failureCount++;
  }

  /** A WILL_RUN answer for a job of the same shape, or computes and keeps one. */
  async plan(record: job_record_t, avail: Bitstr | undefined, reserved: boolean, ask: () => Promise<SchedWillRunResult>): Promise<SchedWillRunResult> {
    const shape = this.shapeOf(record, reserved);
    if (shape === null) return ask();
    let byAvail = this.plans.get(shape);
    if (byAvail === undefined) this.plans.set(shape, (byAvail = new Map()));
    const name = this.availName(avail);
    const known = byAvail.get(name);
    // Copies that share the kept bitmap until changed: the caller may change its own.
    if (known !== undefined) return known.nodes === undefined ? known : { ...known, nodes: known.nodes.lazyCopy() };
    const answer = await ask();
    byAvail.set(name, answer.nodes === undefined ? answer : { ...answer, nodes: answer.nodes.copy() });
    return answer;
  }

  // The job's key but for `avail`, or null for a job whose answers are its own.
  private shapeOf(record: job_record_t, reserved: boolean): string | null {
    let shape = this.shapes.get(record.job_id);
    if (shape === undefined) this.shapes.set(record.job_id, (shape = shapeKey(record, this.timeMatters, reserved) ?? null));
    return shape;
  }

  // '*' for no limit, else the same name for bitmaps with the same bits (found by hash, which
  // a bitmap keeps until it changes, and its lazy copies share).
  private availName(avail: Bitstr | undefined): string {
    return avail === undefined ? '*' : this.nameByBits(avail);
  }

  private nameByBits(avail: Bitstr): string {
    const hash = avail.hash();
    let same = this.avails.get(hash);
    if (same === undefined) this.avails.set(hash, (same = []));
    const known = same.find((entry) => entry.bits.equal(avail));
    if (known !== undefined) return known.name;
    const name = `#${++this.availCount}`;
    same.push({ bits: avail.copy(), name });
    return name;
  }
}

/** What select sees of a job, as a string; undefined for jobs whose answers are their own. */
function shapeKey(r: job_record_t, timeMatters: boolean, reserved: boolean): string | undefined {
  const d = r.details;
  if (reserved || d.req_node_bitmap !== null || d.exc_node_bitmap !== null) return undefined;
  return [
    r.partition,
    d.min_nodes,
    d.max_nodes,
    d.min_cpus,
    d.num_tasks,
    d.cpus_per_task,
    d.ntasks_per_node,
    d.pn_min_memory,
    d.mem_per_cpu,
    d.features ?? '',
    d.contiguous,
    d.share_res,
    d.whole_node,
    d.max_share ?? 1,
    d.overcommit,
    gresKey(r.gres_list),
    gresKey(r.gres_per_job ?? []),
    timeMatters ? r.time_limit : '',
  ].join('|');
}

function gresKey(list: readonly { name: string; type?: string; count: number }[]): string {
  return list.map((g) => `${g.name}:${g.type ?? ''}:${g.count}`).join(',');
}
