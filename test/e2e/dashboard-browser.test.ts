// The dashboard in a real browser (Debian's chromium driven by playwright-core) against a live
// controller running real jobs on dashboard.yaml: the grid's colours follow jobs starting and
// ending, Cancel and Hold on the page act on the controller through the v0.0.38 API, the chart
// draws, and the layout fits a phone. Screenshots go to test-artifacts/dashboard/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';
import { CHROMIUM, chromiumArgs, startDashboardServer, type DashboardServer } from '../helpers/dashboard-server.js';

// What the functions run in the page use (the project's type-check has no DOM library).
declare const document: { querySelector(s: string): { getAttribute(n: string): string | null } | null; querySelectorAll(s: string): { length: number }; documentElement: { scrollWidth: number }; getElementById(id: string): { textContent: string | null } | null; head: { lastElementChild: { remove(): void } | null } };
declare const window: { innerWidth: number };
declare const sessionStorage: { length: number };
declare function getComputedStyle(element: unknown): { backgroundColor: string };

const cluster = fixture('clusters', 'dashboard.yaml');
const artifacts = path.join(repoRoot, 'test-artifacts', 'dashboard');
const haveChromium = existsSync(CHROMIUM);
const title = haveChromium ? 'the dashboard in chromium' : `the dashboard in chromium (skipped: no browser at ${CHROMIUM}; apt-get install chromium)`;
if (!haveChromium) console.warn(`dashboard-browser: skipped, no chromium at ${CHROMIUM} (apt-get install chromium, or TSLURM_CHROMIUM=path)`);

describe.skipIf(!haveChromium)(title, () => {
  let ctl: TestController;
  let server: DashboardServer;
  let browser: Browser;
  let page: Page;

  const submit = async (...args: string[]): Promise<number> => {
    const out = await ctl.run('tsbatch', ['--cluster', cluster, ...args]);
    const id = /Submitted batch job (\d+)/.exec(out.stdout)?.[1];
    if (!id) throw new Error(`tsbatch failed: ${out.stderr}`);
    return Number(id);
  };
  const cell = (node: string) => page.locator(`#nodes li[data-node="${node}"]`);
  const colour = (node: string) => cell(node).evaluate((el) => getComputedStyle(el).backgroundColor);
  const waitState = (node: string, state: string) =>
    page.waitForFunction(([n, s]) => document.querySelector(`#nodes li[data-node="${n}"]`)?.getAttribute('data-state') === s, [node, state], { timeout: 30_000 });
  const shot = (name: string) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    // Ended jobs stay in the controller's list a while, so the page sees how they ended.
    ctl = testController({ TSLURM_MIN_JOB_AGE: '300' });
    server = await startDashboardServer(ctl, cluster);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs() });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(server.address);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'live', undefined, { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('#nodes li').length === 4, undefined, { timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await ctl?.stop();
  });

  it('takes the credentials out of the address and shows every node with its state written on it', async () => {
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    const states = await page.locator('#nodes li').evaluateAll((cells) => cells.map((c) => [c.getAttribute('data-node'), c.querySelector('.state')?.textContent]));
    expect(states).toEqual([
      ['node1', 'IDLE'],
      ['node2', 'IDLE'],
      ['node3', 'IDLE'],
      ['node4', 'IDLE'],
    ]);
  });

  it('turns a node from idle to allocated when a job starts on it, and back when it ends, and logs the end', async () => {
    const idle = await colour('node1');
    const id = await submit('-w', 'node1', '-n1', '-t', '2', '--wrap', 'sleep 4');
    await waitState('node1', 'ALLOCATED');
    const allocated = await colour('node1');
    expect(allocated).not.toBe(idle);
    expect(await cell('node1').getAttribute('title')).toMatch(/^node1: ALLOCATED, CPUs 1\/1/);
    await page.locator(`#running tr[data-job="${id}"]`).waitFor();
    await shot('job-running');
    await waitState('node1', 'IDLE');
    expect(await colour('node1')).toBe(idle);
    await page.locator(`#ends li[data-job="${id}"] .state`, { hasText: 'COMPLETED' }).waitFor({ timeout: 30_000 });
  });

  it('cancels a running job from its Cancel button', async () => {
    const id = await submit('-w', 'node2', '-n1', '--wrap', 'sleep 300');
    await waitState('node2', 'MIXED');
    await page.locator(`#running tr[data-job="${id}"] button[data-action="cancel"]`).click();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED', 30_000);
    await page.locator(`#ends li[data-job="${id}"] .state`, { hasText: 'CANCELLED' }).waitFor({ timeout: 30_000 });
    await waitState('node2', 'IDLE');
    expect(await page.locator(`#running tr[data-job="${id}"]`).count()).toBe(0);
  });

  it('holds a pending job from its Hold button and releases it from Release', async () => {
    const id = await submit('--begin', 'now+1hour', '--wrap', 'true');
    const row = page.locator(`#pending tr[data-job="${id}"]`);
    await row.locator('.reason', { hasText: 'BeginTime' }).waitFor({ timeout: 30_000 });
    await row.locator('button[data-action="hold"]').click();
    await ctl.until(async () => (await ctl.jobField(id, 'Priority')) === '0', 30_000);
    // An administrator's hold when root runs the test (slurmctld's update_job), the user's otherwise.
    await row.locator('.reason', { hasText: /^JobHeld(User|Admin)$/ }).waitFor({ timeout: 30_000 });
    await shot('job-held');
    await row.locator('button[data-action="release"]').click();
    await ctl.until(async () => (await ctl.jobField(id, 'Priority')) !== '0', 30_000);
    await row.locator('button[data-action="hold"]').waitFor({ timeout: 30_000 });
  });

  it('draws the hour\'s chart from the samples it is sent', async () => {
    await page.waitForFunction(() => (document.querySelector('#chart .cpu')?.getAttribute('d') ?? '').split('L').length >= 3, undefined, { timeout: 30_000 });
    const drawn = await page.locator('#chart .line').evaluateAll((paths) =>
      paths.map((p) => ({ points: (p.getAttribute('d') ?? '').split(/[ML]/).filter(Boolean).length, length: (p as unknown as { getTotalLength(): number }).getTotalLength() })),
    );
    for (const line of drawn) expect(line.points).toBeGreaterThanOrEqual(3);
    // Pixels, not only a path: the chart looks different with its lines hidden.
    const chart = page.locator('#chart');
    const withLines = await chart.screenshot({ path: path.join(artifacts, 'chart.png') });
    await page.addStyleTag({ content: '#chart .line { visibility: hidden; }' });
    const without = await chart.screenshot();
    expect(withLines.equals(without)).toBe(false);
    await page.evaluate(() => document.head.lastElementChild?.remove());
    expect(await page.locator('#chart-legend').textContent()).toMatch(/CPUs in use \d+%/);
  });

  it('refuses the feed without a token, and a login code it did not print or that was used', async () => {
    expect((await fetch(`${server.base}dashboard/events`)).status).toBe(401);
    const login = (code: string) => fetch(`${server.base}dashboard/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect((await login('not-a-code')).status).toBe(401);
    // The page opened at the start spent the printed code.
    expect((await login(new URLSearchParams(new URL(server.address).hash.slice(1)).get('login')!)).status).toBe(401);
  });

  it('fits a phone screen without sideways scrolling of the page', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await phone.goto(server.base);
      // A fresh tab has no session: it asks for a token rather than showing nothing.
      await phone.locator('#signin').waitFor({ state: 'visible', timeout: 30_000 });
      await phone.goto(server.tokenAddress);
      await phone.waitForFunction(() => document.querySelectorAll('#nodes li').length === 4, undefined, { timeout: 30_000 });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await phone.screenshot({ path: path.join(artifacts, 'phone.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });
});
