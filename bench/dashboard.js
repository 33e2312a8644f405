// The dashboard with a thousand nodes and a thousand jobs (fixtures/clusters/thousand-nodes.yaml:
// 100 jobs running, 900 held, 20 nodes drained), opened in Debian's chromium through
// playwright-core: the time from navigation to the grid and the queue drawn (the first frame
// after the page's first full picture: every node's cell, every job counted, the job rows near
// the screen drawn), against the same page loaded with no data (no token:
// it stops at the sign-in form) in the same run, alternated run by run; and the time one live
// update of that size takes to draw. Prints figures; never passes or fails. Skipped when
// chromium is absent.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchJob, medianMs, submitOverSocket } from './lib.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CHROMIUM = process.env.TSLURM_CHROMIUM ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_RUNS ?? 10);
const RUNNING = 100;
const HELD = 900;
// On a loaded machine a batch step may fail to start, which ends its job: a few may be missing.
const ENOUGH = RUNNING + HELD - 10;
// How many job rows each full load drew, and how many jobs the page counted.
const rows = [];
const counted = [];

if (!existsSync(CHROMIUM)) {
  console.log(`dashboard: skipped (no chromium at ${CHROMIUM}; apt-get install chromium)`);
} else {
  await bench();
}

async function bench() {
  const cluster = path.join(root, 'fixtures', 'clusters', 'thousand-nodes.yaml');
  const stateDir = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-bench-dash-')), 'state');
  const env = { ...process.env, TSLURM_STATE_DIR: stateDir, NO_COLOR: '1', TSRESTD_DASHBOARD_INTERVAL: '2' };
  const bin = (name) => path.join(root, 'bin', `${name}.js`);
  execFileSync(process.execPath, [bin('tsctld'), '--cluster', cluster, '--idle-exit', '600'], { env, stdio: 'inherit' });
  let restd;
  let browser;
  try {
    await submit(stateDir, RUNNING, false);
    await submit(stateDir, HELD, true);
    execFileSync(process.execPath, [bin('tscontrol'), '--cluster', cluster, 'update', 'NodeName=c[0941-0960]', 'State=DRAIN', 'Reason=bench'], { env });
    restd = spawn(process.execPath, [bin('tsrestd'), '--cluster', cluster, '--listen', '127.0.0.1:0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const base = await listening(restd);
    const token = /SLURM_JWT=(\S+)/.exec(execFileSync(process.execPath, [bin('tscontrol'), '--cluster', cluster, 'token'], { env, encoding: 'utf8' }))[1];
    const address = `${base}#user=${encodeURIComponent(userInfo().username)}&token=${token}`;

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
    // Until the server's sampler has the whole queue, a load would measure a smaller picture.
    await untilFull(browser, address);

    const full = [];
    const empty = [];
    const fullBusy = [];
    const emptyBusy = [];
    const updates = [];
    for (let i = -1; i < runs; i++) {
      const a = await timeLoad(browser, address, true);
      const b = await timeLoad(browser, base, false);
      if (i < 0) continue;
      full.push(a.drawn);
      empty.push(b.drawn);
      fullBusy.push(a.busy);
      emptyBusy.push(b.busy);
      updates.push(...a.updates);
    }
    const f = medianMs(full);
    const e = medianMs(empty);
    console.log(`dashboard: ${1000} nodes, ${RUNNING + HELD} jobs in chromium, median of ${runs} alternated loads`);
    console.log(`  navigation to grid and queue drawn   ${f.toFixed(0).padStart(6)} ms   (target < 1000 ms)`);
    console.log(`  the same page with no data (floor)   ${e.toFixed(0).padStart(6)} ms   ratio ${(f / e).toFixed(2)}×`);
    const fb = medianMs(fullBusy);
    const eb = medianMs(emptyBusy);
    console.log(`  main-thread time to that frame        ${fb.toFixed(0).padStart(6)} ms   floor ${eb.toFixed(0)} ms   ratio ${(fb / eb).toFixed(2)}×`);
    console.log(`  job rows drawn (the rest stand in spacers) ${medianMs(rows).toFixed(0).padStart(6)}   of ${Math.min(...counted)} jobs counted`);
    if (updates.length > 0) console.log(`  script time of one live update       ${medianMs(updates).toFixed(0).padStart(6)} ms   (median of ${updates.length}, max ${Math.max(...updates).toFixed(0)} ms)`);
  } finally {
    await browser?.close();
    restd?.kill('SIGTERM');
    const pid = Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10);
    process.kill(pid, 'SIGTERM');
  }
}

/**
 * Loads `address` in a new tab; `drawn`: ms from navigation to the first frame after the page's
 * full picture (or the sign-in form); `busy`: the renderer's main-thread time until then
 * (Chrome's TaskDuration), which the machine's load inflates less than wall time.
 */
async function timeLoad(browser, address, withData) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(address, { waitUntil: 'commit' });
    const drawn = await page.evaluate(async (withData) => {
      const ready = () =>
        withData ? performance.getEntriesByName('dashboard-drawn').length > 0 : !document.getElementById('signin')?.hidden;
      while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
      // The frame that shows it: layout and paint included.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now();
    }, withData);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const busy = metrics.find((m) => m.name === 'TaskDuration').value * 1000;
    let updates = [];
    if (withData) {
      // Every node has its cell; every job is counted (a long table draws the rows near the screen).
      const counts = await page.evaluate(() => [
        document.querySelectorAll('#nodes li').length,
        Number(document.getElementById('running-count').textContent) + Number(document.getElementById('pending-count').textContent),
        document.querySelectorAll('#running tr[data-job], #pending tr[data-job]').length,
      ]);
      if (counts[0] !== 1000 || counts[1] < ENOUGH) throw new Error(`drew ${counts[0]} nodes and counted ${counts[1]} jobs`);
      rows.push(counts[2]);
      counted.push(counts[1]);
      // Two more polls arrive as live updates: how long each took to draw.
      await page.waitForFunction(() => performance.getEntriesByName('dashboard-draw').length >= 3, undefined, { timeout: 30_000 });
      updates = await page.evaluate(() => performance.getEntriesByName('dashboard-draw').slice(1).map((e) => e.duration));
    }
    return { drawn, busy, updates };
  } finally {
    await page.close();
  }
}

async function untilFull(browser, address) {
  const page = await browser.newPage();
  try {
    await page.goto(address);
    await page.waitForFunction(
      (n) => Number(document.getElementById('running-count')?.textContent) + Number(document.getElementById('pending-count')?.textContent) >= n,
      ENOUGH,
      { timeout: 120_000 },
    );
  } finally {
    await page.close();
  }
}

function listening(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /listening on (http:\/\/[^\s#]+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.on('exit', (code) => reject(new Error(`tsrestd exited (${code}) before listening`)));
  });
}

/** Submits `count` one-CPU jobs over the controller's socket, a window of requests in flight. */
function submit(stateDir, count, hold) {
  const desc = (i) =>
    benchJob(stateDir, { script: '#!/bin/sh\nexec sleep 600\n', name: hold ? `held${i % 50}` : `run${i}`, hold, timeLimit: 30, userName: userInfo().username });
  return submitOverSocket(path.join(stateDir, 'tsctld.sock'), count, desc);
}
