// The select engines' shortcuts (nodes alike taken as one item, the free-CPU index) must never
// change a placement: random clusters of a few node kinds and random job streams, run through
// two copies of each plugin, one with the shortcuts and one visiting every node on its own,
// must give the same answer to every select_p_job_test, in every mode.
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  SELECT_MODE_RUN_NOW,
  SELECT_MODE_TEST_ONLY,
  SELECT_MODE_WILL_RUN,
  type job_record_t,
  type node_record_t,
  type PluginHost,
  type SelectJobTestResult,
  type SelectMode,
} from '../../../src/plugin-api/index.js';
import { allBits, bits, makeJob, makeNodes, testArgs, type SelectModule } from './select-helpers.js';

interface Kind {
  readonly threads: number;
  readonly cores: number;
  readonly memory: number;
  readonly weight: number;
  readonly gpus: number;
}

const kindArb: fc.Arbitrary<Kind> = fc.record({
  threads: fc.constantFrom(1, 2),
  cores: fc.constantFrom(1, 2, 4, 8),
  memory: fc.constantFrom(1000, 4000),
  weight: fc.constantFrom(1, 1, 1, 5),
  gpus: fc.constantFrom(0, 2, 2, 4),
});

// Runs of nodes of one kind: what makes items of many nodes.
const clusterArb = fc.array(fc.record({ kind: kindArb, count: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 6 });

interface Shape {
  readonly tasks: number;
  readonly nodes: number;
  readonly range: boolean;
  readonly cpusPerTask: number;
  readonly perNode: number;
  readonly memPerCpu: number;
  readonly exclusive: boolean;
  readonly gpusPerNode: number;
  readonly gpusPerJob: number;
  readonly contiguous: boolean;
  readonly required: number;
  readonly excluded: number;
  readonly minutes: number;
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  tasks: fc.integer({ min: 1, max: 40 }),
  nodes: fc.constantFrom(0, 0, 1, 2, 3, 5),
  range: fc.boolean(),
  cpusPerTask: fc.constantFrom(1, 1, 1, 2, 3),
  perNode: fc.constantFrom(0, 0, 0, 1, 2),
  memPerCpu: fc.constantFrom(0, 0, 0, 300),
  exclusive: fc.constantFrom(false, false, false, true),
  gpusPerNode: fc.constantFrom(0, 0, 1, 1, 2, 3),
  gpusPerJob: fc.constantFrom(0, 0, 0, 0, 3),
  contiguous: fc.constantFrom(false, false, false, true),
  required: fc.constantFrom(-1, -1, -1, -1, 0, 3),
  excluded: fc.constantFrom(-1, -1, -1, 1),
  minutes: fc.integer({ min: 1, max: 100 }),
});

// Start a job (and keep it), end the k-th running one, or ask without starting.
const stepArb = fc.oneof(
  { weight: 6, arbitrary: shapeArb.map((shape) => ({ op: 'start' as const, shape })) },
  { weight: 2, arbitrary: fc.nat().map((k) => ({ op: 'end' as const, k })) },
  { weight: 1, arbitrary: fc.tuple(shapeArb, fc.constantFrom<SelectMode>(SELECT_MODE_WILL_RUN, SELECT_MODE_TEST_ONLY)).map(([shape, mode]) => ({ op: 'ask' as const, shape, mode })) },
);

function nodesOf(cluster: readonly { kind: Kind; count: number }[]): node_record_t[] {
  const kinds = cluster.flatMap(({ kind, count }) => Array.from({ length: count }, () => kind));
  return makeNodes(kinds.length, (i) => {
    const k = kinds[i]!;
    return {
      cpus: k.cores * k.threads,
      tot_sockets: 1,
      cores: k.cores,
      threads: k.threads,
      real_memory: k.memory,
      weight: k.weight,
      gres_list: k.gpus > 0 ? [{ name: 'gpu', count: k.gpus }] : [],
    };
  });
}

function jobOf(shape: Shape, n: number, id: number): job_record_t {
  const nodes = shape.nodes === 0 ? 0 : Math.min(shape.nodes, n);
  return makeJob(
    {
      num_tasks: shape.tasks,
      min_nodes: Math.max(nodes, 1),
      max_nodes: nodes === 0 ? 0 : shape.range ? Math.min(nodes + 2, n) : nodes,
      min_cpus: shape.tasks * shape.cpusPerTask,
      cpus_per_task: shape.cpusPerTask,
      ntasks_per_node: shape.perNode,
      mem_per_cpu: shape.memPerCpu,
      whole_node: shape.exclusive,
      contiguous: shape.contiguous,
      req_node_bitmap: shape.required >= 0 && shape.required < n ? bits(n, [shape.required]) : null,
      exc_node_bitmap: shape.excluded >= 0 && shape.excluded < n ? bits(n, [shape.excluded]) : null,
    },
    {
      job_id: id,
      start_time: NOW,
      time_limit: shape.minutes,
      gres_list: shape.gpusPerNode > 0 ? [{ name: 'gpu', count: shape.gpusPerNode }] : [],
      ...(shape.gpusPerJob > 0 && { gres_per_job: [{ name: 'gpu', count: shape.gpusPerJob }] }),
    },
  );
}

const NOW = 1_700_000_000;

type PluginName = 'select_cons_tres' | 'select_linear';

// A fresh plugin module and the shortcut switch of its own copy of the library.
async function loadWith(name: PluginName, nodes: node_record_t[], shortcuts: boolean): Promise<SelectModule> {
  vi.resetModules();
  const mod = (await import(`../../../plugins/${name}.ts`)) as SelectModule;
  const { fitShortcuts } = await import('../../../plugins/lib/fit-shortcuts.js');
  fitShortcuts.enabled = shortcuts;
  // A fixed clock: WILL_RUN's answers then do not depend on when each copy is asked.
  const quiet = () => {};
  const host = { log: { error: quiet, info: quiet, verbose: quiet, debug: quiet }, time: () => NOW } as unknown as PluginHost;
  await mod.init?.(host);
  await mod.select_p_node_init(nodes);
  return mod;
}

function summary(result: SelectJobTestResult): unknown {
  return {
    rc: result.rc,
    nodes: result.nodes?.fmt(),
    start: result.start_time,
    cpus: result.job_resources?.cpus,
    mem: result.job_resources?.memory_allocated,
    gres: result.job_resources?.gres_allocated,
  };
}

describe.each<PluginName>(['select_cons_tres', 'select_linear'])('%s: shortcuts never change a placement', (name) => {
  it('same answers with and without them, on random clusters and job streams', async () => {
    await fc.assert(
      fc.asyncProperty(clusterArb, fc.array(stepArb, { minLength: 1, maxLength: 40 }), async (cluster, steps) => {
        const nodes = nodesOf(cluster);
        const n = nodes.length;
        const fast = await loadWith(name, nodes, true);
        const slow = await loadWith(name, nodes, false);
        const running: job_record_t[] = [];
        let id = 1;
        for (const step of steps) {
          if (step.op === 'end') {
            if (running.length === 0) continue;
            const [job] = running.splice(step.k % running.length, 1);
            expect(await fast.select_p_job_fini(job!)).toBe(await slow.select_p_job_fini(job!));
            continue;
          }
          const job = jobOf(step.shape, n, id++);
          const mode = step.op === 'ask' ? step.mode : SELECT_MODE_RUN_NOW;
          const args = testArgs(job, allBits(n), mode);
          const a = await fast.select_p_job_test(args);
          const b = await slow.select_p_job_test({ ...args, bitmap: allBits(n) });
          expect(summary(a)).toEqual(summary(b));
          if (step.op === 'start' && a.nodes !== undefined) {
            const started = { ...job, node_bitmap: a.nodes, job_resrcs: a.job_resources ?? null };
            expect(await fast.select_p_job_begin(started)).toBe(0);
            expect(await slow.select_p_job_begin({ ...started, job_resrcs: b.job_resources ?? null })).toBe(0);
            running.push(started);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
