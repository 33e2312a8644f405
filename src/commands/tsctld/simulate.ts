// tsctld --simulate TRACE: the simulation mode (src/ctld/simulate/). Reads the trace, runs it
// on the cluster of --cluster, writes summary.json and chart.svg to --simulate-out (default
// `<trace name>.sim` in the current directory) and prints the summary. A progress line goes
// to stderr when it is a terminal.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { loadCluster } from '../../config/load.js';

export interface SimulateOptions {
  trace: string;
  out?: string;
  cluster?: string;
  select?: string;
  sched?: string;
  verbose: number;
  bin: string;
}

export async function simulate(options: SimulateOptions): Promise<number> {
  const [{ parseSwf }, { runSimulation }, { withPlugins }, { chartSvg }, report] = await Promise.all([
    import('../../ctld/simulate/swf.js'),
    import('../../ctld/simulate/run-simulation.js'),
    import('../../ctld/simulate/sim-host.js'),
    import('../../ctld/simulate/chart-svg.js'),
    import('../../ctld/simulate/report.js'),
  ]);
  let text: string;
  try {
    text = readFileSync(options.trace, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read trace ${options.trace}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const trace = parseSwf(text);
  const log = createLogger(options.bin, levelFromVerbosity(options.verbose));
  for (const problem of trace.problems) log.warn(`${options.trace}: ${problem}; skipped`);
  if (trace.jobs.length === 0) throw new UserError(`trace ${options.trace} has no usable job`);
  const config = withPlugins(await loadCluster({ file: options.cluster }), { select: options.select, sched: options.sched });
  const outDir = options.out ?? `${path.basename(options.trace).replace(/\.[^.]*$/, '')}.sim`;
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (error) {
    throw new UserError(`cannot create ${outDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const progress = progressLine();
  const result = await runSimulation({
    trace,
    config,
    log,
    stateDir: path.join(tmpdir(), `tslurm-simulate-${process.pid}`),
    onProgress: progress.update,
  }).finally(progress.done);
  const name = path.basename(options.trace);
  writeFileSync(path.join(outDir, 'summary.json'), report.summaryJson(result, name, config.clusterName));
  const title = `${name} on ${config.clusterName}: ${result.select}, ${result.sched}`;
  writeFileSync(path.join(outDir, 'chart.svg'), chartSvg(result.samples, result.summary.totalCpus, title));
  process.stdout.write(report.summaryText(result, name, config.clusterName));
  process.stdout.write(`  wrote              ${path.join(outDir, 'summary.json')}, ${path.join(outDir, 'chart.svg')}\n`);
  return 0;
}

// "simulated 1200/5000 jobs, virtual day 3" on a terminal, at most every 200 ms.
function progressLine(): { update: (submitted: number, total: number, now: number) => void; done: () => void } {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  let first: number | undefined;
  let shown = false;
  return {
    update: (submitted, total, now) => {
      first ??= now;
      if (!tty || Date.now() - last < 200) return;
      last = Date.now();
      shown = true;
      const hours = ((now - first) / 3600).toFixed(1);
      process.stderr.write(`\rsimulating: ${submitted}/${total} jobs submitted, virtual time +${hours} h `);
    },
    done: () => {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
