// NodeStates: node_state on the table's records from the jobs' allocations and the
// administrator's drain/down, and what is saved for a restart.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCluster } from '../../../src/config/load.js';
import { NodeTable } from '../../../src/ctld/node-table.js';
import { NodeStates } from '../../../src/ctld/node-states.js';
import type { CtldJob } from '../../../src/ctld/job.js';
import { nodeStateStringComplete } from '../../../src/core/node-state.js';
import { JOB_CANCELLED, JOB_COMPLETING, JOB_RUNNING } from '../../../src/plugin-api/records.js';

const SMALL = fileURLToPath(new URL('../../../fixtures/clusters/small.yaml', import.meta.url)); // node[1-4], 4 CPUs

async function setup() {
  const config = await loadCluster({ file: SMALL });
  const table = NodeTable.fromConfig(config);
  return { table, states: new NodeStates(table, config) };
}

function job(table: NodeTable, state: number, nodes: string, cpus: number[]): CtldJob {
  const bitmap = table.bitmapFromHostlist(nodes);
  const resrcs = { nhosts: cpus.length, node_bitmap: bitmap.copy(), ncpus: cpus.reduce((a, b) => a + b, 0), cpus, memory_allocated: cpus.map(() => 100), gres_allocated: cpus.map(() => []), whole_node: false };
  return { record: { job_state: state, node_bitmap: bitmap, job_resrcs: resrcs } } as unknown as CtldJob;
}

const shown = (table: NodeTable) => table.nodes.map((n) => nodeStateStringComplete(n.node_state));

describe('NodeStates', () => {
  it('makes nodes MIXED, ALLOCATED or IDLE+COMPLETING from the jobs, on the records plugins see', async () => {
    const { table, states } = await setup();
    states.refresh([job(table, JOB_RUNNING, 'node[1-2]', [2, 4]), job(table, JOB_CANCELLED | JOB_COMPLETING, 'node3', [1])]);
    expect(shown(table)).toEqual(['MIXED', 'ALLOCATED', 'IDLE+COMPLETING', 'IDLE']);
    expect(states.usageOf(0)).toEqual({ allocCpus: 2, allocMemory: 100, completing: false });
    states.refresh([]);
    expect(shown(table)).toEqual(['IDLE', 'IDLE', 'IDLE', 'IDLE']);
  });

  it('keeps DRAIN and DOWN over the jobs, and saves only the nodes an update changed', async () => {
    const { table, states } = await setup();
    states.set(1, { down: false, drain: true, reason: 'r', time: 5, uid: 0 });
    states.set(3, { down: true, drain: true, reason: 'x', time: 6, uid: 0 });
    states.refresh([job(table, JOB_RUNNING, 'node2', [4])]);
    expect(shown(table)).toEqual(['IDLE', 'ALLOCATED+DRAIN', 'IDLE', 'DOWN+DRAIN']);
    const saved = states.stored();
    expect(saved).toEqual([
      { name: 'node2', state: 0x202, reason: 'r', time: 5, uid: 0 },
      { name: 'node4', state: 0x201, reason: 'x', time: 6, uid: 0 },
    ]);
    const fresh = await setup();
    fresh.states.restore([...saved, { name: 'gone', state: 1, reason: null }]);
    expect(shown(fresh.table)).toEqual(['IDLE', 'IDLE+DRAIN', 'IDLE', 'DOWN+DRAIN']);
    expect(fresh.states.adminOf(3)).toEqual({ down: true, drain: true, reason: 'x', time: 6, uid: 0 });
  });
});
