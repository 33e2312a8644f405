// The dashboard with a thousand nodes and a thousand jobs (thousand-nodes.yaml: 100 jobs
// running, 900 held, 20 nodes drained) in Debian's chromium: every node has its cell and
// colour, every job is counted and reachable in its table (a long table draws the rows near
// the screen, the rest stand in spacers of their height), and scrolling brings the last job's
// row. How long the page took is printed, never judged (bench/dashboard.js measures it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CtldClient } from '../../src/client/ctld-client.js';
import { jobDescriptor } from '../../src/protocol/job-desc-defaults.js';
import type { JobView } from '../../src/protocol/job-view.js';
import { JOB_COMPLETING } from '../../src/plugin-api/records.js';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';
import { CHROMIUM, chromiumArgs, startDashboardServer, type DashboardServer } from '../helpers/dashboard-server.js';

// What the functions run in the page use (the project's type-check has no DOM library).
interface El {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { height: number; bottom: number };
  scrollIntoView(): void;
  textContent: string | null;
}
declare const document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El>; getElementById(id: string): El | null };
declare const performance: { getEntriesByName(name: string): Array<{ startTime: number; duration: number }> };
declare const window: { innerHeight: number; scrollBy(x: number, y: number): void };

const cluster = fixture('clusters', 'thousand-nodes.yaml');
const artifacts = path.join(repoRoot, 'test-artifacts', 'dashboard');
const RUNNING = 100;
const HELD = 900;
const haveChromium = existsSync(CHROMIUM);
const title = haveChromium ? 'the dashboard with 1,000 nodes and 1,000 jobs' : `the dashboard with 1,000 nodes and 1,000 jobs (skipped: no browser at ${CHROMIUM})`;

describe.skipIf(!haveChromium)(title, () => {
  let ctl: TestController;
  let server: DashboardServer;
  let browser: Browser;
  let page: Page;
  let ids: number[] = [];
  let queue: Settled | undefined;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    ctl = testController();
    const started = await ctl.run('tsctld', ['--cluster', cluster]);
    if (started.exitCode !== 0) throw new Error(`tsctld did not start: ${started.stderr}`);
    // A thousand submissions straight over the socket (the request tsbatch sends), 50 at a time.
    const client = await CtldClient.connect(path.join(ctl.stateDir, 'tsctld.sock'));
    try {
      const submit = async (i: number): Promise<number> => {
        const hold = i >= RUNNING;
        const desc = jobDescriptor({
          script: '#!/bin/sh\nsleep 300\n',
          name: hold ? `held${i % 50}` : `run${i}`,
          workDir: ctl.workDir,
          environment: [`PATH=${process.env.PATH ?? '/usr/bin:/bin'}`],
          timeLimit: 30,
          hold,
          userId: process.getuid?.() ?? 0,
          groupId: process.getgid?.() ?? 0,
          userName: userInfo().username,
          submitHost: 'localhost',
          submitDir: ctl.workDir,
        });
        return (await client.call<{ jobId: number }>('submit', { desc, testOnly: false })).jobId;
      };
      for (let i = 0; i < RUNNING + HELD; i += 50) ids.push(...(await Promise.all(Array.from({ length: 50 }, (_, k) => submit(i + k)))));
    } finally {
      client.close();
    }
    const drained = await ctl.run('tscontrol', ['--cluster', cluster, 'update', 'NodeName=c[0941-0960]', 'State=DRAIN', 'Reason=maintenance']);
    if (drained.exitCode !== 0) throw new Error(drained.stderr);
    // The queue settled: every job running, held, or over (a batch step that fails to start on
    // a loaded machine ends its job, or holds it), the same at two looks a second apart.
    let last = '';
    for (const end = Date.now() + 300_000; ; ) {
      queue = await settledQueue(ctl);
      const key = queue ? JSON.stringify(queue) : '';
      if (queue && key === last) break;
      last = key;
      if (Date.now() > end) throw new Error(`the queue did not settle (${unsettled})`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    server = await startDashboardServer(ctl, cluster, 1);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs() });
    // A first page waits for the server's sampler to see that queue.
    const warm = await browser.newPage();
    await warm.goto(server.tokenAddress);
    await warm.waitForFunction(
      ([running, pending]) =>
        document.getElementById('running-count')?.textContent === String(running) &&
        document.getElementById('pending-count')?.textContent === String(pending) &&
        document.querySelectorAll('#nodes li').length === 1000,
      [queue!.running.length, queue!.pending.length],
      { timeout: 120_000 },
    );
    await warm.close();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (ids.length > 0) await ctl?.run('tscancel', ids.map(String));
    await ctl?.stop();
  });

  it('draws every node and counts every job at the first picture, and prints how long that took', { timeout: 120_000 }, async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.tokenAddress);
    await page.waitForFunction(() => performance.getEntriesByName('dashboard-drawn').length > 0, undefined, { timeout: 60_000 });
    const first = await page.evaluate(() => ({
      drawnAt: performance.getEntriesByName('dashboard-drawn')[0]!.startTime,
      drawMs: performance.getEntriesByName('dashboard-draw')[0]!.duration,
      nodes: document.querySelectorAll('#nodes li').length,
      running: document.getElementById('running-count')!.textContent,
      pending: document.getElementById('pending-count')!.textContent,
      nodeCount: document.getElementById('node-count')!.textContent,
    }));
    console.log(`dashboard, 1,000 nodes and 1,000 jobs: first full picture ${first.drawnAt.toFixed(0)} ms after navigation, its drawing ${first.drawMs.toFixed(0)} ms (printed, not judged)`);
    expect([first.nodes, first.nodeCount, first.running, first.pending]).toEqual([1000, '1000', String(queue!.running.length), String(queue!.pending.length)]);
    // Most jobs submitted are there (the rest failed to start on a loaded machine and ended).
    expect(queue!.running.length + queue!.pending.length).toBeGreaterThan(0.9 * (RUNNING + HELD));

    const states = await page.locator('#nodes li').evaluateAll((cells) => {
      const count: Record<string, number> = {};
      for (const c of cells) count[c.getAttribute('class')!] = (count[c.getAttribute('class')!] ?? 0) + 1;
      return count;
    });
    // Each running job holds one CPU of one node: those nodes are in use, 20 drained, the rest idle.
    const inUse = new Set(queue!.running.map(([, node]) => node)).size;
    expect(states['node s-drained']).toBe(20);
    expect((states['node s-allocated'] ?? 0) + (states['node s-mixed'] ?? 0)).toBe(inUse);
    expect(states['node s-idle']).toBe(1000 - 20 - inUse);
    expect(await page.locator('#nodes li[data-node="c0950"]').getAttribute('title')).toMatch(/^c0950: DRAINED, CPUs 0\/1, memory 0M\/1000M — maintenance$/);
    await page.screenshot({ path: path.join(artifacts, 'thousand.png') });
  });

  it('has a row for each running job and reaches each pending one by scrolling', { timeout: 120_000 }, async () => {
    const running = await page.locator('#running tr[data-job]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-job'))));
    expect(running.sort((a, b) => a - b)).toEqual(queue!.running.map(([id]) => id));
    expect(await page.locator('#running tr[data-job] .bar[role="progressbar"]').count()).toBe(queue!.running.length);

    // The pending table is as tall as 900 rows while drawing only some of them.
    const table = await page.evaluate(() => {
      const rows = document.querySelectorAll('#pending tr[data-job]');
      const row = rows[0]!.getBoundingClientRect().height;
      return { drawn: rows.length, row, height: document.getElementById('pending')!.getBoundingClientRect().height };
    });
    expect(table.drawn).toBeGreaterThan(0);
    expect(table.drawn).toBeLessThan(queue!.pending.length);
    expect(Math.round(table.height)).toBe(Math.round(queue!.pending.length * table.row));
    expect(await page.locator('#pending tr[data-job] .reason', { hasText: /^JobHeld(User|Admin)$/ }).count()).toBe(table.drawn);

    // Scrolling down the page brings the last pending job's row, with its Release button.
    const last = queue!.pending[queue!.pending.length - 1]!;
    for (let i = 0; i < 100 && (await page.locator(`#pending tr[data-job="${last}"]`).count()) === 0; i++) {
      await page.mouse.wheel(0, 2000);
      await page.waitForTimeout(50);
    }
    await page.locator(`#pending tr[data-job="${last}"] button[data-action="release"]`).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(artifacts, 'thousand-scrolled.png') });
  });
});

interface Settled {
  /** Job id and node of each running job, by id. */
  running: Array<[number, string]>;
  /** Ids of the held jobs, by id. */
  pending: number[];
}

/** The last job found on its way (for the message of a queue that does not settle). */
let unsettled = '';

/** The queue when every job is running, held or over; undefined while one is on its way. */
async function settledQueue(ctl: TestController): Promise<Settled | undefined> {
  const client = await CtldClient.connect(path.join(ctl.stateDir, 'tsctld.sock'));
  try {
    const views = await client.call<JobView[]>('jobs', {});
    const running: Array<[number, string]> = [];
    const pending: number[] = [];
    for (const view of views) {
      const base = view.state & 0xff;
      if (base === 1 && (view.state & JOB_COMPLETING) === 0) running.push([view.jobId, view.nodes ?? '']);
      // Held: by the submission, or by the controller after a launch that failed (JobHeldAdmin).
      else if (base === 0 && view.reason.startsWith('JobHeld')) pending.push(view.jobId);
      else if (base <= 2 || (view.state & JOB_COMPLETING) !== 0) {
        unsettled = `job ${view.jobId} state ${view.state} reason ${view.reason}`;
        return undefined;
      }
    }
    return { running: running.sort((a, b) => a[0] - b[0]), pending: pending.sort((a, b) => a - b) };
  } finally {
    client.close();
  }
}
