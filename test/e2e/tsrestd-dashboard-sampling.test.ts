// tsrestd's dashboard sampler asks the controller for its nodes and jobs only while a page
// watches: API requests alone cause no polls (counted by the controller's own request figures,
// sdiag's), a page's feed does, and once it closes they stop. A page opened again gets what it
// showed before: the samples of the first watch, a picture taken as it opens, and the end of a
// job that ran while nobody watched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture } from '../helpers/run-bin.js';

interface Feed {
  welcome: Promise<{ state: { now: number } | null; history: Array<{ t: number }>; ends: Array<{ jobId: number; state: string }> }>;
  states: number;
  close(): void;
}

function openFeed(url: string, user: string, token: string): Feed {
  let text = '';
  let welcomed: (data: never) => void = () => {};
  const feed: Feed = { welcome: new Promise((resolve) => (welcomed = resolve)), states: 0, close: () => request.destroy() };
  const request = http.get(`${url}/dashboard/events`, { headers: { 'X-SLURM-USER-NAME': user, 'X-SLURM-USER-TOKEN': token } }, (response) => {
    response.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const frame = text.slice(0, end);
        text = text.slice(end + 2);
        const [, event, data] = /^event: (\w+)\ndata: (.*)$/s.exec(frame) ?? [];
        if (event === 'welcome') welcomed(JSON.parse(data!) as never);
        if (event === 'state') feed.states += 1;
      }
    });
    response.on('error', () => {});
  });
  request.on('error', () => {});
  return feed;
}

/** How many `cluster_info` requests the controller has served (its sdiag figures, over its socket). */
function clusterInfoCount(stateDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path.join(stateDir, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: 256, id: 1, op: 'diag', body: {} })}\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (!text.includes('\n')) return;
      socket.end();
      const body = (JSON.parse(text) as { body: { rpcsByOp: Array<{ op: string; count: number }> } }).body;
      resolve(body.rpcsByOp.find((r) => r.op === 'cluster_info')?.count ?? 0);
    });
    socket.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the dashboard sampler', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  let restd: TestRestd;
  const feeds: Feed[] = [];

  beforeAll(async () => {
    restd = await startRestd(ctl, [], { TSRESTD_DASHBOARD_INTERVAL: '0.2' });
  });
  afterAll(async () => {
    feeds.forEach((feed) => feed.close());
    await restd?.stop();
    await ctl.stop();
  });

  it('polls the controller only while a page watches, and a page opened again finds what it showed', async () => {
    // An API request starts the controller; with no page open, nothing polls it.
    expect((await restd.request('/slurm/v0.0.38/ping')).status).toBe(200);
    const quiet = await clusterInfoCount(ctl.stateDir);
    await sleep(2000);
    expect(await clusterInfoCount(ctl.stateDir)).toBe(quiet);

    const token = /^SLURM_JWT=(\S+)\n$/.exec((await ctl.run('tscontrol', ['token'])).stdout)![1]!;
    const first = openFeed(restd.url, 'root', token);
    feeds.push(first);
    await ctl.until(() => first.states >= 5, 20_000);
    expect(await clusterInfoCount(ctl.stateDir)).toBeGreaterThanOrEqual(quiet + 5);
    first.close();
    // The last poll under way when it closed may still come; then none.
    await sleep(1000);
    const closed = await clusterInfoCount(ctl.stateDir);
    await sleep(2000);
    expect(await clusterInfoCount(ctl.stateDir)).toBe(closed);

    // A job runs and ends while nobody watches.
    const ran = await ctl.run('tsbatch', ['--parsable', '--wait', '--wrap=true']);
    expect(ran.exitCode).toBe(0);
    const jobId = Number(ran.stdout.trim());
    const reopened = Date.now();
    const second = openFeed(restd.url, 'root', token);
    feeds.push(second);
    const welcome = await second.welcome;
    // The samples of the first watch, and a picture taken as the page opened.
    expect(welcome.history.length).toBeGreaterThanOrEqual(5);
    expect(welcome.state!.now).toBeGreaterThanOrEqual(reopened);
    expect(welcome.ends.find((end) => end.jobId === jobId)?.state).toBe('COMPLETED');
  });
});
