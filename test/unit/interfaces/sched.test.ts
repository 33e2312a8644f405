// The sched facade: every hook through the one invoker, and what the controller does when the
// plugin fails at run time — the pass ends and is logged, the jobs stay pending, a late pass
// starts nothing; a bad initial priority gives the default one; a failed notification is a
// log line.
import { describe, expect, it } from 'vitest';
import { SchedFacade } from '../../../src/interfaces/sched.js';
import { SLURM_ERROR, SLURM_SUCCESS, type SchedContext, type SchedPlugin } from '../../../src/plugin-api/index.js';
import type { LoadedPlugin } from '../../../src/plugin-host/loaded-plugin.js';
import { makeJob } from '../plugins/select-helpers.js';

type Hooks = Partial<Omit<SchedPlugin, 'plugin_type' | 'plugin_name'>>;

function loaded(hooks: Hooks): LoadedPlugin {
  const functions = new Map<string, Function>();
  for (const [name, fn] of Object.entries(hooks)) if (typeof fn === 'function') functions.set(name, fn);
  return {
    type: 'sched/fixture',
    major: 'sched',
    name: 'fixture',
    file: '/fixture/sched_fixture.js',
    builtin: false,
    versionScheme: 'none',
    apiVersion: 0,
    revision: 0,
    versionDisplay: '',
    functions,
    module: hooks,
    errno: 0,
  };
}

function facade(hooks: Hooks, timeoutMs = 100) {
  const errors: string[] = [];
  return { sched: new SchedFacade(loaded(hooks), timeoutMs, { error: (m) => errors.push(m) }), errors };
}

// A pass context that records the jobs started and the reasons set.
function context() {
  const started: number[] = [];
  const reasons: string[] = [];
  const ctx: SchedContext = {
    now: 1000,
    signal: new AbortController().signal,
    pending: () => [makeJob({}, { job_id: 1 }), makeJob({}, { job_id: 2 })],
    running: () => [],
    nodes: () => [],
    bit_alloc: () => {
      throw new Error('not used');
    },
    will_run: () => ({ rc: SLURM_ERROR }),
    start: (job) => (started.push(job.job_id), { rc: SLURM_ERROR, reason: 'Resources' }),
    set_reason: (job, reason) => void reasons.push(`${job.job_id} ${reason}`),
  };
  return { ctx, started, reasons };
}

describe('SchedFacade', () => {
  it('runs a pass through the plugin and answers its rc', async () => {
    const { sched } = facade({ slurm_sched_p_schedule: async (ctx) => (await ctx.start(ctx.pending()[0]!), SLURM_SUCCESS) });
    const { ctx, started } = context();
    expect(await sched.schedule(ctx)).toBe(SLURM_SUCCESS);
    expect(started).toEqual([1]);
  });

  it('passes every argument of ctx.start and ctx.will_run on (a backfill start with a shorter time limit)', async () => {
    const seen: unknown[][] = [];
    const { sched } = facade({
      slurm_sched_p_schedule: async (ctx) => {
        await ctx.start(ctx.pending()[0]!, undefined, 30);
        await ctx.will_run(ctx.pending()[1]!, undefined);
        return SLURM_SUCCESS;
      },
    });
    const { ctx } = context();
    const spied: SchedContext = {
      ...ctx,
      start: (...args) => (seen.push(['start', args[0].job_id, ...args.slice(1)]), ctx.start(...args)),
      will_run: (...args) => (seen.push(['will_run', args[0].job_id, ...args.slice(1)]), ctx.will_run(...args)),
    };
    expect(await sched.schedule(spied)).toBe(SLURM_SUCCESS);
    expect(seen).toEqual([
      ['start', 1, undefined, 30],
      ['will_run', 2, undefined],
    ]);
  });

  it('a pass that throws is logged as one line naming the plugin and hook, and answers SLURM_ERROR', async () => {
    const { sched, errors } = facade({
      slurm_sched_p_schedule: () => {
        throw new Error('queue walk failed');
      },
    });
    expect(await sched.schedule(context().ctx)).toBe(SLURM_ERROR);
    expect(errors).toEqual(['sched/fixture: slurm_sched_p_schedule: crashed: queue walk failed; the pass ends, its pending jobs stay pending']);
  });

  it('a pass that outlasts the timeout ends; what it does afterwards starts nothing', async () => {
    let late: Promise<unknown> | undefined;
    let aborted: boolean | undefined;
    const { sched, errors } = facade(
      {
        slurm_sched_p_schedule: (ctx) =>
          new Promise<number>(() => {
            late = new Promise((resolve) => setTimeout(resolve, 100)).then(async () => {
              aborted = ctx.signal.aborted;
              ctx.set_reason(ctx.pending()[1]!, 'Priority');
              return ctx.start(ctx.pending()[0]!);
            });
          }),
      },
      30,
    );
    const { ctx, started, reasons } = context();
    expect(await sched.schedule(ctx)).toBe(SLURM_ERROR);
    expect(errors).toEqual(['sched/fixture: slurm_sched_p_schedule: did not return within 30 ms; the pass ends, its pending jobs stay pending']);
    expect(await late).toMatchObject({ rc: SLURM_ERROR });
    expect({ aborted, started, reasons }).toEqual({ aborted: true, started: [], reasons: [] });
  });

  it("uses the plugin's initial priority, and the default one (logged) when it is no priority", () => {
    const job = makeJob({}, { job_id: 7 });
    expect(facade({ slurm_sched_p_initial_priority: (last) => last + 10 }).sched.initialPriority(100, job)).toBe(110);
    expect(facade({}).sched.initialPriority(100, job)).toBe(99);
    expect(facade({}).sched.initialPriority(1, job)).toBe(1);
    const bad: [string, Hooks['slurm_sched_p_initial_priority'], string][] = [
      ['throws', () => { throw new Error('no'); }, 'crashed: no'],
      ['NaN', () => Number.NaN, 'returned NaN, which is not a priority'],
      ['negative', () => -5, 'returned -5, which is not a priority'],
      // A plugin written in JavaScript can still return one.
      ['async', (async () => 5) as unknown as () => number, 'answered with a promise; a priority must be answered at once'],
    ];
    for (const [, hook, why] of bad) {
      const { sched, errors } = facade({ slurm_sched_p_initial_priority: hook! });
      expect(sched.initialPriority(100, job)).toBe(99);
      expect(errors).toEqual([`sched/fixture: slurm_sched_p_initial_priority: ${why}; job 7 gets priority 99`]);
    }
  });

  it('a notification that fails is logged and nothing else: throw, SLURM_ERROR with errno, absent', async () => {
    let plugin: LoadedPlugin | undefined;
    const hooks: Hooks = {
      slurm_sched_p_newalloc: () => {
        throw new Error('bad');
      },
      slurm_sched_p_freealloc: () => {
        plugin!.errno = 2017;
        return SLURM_ERROR;
      },
    };
    plugin = loaded(hooks);
    const errors: string[] = [];
    const sched = new SchedFacade(plugin, 100, { error: (m) => errors.push(m) });
    const job = makeJob({}, { job_id: 3 });
    await sched.newalloc(job);
    await sched.freealloc(job);
    await sched.requeue(job, 'why');
    await sched.reconfig();
    expect(errors).toEqual([
      'sched/fixture: slurm_sched_p_newalloc: crashed: bad',
      'sched/fixture: slurm_sched_p_freealloc: failed: Invalid job id specified',
    ]);
  });
});
