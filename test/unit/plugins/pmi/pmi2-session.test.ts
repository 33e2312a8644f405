// A PMI-2 session as Slurm's libpmi2 runs it: the init line, then frames; ';' escaped as ";;"
// both ways; node attributes, with wait=TRUE answered only once a task of the node puts the key.
import { afterEach, describe, expect, it } from 'vitest';
import { frame, makeStep, settle, type Client } from './helpers.js';

let step: Awaited<ReturnType<typeof makeStep>>;
afterEach(() => step?.close());

async function init(client: Client): Promise<void> {
  client.send('cmd=init pmi_version=2 pmi_subversion=0\n');
  expect(await client.line()).toBe('cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0');
}

async function ask(client: Client, payload: string): Promise<string> {
  client.send(frame(payload));
  return client.frame();
}

describe('PMI-2', () => {
  it('answers fullinit, job-getid and the job attributes as Slurm does', async () => {
    step = await makeStep([[0, 1], [2]]);
    const c = step.connect(2);
    await init(c);
    expect(await ask(c, `cmd=fullinit;pmijobid=${step.key};pmirank=2;threaded=FALSE;`)).toBe(
      '114   cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=2;size=3;appnum=-1;debugged=FALSE;pmiverbose=FALSE;',
    );
    expect(await ask(c, 'cmd=job-getid;')).toBe(frame(`cmd=job-getid-response;rc=0;jobid=${step.key};`));
    expect(await ask(c, 'cmd=info-getjobattr;key=PMI_process_mapping;')).toBe(
      frame('cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,1,1));'),
    );
    expect(await ask(c, 'cmd=info-getjobattr;key=universeSize;')).toBe(
      frame('cmd=info-getjobattr-response;rc=0;found=TRUE;value=3;'),
    );
    expect(await ask(c, 'cmd=info-getjobattr;key=PMI_netinfo_of_task;')).toBe(
      frame('cmd=info-getjobattr-response;rc=0;found=FALSE;'),
    );
  });

  it('puts, fences and gets across nodes, values with ";" intact', async () => {
    step = await makeStep([[0, 1], [2]]);
    const clients = [0, 1, 2].map((rank) => step.connect(rank));
    for (const c of clients) await init(c);
    for (const [rank, c] of clients.entries()) {
      expect(await ask(c, `cmd=kvs-put;key=card-${rank};value=addr;;of;;rank=${rank};;;`)).toBe('26    cmd=kvs-put-response;rc=0;');
    }
    for (const c of clients) c.send(frame('cmd=kvs-fence;'));
    for (const c of clients) expect(await c.frame()).toBe('28    cmd=kvs-fence-response;rc=0;');
    for (const c of clients) {
      for (const rank of [0, 1, 2]) {
        expect(await ask(c, `cmd=kvs-get;jobid=${step.key};srcid=-1;key=card-${rank};`)).toBe(
          frame(`cmd=kvs-get-response;rc=0;found=TRUE;value=addr;;of;;rank=${rank};;;`),
        );
      }
    }
    expect(await ask(clients[0]!, 'cmd=kvs-get;jobid=x;srcid=-1;key=missing;')).toBe(frame('cmd=kvs-get-response;rc=0;found=FALSE;'));
  });

  it('parses frames split anywhere and several frames in one read', async () => {
    step = await makeStep([[0]]);
    const c = step.connect(0);
    const wire =
      'cmd=init pmi_version=2 pmi_subversion=0\n' +
      frame('cmd=kvs-put;key=a;value=1;;2;') +
      frame('cmd=kvs-fence;') +
      frame('cmd=kvs-get;jobid=j;srcid=-1;key=a;');
    for (let i = 0; i < wire.length; i += 7) c.send(wire.slice(i, i + 7));
    expect(await c.line()).toBe('cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0');
    expect(await c.frame()).toBe(frame('cmd=kvs-put-response;rc=0;'));
    expect(await c.frame()).toBe(frame('cmd=kvs-fence-response;rc=0;'));
    expect(await c.frame()).toBe(frame('cmd=kvs-get-response;rc=0;found=TRUE;value=1;;2;'));
  });

  it('keeps node attributes on their node and queues wait=TRUE until a local task puts the key', async () => {
    step = await makeStep([[0, 1], [2]]);
    const [a, b, other] = [0, 1, 2].map((rank) => step.connect(rank)) as [Client, Client, Client];
    for (const c of [a, b, other]) await init(c);
    expect(await ask(b, 'cmd=info-getnodeattr;key=leader;wait=FALSE;')).toBe(frame('cmd=info-getnodeattr-response;rc=0;found=FALSE;'));

    b.send(frame('cmd=info-getnodeattr;key=leader;wait=TRUE;'));
    b.send(frame('cmd=job-getid;')); // waits behind the queued request
    await settle();
    expect(b.unread).toBe('');

    expect(await ask(a, 'cmd=info-putnodeattr;key=leader;value=rank;;0;')).toBe(frame('cmd=info-putnodeattr-response;rc=0;'));
    expect(await b.frame()).toBe(frame('cmd=info-getnodeattr-response;rc=0;found=TRUE;value=rank;;0;'));
    expect(await b.frame()).toBe(frame(`cmd=job-getid-response;rc=0;jobid=${step.key};`));
    // Another node does not see it.
    expect(await ask(other, 'cmd=info-getnodeattr;key=leader;wait=FALSE;')).toBe(frame('cmd=info-getnodeattr-response;rc=0;found=FALSE;'));
  });

  it('answers finalize and closes; a normal end aborts nothing', async () => {
    step = await makeStep([[0]]);
    const c = step.connect(0);
    await init(c);
    expect(await ask(c, 'cmd=finalize;')).toBe('27    cmd=finalize-response;rc=0;');
    await settle();
    expect(c.ended).toBe(true);
    expect(step.aborts).toEqual([]);
  });
});
