// How a step ends instead of hanging: a task that aborts, one that closes its connection
// before finalize, one that never uses PMI while the others wait in a fence (on its node or
// another), and a task that breaks the protocol. Each ends the whole step once.
import { afterEach, describe, expect, it } from 'vitest';
import { frame, makeStep, settle, type Client } from './helpers.js';

let step: Awaited<ReturnType<typeof makeStep>>;
afterEach(() => step?.close());

async function pmi1(client: Client): Promise<void> {
  client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
  await client.line();
}

describe('ending the step', () => {
  it('PMI-1 abort: no answer, the step is aborted once, without an error line', async () => {
    step = await makeStep([[0, 1], [2]]);
    const clients = [0, 1, 2].map((rank) => step.connect(rank));
    for (const c of clients) await pmi1(c);
    clients[1]!.send('cmd=abort exitcode=3\n');
    await settle();
    expect(step.aborts).toEqual([{ message: 'mpi/pmi2: task 1 aborted the step through PMI (exit code 3)', error: false }]);
    expect(clients[1]!.unread).toBe('');
    // The kill closes the node's connections: its server says nothing more. (Other nodes may
    // still report their lost tasks; the host ignores every abort after the first.)
    for (const c of clients.slice(0, 2)) c.socket.destroy();
    await settle();
    expect(step.aborts).toHaveLength(1);
  });

  it('PMI-2 abort ends the step too', async () => {
    step = await makeStep([[0, 1]]);
    const c = step.connect(0);
    c.send('cmd=init pmi_version=2 pmi_subversion=0\n');
    await c.line();
    c.send(frame('cmd=abort;isworldabort=TRUE;msg=bad;;input;'));
    await settle();
    expect(step.aborts).toEqual([{ message: 'mpi/pmi2: task 0 aborted the step through PMI ("bad;input")', error: false }]);
  });

  it('a task that closes its connection after init and before finalize fails the step', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    await pmi1(a);
    await pmi1(b);
    a.send('cmd=barrier_in\n');
    b.socket.end(); // task 1 died
    await settle();
    expect(step.aborts).toEqual([{ message: 'mpi/pmi2: task 1 closed its PMI connection before finalize', error: true }]);
  });

  it('a task alone in its step may exit without finalize (MPICH aborts a single rank that way)', async () => {
    step = await makeStep([[0]]);
    const c = step.connect(0);
    await pmi1(c);
    c.socket.end();
    await settle();
    expect(step.aborts).toEqual([]);
  });

  it('a task that never uses PMI is fine until the others need it in a fence (same node)', async () => {
    step = await makeStep([[0, 1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    b.socket.end(); // `true` in a --multi-prog step
    step.exit(1);
    await settle();
    expect(step.aborts).toEqual([]);
    await pmi1(a);
    a.send('cmd=barrier_in\n');
    await settle();
    expect(step.aborts).toEqual([{ message: 'mpi/pmi2: a fence cannot complete: task 1 ended without using PMI', error: true }]);
  });

  it('... and when it ends while the others already wait (another node): the coordinator sees it', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    await pmi1(a);
    a.send('cmd=barrier_in\n');
    await settle();
    expect(step.aborts).toEqual([]);
    b.socket.end();
    step.exit(1);
    await settle();
    expect(step.aborts).toEqual([
      { message: 'coordinator: a fence cannot complete: task 1 ended without using PMI', error: true },
    ]);
  });

  it('a task that closes its fd 3 unused is not out while it runs: it may come back through PMI_PORT', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    await pmi1(a);
    a.send('cmd=barrier_in\n');
    b.socket.end(); // the wrapper's `exec 3>&-`
    await settle();
    expect(step.aborts).toEqual([]);
    const again = step.connect(1);
    await pmi1(again);
    again.send('cmd=barrier_in\n');
    expect([await a.line(), await again.line()]).toEqual(['cmd=barrier_out rc=0', 'cmd=barrier_out rc=0']);
    step.exit(1); // it used PMI: its exit says nothing more
    await settle();
    expect(step.aborts).toEqual([]);
  });

  it('a second live connection of the same task is refused', async () => {
    step = await makeStep([[0, 1]]);
    const [a, again] = [step.connect(0), step.connect(0)];
    await pmi1(a);
    again.send('cmd=init pmi_version=1 pmi_subversion=1\n');
    await settle();
    expect(step.aborts).toEqual([{ message: 'mpi/pmi2: task 0: a second PMI connection while the first is open', error: true }]);
  });

  it('a task that finalized cannot be waited for in a later fence', async () => {
    step = await makeStep([[0], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    await pmi1(a);
    await pmi1(b);
    b.send('cmd=finalize\n');
    await b.line();
    await settle();
    a.send('cmd=barrier_in\n');
    await settle();
    expect(step.aborts.map((x) => x.message)).toEqual(['coordinator: a fence cannot complete: task 1 has finalized']);
  });

  it('nodes without tasks take no part in fences', async () => {
    step = await makeStep([[0], [], [1]]);
    const [a, b] = [step.connect(0), step.connect(1)];
    await pmi1(a);
    await pmi1(b);
    a.send('cmd=barrier_in\n');
    b.send('cmd=barrier_in\n');
    expect([await a.line(), await b.line()]).toEqual(['cmd=barrier_out rc=0', 'cmd=barrier_out rc=0']);
    expect(step.aborts).toEqual([]);
  });

  it.each([
    ['a first message that is not init', 'hello\n', 'task 0: expected cmd=init, got "hello"'],
    ['an unsupported request', 'cmd=init pmi_version=1 pmi_subversion=1\ncmd=getbyidx kvsname=k idx=0\n', 'task 0: unsupported PMI-1 request "cmd=getbyidx"'],
    [
      'a request after finalize',
      'cmd=init pmi_version=1 pmi_subversion=1\ncmd=finalize\ncmd=get_maxes\n',
      'task 0: request after finalize',
    ],
    ['a PMI-2 frame with a bad length', 'cmd=init pmi_version=2 pmi_subversion=0\nabcdefgh', 'task 0: bad PMI-2 length "abcdef"'],
  ])('%s fails the step with an error', async (_what, wire, message) => {
    step = await makeStep([[0, 1]]);
    const c = step.connect(0);
    c.send(wire);
    await settle();
    expect(step.aborts).toEqual([{ message: `mpi/pmi2: ${message}`, error: true }]);
  });
});
