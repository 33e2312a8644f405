// sched/builtin against a small in-memory SchedContext: a few nodes, pending jobs that each
// want some whole nodes; `start` succeeds when enough nodes are free.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Bitstr } from '../../../src/core/bitstr.js';
import {
  errnoValue,
  SLURM_SUCCESS,
  type job_record_t,
  type PluginHost,
  type SchedContext,
  type SchedPlugin,
  type SchedStartResult,
} from '../../../src/plugin-api/index.js';
import { makeJob, makeNodes } from './select-helpers.js';

type Module = SchedPlugin & { init(host: PluginHost): number };

const BUSY = errnoValue('ESLURM_NODES_BUSY');
const NODE_NOT_AVAIL = errnoValue('ESLURM_NODE_NOT_AVAIL');

class FakeCluster {
  readonly nodes = makeNodes(4);
  readonly used = new Set<number>();
  readonly started: number[] = [];
  readonly tried: number[] = [];
  readonly reasons = new Map<number, string>();
  /** Jobs whose required node is down: start fails for a reason of their own. */
  readonly nodeDown = new Set<number>();
  pendingJobs: job_record_t[] = [];
  readonly abort = new AbortController();
  onStart: (job: job_record_t) => void = () => {};

  ctx(): SchedContext {
    const size = this.nodes.length;
    return {
      now: 1000,
      signal: this.abort.signal,
      pending: () => this.pendingJobs.filter((j) => !this.started.includes(j.job_id)),
      running: () => [],
      nodes: () => this.nodes,
      bit_alloc: () => new Bitstr(size),
      will_run: () => ({ rc: BUSY }),
      start: (job) => this.start(job),
      set_reason: (job, reason) => void this.reasons.set(job.job_id, reason),
    };
  }

  private start(job: job_record_t): SchedStartResult {
    this.tried.push(job.job_id);
    this.onStart(job);
    const fail = (rc: number, reason: string): SchedStartResult => {
      this.reasons.set(job.job_id, reason); // the host records the reason it returns
      return { rc, reason };
    };
    if (this.nodeDown.has(job.job_id)) return fail(NODE_NOT_AVAIL, 'ReqNodeNotAvail');
    const free = this.nodes.map((n) => n.index).filter((i) => !this.used.has(i));
    if (free.length < job.details.min_nodes) return fail(BUSY, 'Resources');
    const nodes = new Bitstr(this.nodes.length);
    for (const i of free.slice(0, job.details.min_nodes)) {
      nodes.set(i);
      this.used.add(i);
    }
    this.started.push(job.job_id);
    this.reasons.delete(job.job_id);
    return { rc: SLURM_SUCCESS, nodes };
  }

  /** A pending job of `size` nodes. */
  add(size: number, priority: number, submit_time = 0): job_record_t {
    const job = makeJob({ min_nodes: size, num_tasks: size }, { priority, submit_time });
    this.pendingJobs.push(job);
    return job;
  }
}

let plugin: Module;
let cluster: FakeCluster;

beforeEach(async () => {
  vi.resetModules();
  plugin = (await import('../../../plugins/sched_builtin.js')) as unknown as Module;
  const log = { error: () => {}, info: () => {}, verbose: () => {}, debug: () => {} };
  const host: PluginHost = {
    log,
    slurm_seterrno: () => {},
    slurm_strerror: (e) => `errno ${e}`,
    version: { major: 0, minor: 1, micro: 0 },
    options: {},
    clusterName: 'test',
    time: () => Math.floor(Date.now() / 1000),
  };
  expect(plugin.init(host)).toBe(SLURM_SUCCESS);
  cluster = new FakeCluster();
});

describe('sched/builtin', () => {
  it("exports Slurm's header symbols", () => {
    expect(plugin.plugin_type).toBe('sched/builtin');
    expect(plugin.plugin_name).toBe('Slurm Built-in Scheduler plugin');
    expect(plugin.plugin_version).toBe((0 << 16) | (1 << 8) | 0);
  });

  it('starts every job that fits, highest priority first', async () => {
    const low = cluster.add(1, 10);
    const high = cluster.add(2, 30);
    const mid = cluster.add(1, 20);
    expect(await plugin.slurm_sched_p_schedule(cluster.ctx())).toBe(SLURM_SUCCESS);
    expect(cluster.started).toEqual([high.job_id, mid.job_id, low.job_id]);
    expect(cluster.reasons.size).toBe(0);
  });

  it('breaks priority ties by submit time, then job id', async () => {
    const later = cluster.add(1, 5, 200);
    const sameTimeA = cluster.add(1, 5, 100);
    const sameTimeB = cluster.add(1, 5, 100);
    const earliest = cluster.add(1, 5, 50);
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.started).toEqual([earliest.job_id, sameTimeA.job_id, sameTimeB.job_id, later.job_id]);
  });

  it('stops at the first job that does not fit: Resources for it, Priority behind it', async () => {
    const first = cluster.add(2, 100);
    const blocked = cluster.add(3, 90);
    const small = cluster.add(1, 80); // would fit, but FIFO does not backfill
    const smaller = cluster.add(1, 70);
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.started).toEqual([first.job_id]);
    expect(cluster.tried).toEqual([first.job_id, blocked.job_id]);
    expect(cluster.reasons.get(blocked.job_id)).toBe('Resources');
    expect(cluster.reasons.get(small.job_id)).toBe('Priority');
    expect(cluster.reasons.get(smaller.job_id)).toBe('Priority');
  });

  it('starts the blocked job on a later pass once nodes are free', async () => {
    cluster.add(3, 100);
    const blocked = cluster.add(2, 90);
    const behind = cluster.add(2, 80);
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.reasons.get(blocked.job_id)).toBe('Resources');
    cluster.used.clear(); // the first job ended
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.started.slice(1)).toEqual([blocked.job_id, behind.job_id]);
  });

  it('a job that cannot start for a reason of its own does not hold the queue', async () => {
    const down = cluster.add(1, 100);
    const next = cluster.add(4, 90);
    cluster.nodeDown.add(down.job_id);
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.started).toEqual([next.job_id]);
    expect(cluster.reasons.get(down.job_id)).toBe('ReqNodeNotAvail');
  });

  it('never starts a held job (priority 0)', async () => {
    const held = cluster.add(1, 0);
    const ready = cluster.add(1, 1);
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.started).toEqual([ready.job_id]);
    expect(cluster.tried).not.toContain(held.job_id);
  });

  it('ends the pass early when the controller aborts', async () => {
    const a = cluster.add(1, 3);
    cluster.add(1, 2);
    cluster.add(1, 1);
    cluster.onStart = () => cluster.abort.abort();
    expect(await plugin.slurm_sched_p_schedule(cluster.ctx())).toBe(SLURM_SUCCESS);
    expect(cluster.tried).toEqual([a.job_id]);
  });

  it('does nothing when aborted before it starts', async () => {
    cluster.add(1, 1);
    cluster.abort.abort();
    await plugin.slurm_sched_p_schedule(cluster.ctx());
    expect(cluster.tried).toEqual([]);
  });

  it('does nothing with an empty queue', async () => {
    expect(await plugin.slurm_sched_p_schedule(cluster.ctx())).toBe(SLURM_SUCCESS);
    expect(cluster.tried).toEqual([]);
  });

  it('gives each new job one less priority than the last, never below 1', async () => {
    const job = makeJob();
    const prio = plugin.slurm_sched_p_initial_priority!;
    let last = 1000;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((last = await prio(last, job)));
    expect(seen).toEqual([999, 998, 997]);
    expect(await prio(2, job)).toBe(1);
    expect(await prio(1, job)).toBe(1);
    expect(await prio(0, job)).toBe(1);
  });

  it('implements the rest of the API as Slurm does: successes and no-ops', async () => {
    const job = makeJob();
    expect(await plugin.slurm_sched_p_reconfig!()).toBe(SLURM_SUCCESS);
    expect(await plugin.slurm_sched_p_newalloc!(job)).toBe(SLURM_SUCCESS);
    expect(await plugin.slurm_sched_p_freealloc!(job)).toBe(SLURM_SUCCESS);
    expect(await plugin.slurm_sched_p_job_is_pending!()).toBeUndefined();
    expect(await plugin.slurm_sched_p_partition_change!()).toBeUndefined();
    expect(await plugin.slurm_sched_p_requeue!(job, 'node failure')).toBeUndefined();
    expect(plugin.slurm_sched_p_get_errno!()).toBe(SLURM_SUCCESS);
    expect(plugin.slurm_sched_p_strerror!(BUSY)).toBeNull();
    expect(plugin.slurm_sched_p_get_conf!()).toBeNull();
  });
});
