// tsrestd does not keep a controller started on demand from its idle exit: with no job to look
// after, a controller with tsrestd attached and a dashboard page watching (its feed polled
// every 0.3 s) still exits after TSLURM_CTLD_IDLE_EXIT; the page then says the controller is
// away, the polls do not start one, and the next API request does, as a command would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture } from '../helpers/run-bin.js';

interface Feed {
  /** The `error` of each `state` event so far (null: the controller answered). */
  errors: Array<string | null>;
  close(): void;
}

function openFeed(url: string, user: string, token: string): Feed {
  const errors: Array<string | null> = [];
  let text = '';
  const request = http.get(`${url}/dashboard/events`, { headers: { 'X-SLURM-USER-NAME': user, 'X-SLURM-USER-TOKEN': token } }, (response) => {
    response.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const frame = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^event: state\ndata: (.*)$/s.exec(frame)?.[1];
        if (data !== undefined) errors.push((JSON.parse(data) as { error: string | null }).error);
      }
    });
    response.on('error', () => {});
  });
  request.on('error', () => {});
  return { errors, close: () => request.destroy() };
}

describe('tsrestd and the idle exit of a controller started on demand', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml'), TSLURM_CTLD_IDLE_EXIT: '2' });
  let restd: TestRestd;
  let feed: Feed | undefined;

  const controllerPid = (): number | undefined => {
    const file = path.join(ctl.stateDir, 'tsctld.pid');
    if (!existsSync(file)) return undefined;
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  };

  beforeAll(async () => {
    restd = await startRestd(ctl, [], { TSRESTD_DASHBOARD_INTERVAL: '0.3' });
  });
  afterAll(async () => {
    feed?.close();
    await restd?.stop();
    await ctl.stop();
  });

  it('lets the controller exit while a page watches, and starts one again for the next request', async () => {
    // The first request starts a controller, as tsbatch would.
    const ping = await restd.request('/slurm/v0.0.38/ping');
    expect([ping.status, ping.json.pings[0].ping]).toEqual([200, 'UP']);
    const first = controllerPid();
    expect(first).toBeDefined();

    const token = /^SLURM_JWT=(\S+)\n$/.exec((await ctl.run('tscontrol', ['token'])).stdout)![1]!;
    feed = openFeed(restd.url, 'root', token);
    await ctl.until(() => feed!.errors.includes(null), 20_000);

    // Idle for 2 s with only tsrestd and its polls attached: the controller goes.
    await ctl.until(() => controllerPid() === undefined, 40_000);
    // The page learns it; several polls later still no controller was started for them.
    const seen = feed.errors.length;
    await ctl.until(() => feed!.errors.length >= seen + 3 && feed!.errors.slice(-3).every((error) => error !== null), 20_000);
    expect(feed.errors.at(-1)).toMatch(/Unable to contact slurm controller/);
    expect(controllerPid()).toBeUndefined();

    // An API request needs the controller: it is started again, and the page sees it.
    const jobs = await restd.request('/slurm/v0.0.38/jobs');
    expect([jobs.status, jobs.json.errors]).toEqual([200, []]);
    const second = controllerPid();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const after = feed.errors.length;
    await ctl.until(() => feed!.errors.slice(after).includes(null), 20_000);
  }, 120_000);
});
