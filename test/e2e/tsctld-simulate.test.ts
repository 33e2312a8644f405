// tsctld --simulate on the fixture trace: exact job counts, sane metrics, backfill no worse
// than FIFO on a trace made to show it, and a well-formed chart.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runBin } from '../helpers/run-bin.js';

interface Summary {
  select: string;
  sched: string;
  jobs: { total: number; ran: number; rejected: number; neverStarted: number; invalidLines: number };
  makespan: number;
  utilisation: number;
  wait: { mean: number; median: number; p95: number; max: number };
  boundedSlowdown: { mean: number; bound: number };
}

async function simulate(select: string, sched: string): Promise<{ summary: Summary; svg: string; stdout: string }> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-sim-')), 'out');
  const args = ['--simulate', fixture('traces', 'small.swf'), '--cluster', fixture('clusters', 'sim.yaml'), '--select', select, '--sched', sched, '--simulate-out', out];
  const result = await runBin('tsctld', args);
  expect(result.stderr).not.toMatch(/error/);
  expect(result.exitCode).toBe(0);
  return {
    summary: JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as Summary,
    svg: readFileSync(path.join(out, 'chart.svg'), 'utf8'),
    stdout: result.stdout,
  };
}

// A tiny XML well-formedness check: every tag closes in order, attributes are quoted.
function checkXml(text: string): string[] {
  const stack: string[] = [];
  const body = text.replace(/^<\?xml[^?]*\?>/, '');
  for (const match of body.matchAll(/<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
    } else if (!selfClosing) stack.push(name!);
  }
  const stripped = body.replace(/<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g, '');
  if (/[<>]/.test(stripped)) throw new Error('a tag did not parse');
  if (stack.length > 0) throw new Error(`unclosed: ${stack.join(', ')}`);
  return [...body.matchAll(/<([A-Za-z][\w:-]*)/g)].map((m) => m[1]!);
}

describe('tsctld --simulate', () => {
  const runs = ['select/cons_tres', 'select/linear'].flatMap((select) => ['sched/builtin', 'sched/backfill'].map((sched) => [select, sched] as const));

  it.each(runs)('replays the fixture trace with %s and %s', async (select, sched) => {
    const { summary, svg, stdout } = await simulate(select, sched);
    expect(summary.select).toBe(select);
    expect(summary.sched).toBe(sched);
    // 200 usable lines, one asking for 1000 processors on a 64-CPU cluster, two malformed.
    expect(summary.jobs).toMatchObject({ total: 200, ran: 199, rejected: 1, neverStarted: 0, invalidLines: 2 });
    expect(summary.utilisation).toBeGreaterThan(0.3);
    expect(summary.utilisation).toBeLessThanOrEqual(1);
    expect(summary.wait.median).toBeLessThanOrEqual(summary.wait.p95);
    expect(summary.wait.p95).toBeLessThanOrEqual(summary.wait.max);
    expect(summary.boundedSlowdown.mean).toBeGreaterThanOrEqual(1);
    expect(summary.boundedSlowdown.bound).toBe(10);
    expect(summary.makespan).toBeGreaterThan(0);
    expect(stdout).toContain('200 submitted, 199 ran, 1 rejected, 2 invalid line(s) skipped');
    expect(stdout).toMatch(/utilisation +\d+\.\d %/);
    const tags = checkXml(svg);
    expect(tags[0]).toBe('svg');
    expect(tags.filter((t) => t === 'path')).toHaveLength(2);
    expect(svg).toMatch(/<path d="M[\d.]+,[\d.]+(H[\d.]+V[\d.]+)+"/);
  });

  it('gives a lower mean wait with sched/backfill than with sched/builtin', async () => {
    for (const select of ['select/cons_tres', 'select/linear']) {
      const fifo = await simulate(select, 'sched/builtin');
      const backfill = await simulate(select, 'sched/backfill');
      expect(backfill.summary.wait.mean).toBeLessThanOrEqual(fifo.summary.wait.mean);
      expect(backfill.summary.boundedSlowdown.mean).toBeLessThanOrEqual(fifo.summary.boundedSlowdown.mean);
    }
  });

  it('refuses an unreadable trace and simulation options without --simulate', async () => {
    const missing = await runBin('tsctld', ['--simulate', '/nonexistent/trace.swf', '--cluster', fixture('clusters', 'sim.yaml')]);
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr.trim()).toBe('tsctld: error: cannot read trace /nonexistent/trace.swf: ENOENT');
    const stray = await runBin('tsctld', ['--simulate-out', '/tmp/x', '--cluster', fixture('clusters', 'sim.yaml')]);
    expect(stray.exitCode).not.toBe(0);
    expect(stray.stderr.trim()).toBe('tsctld: error: --simulate-out needs --simulate');
  });
});
