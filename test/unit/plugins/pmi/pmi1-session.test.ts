// A PMI-1 session as MPICH 4.0.2 runs it (the transcript in the PMI findings): every request
// and answer, across two nodes, with the fences that make puts visible.
import { afterEach, describe, expect, it } from 'vitest';
import { makeStep, settle, type Client } from './helpers.js';

let step: Awaited<ReturnType<typeof makeStep>>;
afterEach(() => step?.close());

async function ask(client: Client, request: string): Promise<string> {
  client.send(`${request}\n`);
  return client.line();
}

describe('PMI-1', () => {
  it('answers init, maxes, appnum, kvsname, universe size and the mapping as Slurm does', async () => {
    step = await makeStep([[0, 1]]);
    const c = step.connect(0);
    expect(await ask(c, 'cmd=init pmi_version=1 pmi_subversion=1')).toBe('cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0');
    expect(await ask(c, 'cmd=get_maxes')).toBe('cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024');
    expect(await ask(c, 'cmd=get_appnum')).toBe('cmd=appnum rc=0 appnum=-1');
    expect(await ask(c, 'cmd=get_my_kvsname')).toBe(`cmd=my_kvsname rc=0 kvsname=${step.key}`);
    expect(await ask(c, 'cmd=get_universe_size')).toBe('cmd=universe_size rc=0 size=2');
    expect(await ask(c, `cmd=get kvsname=${step.key} key=PMI_process_mapping`)).toBe('cmd=get_result rc=0 value=(vector,(0,1,1))');
    expect(await ask(c, `cmd=get kvsname=${step.key} key=nothing`)).toBe('cmd=get_result rc=1');
  });

  it('answers an init for another version with rc=-1', async () => {
    step = await makeStep([[0]]);
    expect(await ask(step.connect(0), 'cmd=init pmi_version=3 pmi_subversion=0')).toBe(
      'cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1',
    );
  });

  it('makes puts visible on every node after the barrier, and only then', async () => {
    step = await makeStep([[0, 1], [2]]);
    const clients = [0, 1, 2].map((rank) => step.connect(rank));
    for (const c of clients) await ask(c, 'cmd=init pmi_version=1 pmi_subversion=1');
    for (const [rank, c] of clients.entries()) {
      expect(await ask(c, `cmd=put kvsname=k key=-allgather-shm-1-${rank} value=card ${rank}`)).toBe('cmd=put_result rc=0');
    }
    expect(await ask(clients[0]!, 'cmd=get kvsname=k key=-allgather-shm-1-2')).toBe('cmd=get_result rc=1');

    clients[0]!.send('cmd=barrier_in\n');
    clients[2]!.send('cmd=barrier_in\n');
    await settle();
    expect(clients.map((c) => c.unread)).toEqual(['', '', '']); // task 1 is not in yet
    clients[1]!.send('cmd=barrier_in\n');
    for (const c of clients) expect(await c.line()).toBe('cmd=barrier_out rc=0');

    for (const c of clients) {
      for (const rank of [0, 1, 2]) {
        expect(await ask(c, `cmd=get kvsname=k key=-allgather-shm-1-${rank}`)).toBe(`cmd=get_result rc=0 value=card ${rank}`);
      }
    }
    expect(step.coordinator.snapshot()).toContainEqual(['-allgather-shm-1-2', 'card 2']);
  });

  it('runs several fences in a row, each with its own puts', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    for (const c of [a, b]) await ask(c, 'cmd=init pmi_version=1 pmi_subversion=1');
    for (let round = 0; round < 3; round += 1) {
      await ask(a, `cmd=put kvsname=k key=round${round} value=${round}`);
      a.send('cmd=barrier_in\n');
      b.send('cmd=barrier_in\n');
      expect([await a.line(), await b.line()]).toEqual(['cmd=barrier_out rc=0', 'cmd=barrier_out rc=0']);
      expect(await ask(b, `cmd=get kvsname=k key=round${round}`)).toBe(`cmd=get_result rc=0 value=${round}`);
    }
  });

  it('keeps values near vallen_max, with spaces and any byte, intact', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    for (const c of [a, b]) await ask(c, 'cmd=init pmi_version=1 pmi_subversion=1');
    const value = `${'0123456789ABCDEF'.repeat(63)} \u00e9 x=y`; // 1014 characters
    await ask(a, `cmd=put kvsname=k key=big value=${value}`);
    a.send('cmd=barrier_in\n');
    b.send('cmd=barrier_in\n');
    await Promise.all([a.line(), b.line()]);
    expect(await ask(b, 'cmd=get kvsname=k key=big')).toBe(`cmd=get_result rc=0 value=${value}`);
  });

  it('handles requests that arrive split byte by byte or several in one read', async () => {
    step = await makeStep([[0]]);
    const c = step.connect(0);
    for (const byte of 'cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\n') c.send(byte);
    expect(await c.line()).toBe('cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0');
    expect(await c.line()).toBe('cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024');
    c.send('cmd=put kvsname=k key=a value=1\ncmd=barrier_in\ncmd=get kvsname=k key=a\ncmd=finalize\n');
    expect([await c.line(), await c.line(), await c.line(), await c.line()]).toEqual([
      'cmd=put_result rc=0',
      'cmd=barrier_out rc=0',
      'cmd=get_result rc=0 value=1',
      'cmd=finalize_ack rc=0',
    ]);
  });

  it('answers finalize and closes the connection; the end that follows is normal', async () => {
    step = await makeStep([[0, 1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    for (const c of [a, b]) await ask(c, 'cmd=init pmi_version=1 pmi_subversion=1');
    for (const c of [a, b]) c.send('cmd=barrier_in\n');
    for (const c of [a, b]) await c.line();
    for (const c of [a, b]) expect(await ask(c, 'cmd=finalize')).toBe('cmd=finalize_ack rc=0');
    await settle();
    expect(a.ended && b.ended).toBe(true);
    for (const c of [a, b]) c.socket.end();
    await settle();
    expect(step.aborts).toEqual([]);
  });
});
