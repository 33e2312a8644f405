// The fence tree of mpi/pmi2 over real TCP links: its shape (Slurm's tree with tsrun at the
// root), fences that complete through it at width 2 for 1 to 7 nodes, and links lost in the
// middle of a fence, which fail the step with a message instead of leaving it hanging.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TREE_WIDTH, treePlace, treeWidth } from '../../../../plugins/lib/pmi/tree-shape.js';
import { makeStep, settle, type Client } from './helpers.js';

let step: Awaited<ReturnType<typeof makeStep>> | undefined;
afterEach(() => step?.close());

async function pmi1(client: Client): Promise<void> {
  client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
  await client.line();
}

describe('the tree', () => {
  it('puts tsrun at the root and the nodes under it in node order, w children each', () => {
    const seven = [1, 1, 1, 1, 1, 1, 1];
    expect([null, 0, 1, 2, 3, 4, 5, 6].map((nodeid) => treePlace(seven, nodeid, 2))).toEqual([
      { parent: null, children: [0, 1] },
      { parent: null, children: [2, 3] },
      { parent: null, children: [4, 5] },
      { parent: 0, children: [6] },
      { parent: 0, children: [] },
      { parent: 1, children: [] },
      { parent: 1, children: [] },
      { parent: 2, children: [] },
    ]);
  });

  it('leaves out nodes without tasks', () => {
    expect(treePlace([2, 0, 1, 1], null, 2)).toEqual({ parent: null, children: [0, 2] });
    expect(treePlace([2, 0, 1, 1], 0, 2)).toEqual({ parent: null, children: [3] });
    expect(treePlace([2, 0, 1, 1], 3, 2)).toEqual({ parent: 0, children: [] });
  });

  it("takes SLURM_PMI2_TREE_WIDTH of 2 or more, else Slurm 22.05's TreeWidth", () => {
    expect([treeWidth('2'), treeWidth('16'), treeWidth(null), treeWidth('1'), treeWidth('x'), treeWidth('')]).toEqual([
      2,
      16,
      DEFAULT_TREE_WIDTH,
      DEFAULT_TREE_WIDTH,
      DEFAULT_TREE_WIDTH,
      DEFAULT_TREE_WIDTH,
    ]);
  });

  it('is a tree: every node with tasks has one parent that lists it, and reaches tsrun', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3), { minLength: 1, maxLength: 40 }), fc.integer({ min: 2, max: 6 }), (tasks, width) => {
        const members = tasks.flatMap((n, id) => (n > 0 ? [id] : []));
        const childrenOf = (id: number | null): number[] => treePlace(tasks, id, width).children;
        const listed = [null, ...members].flatMap((id) => childrenOf(id));
        expect([...listed].sort((a, b) => a - b)).toEqual(members);
        for (const id of members) {
          const { parent } = treePlace(tasks, id, width);
          expect(childrenOf(parent)).toContain(id);
          expect(childrenOf(id).length).toBeLessThanOrEqual(width);
          let hops = 0;
          for (let at: number | null = id; at !== null; at = treePlace(tasks, at, width).parent) hops += 1;
          expect(hops).toBeLessThanOrEqual(members.length);
        }
      }),
    );
  });
});

describe('fences through the tree (width 2, TCP links)', () => {
  it.each([1, 2, 3, 4, 7])('%i node(s): every put is seen everywhere after each of two fences', async (n) => {
    step = await makeStep(Array.from({ length: n }, (_, nodeid) => [2 * nodeid, 2 * nodeid + 1]), 2);
    expect(step.coordinator.children).toEqual([0, 1].slice(0, n));
    const clients = Array.from({ length: 2 * n }, (_, rank) => step!.connect(rank));
    for (const c of clients) await pmi1(c);
    for (const round of [1, 2]) {
      for (const [rank, c] of clients.entries()) {
        c.send(`cmd=put kvsname=k key=card-${round}-${rank} value=${'v'.repeat(rank)};${round}\n`);
        await c.line();
      }
      for (const c of clients) c.send('cmd=barrier_in\n');
      for (const c of clients) expect(await c.line()).toBe('cmd=barrier_out rc=0');
      for (const [rank, c] of clients.entries()) {
        const other = (rank + 3) % clients.length;
        c.send(`cmd=get kvsname=k key=card-${round}-${other}\n`);
        expect(await c.line()).toBe(`cmd=get_result rc=0 value=${'v'.repeat(other)};${round}`);
      }
    }
    expect(step.coordinator.snapshot()).toHaveLength(1 + 2 * 2 * n);
    expect(step.aborts).toEqual([]);
  });
});

describe('a link lost during a fence', () => {
  // Width 2, three nodes: n0 and n1 under tsrun, n2 under n0.
  const threeNodes = [[0], [1], [2]];

  it('the parent of a lost child reports it', async () => {
    step = await makeStep(threeNodes, 2);
    const clients = [0, 1, 2].map((rank) => step!.connect(rank));
    for (const c of clients) await pmi1(c);
    clients[0]!.send('cmd=barrier_in\n');
    clients[1]!.send('cmd=barrier_in\n');
    await settle();
    step.nodes[2]!.close(); // n2's step daemon is gone
    await settle();
    expect(step.aborts[0]).toEqual({ message: 'mpi/pmi2: a fence cannot complete: lost the PMI link to n2', error: true });
  });

  it('a child whose parent is lost reports it', async () => {
    step = await makeStep(threeNodes, 2);
    const clients = [0, 1, 2].map((rank) => step!.connect(rank));
    for (const c of clients) await pmi1(c);
    clients[2]!.send('cmd=barrier_in\n');
    await settle();
    step.nodes[0]!.close();
    await settle();
    expect(step.aborts).toContainEqual({ message: 'mpi/pmi2: a fence cannot complete: lost the PMI link to n0', error: true });
  });

  it('tsrun reports a lost child of its own', async () => {
    step = await makeStep(threeNodes, 2);
    const clients = [0, 1, 2].map((rank) => step!.connect(rank));
    for (const c of clients) await pmi1(c);
    for (const c of [clients[0]!, clients[2]!]) c.send('cmd=barrier_in\n');
    await settle();
    step.nodes[1]!.close();
    await settle();
    expect(step.aborts).toEqual([{ message: 'coordinator: a fence cannot complete: lost the PMI link to n1', error: true }]);
  });

  it('a node lost outside a fence fails the next fence, not the step at once', async () => {
    step = await makeStep(threeNodes, 2);
    const clients = [0, 1, 2].map((rank) => step!.connect(rank));
    for (const c of clients) await pmi1(c);
    step.nodes[2]!.close();
    await settle();
    expect(step.aborts).toEqual([]);
    clients[1]!.send('cmd=barrier_in\n');
    await settle();
    expect(step.aborts).toEqual([{ message: 'coordinator: a fence cannot complete: lost the PMI link to n2', error: true }]);
  });
});
