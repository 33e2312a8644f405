import { describe, expect, it } from 'vitest';
import { LoadHistory, loadSample } from '../../../../src/restd/dashboard/history.js';
import type { DashJob, DashNode } from '../../../../src/restd/dashboard/view.js';

const node = (cpus: number, allocCpus: number): DashNode => ({
  name: 'n',
  state: 'MIXED',
  category: 'mixed',
  cpus,
  allocCpus,
  memory: 1000,
  allocMemory: 250,
  reason: null,
});

describe('the hour of load', () => {
  it('sums the nodes and counts the running and pending jobs', () => {
    const jobs = [{ state: 'RUNNING' }, { state: 'PENDING' }, { state: 'PENDING' }, { state: 'COMPLETING' }] as DashJob[];
    expect(loadSample(5, [node(4, 1), node(8, 8)], jobs)).toEqual({ t: 5, cpus: 12, allocCpus: 9, memory: 2000, allocMemory: 500, running: 1, pending: 2 });
  });

  it('drops samples older than its span', () => {
    const history = new LoadHistory(1000);
    for (const t of [0, 400, 800, 1200, 1600]) history.add(loadSample(t, [], []));
    expect(history.list().map((s) => s.t)).toEqual([800, 1200, 1600]);
  });
});
