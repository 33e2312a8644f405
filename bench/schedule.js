// Scheduling at scale: the real Controller, select and sched plugins and scheduling pass, in
// process (dist/ctld/simulate.js; no RPC, no step daemons), on the 10,000-node fixture cluster
// (fixtures/clusters/large.yaml, every node answering) with 100,000 queued jobs of mixed
// shapes: 1 task to 64 nodes, a tenth of them on GPU nodes. For select/linear and
// select/cons_tres, each in its own process (clean peak RSS):
//   main loop   sched/builtin, one pass from an empty cluster: placements per second of the
//               sched plugin's loop, and the whole pass (queue scan and expected starts too);
//   backfill    half the running jobs end, then one sched/backfill pass over every pending job:
//               the pass's time (the "full pass") and its placements per second;
//   rescan      one more backfill pass with nothing freed: the cost of looking alone.
// The floor, measured in the same process: the same jobs in the same order placed by a bare
// next-fit loop over an array of free CPUs per node (no controller, plugin or records), until
// one does not fit; the main loop's rate is printed as a fraction of it, which moves less
// from machine to machine than the rate itself.
// The pass reports its parts itself (schedulePass's PassStats, as Slurm's sdiag does).
// Prints figures, never passes or fails. TSLURM_BENCH_JOBS changes the job count.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const jobCount = Number(process.env.TSLURM_BENCH_JOBS ?? 100_000);
const selects = ['select/linear', 'select/cons_tres'];

if (process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await measure(process.argv[3]))}\n`);
} else {
  console.log(`scheduling ${jobCount} queued jobs on fixtures/clusters/large.yaml (10,000 nodes), in process`);
  for (const select of selects) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', select], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`${select}: benchmark exited with ${child.status}`);
    const r = JSON.parse(child.stdout.trim().split('\n').pop());
    console.log(`${select}`);
    const parts = (p) => `queue scan ${p.queueMs.toFixed(0)} ms, sched ${p.schedMs.toFixed(0)} ms, estimates ${p.estimateMs.toFixed(0)} ms`;
    console.log(`  main loop (builtin)   ${fmtRate(r.main.placed, r.main.schedMs)}   ${r.main.placed} jobs placed; whole pass ${r.main.ms.toFixed(0)} ms (${parts(r.main)})`);
    const floorRate = r.floor.placed / (r.floor.ms / 1000);
    const mainRate = r.main.placed / (r.main.schedMs / 1000);
    console.log(`  floor (bare next-fit) ${fmtRate(r.floor.placed, r.floor.ms)}   ${r.floor.placed} jobs placed; the main loop runs at 1/${(floorRate / mainRate).toFixed(0)} of it`);
    console.log(
      `  backfill pass         ${fmtRate(r.backfill.placed, r.backfill.schedMs)}   ${r.backfill.placed} placed; full pass over ${r.backfill.pending} pending: ${r.backfill.ms.toFixed(0)} ms (${parts(r.backfill)})`,
    );
    console.log(`  backfill rescan       ${r.rescan.ms.toFixed(0)} ms over ${r.rescan.pending} pending (${r.rescan.placed} placed)`);
    console.log(`  queue of ${jobCount} built in ${r.setupMs.toFixed(0)} ms; peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB`);
  }
}

function fmtRate(placed, ms) {
  return `${Math.round(placed / (ms / 1000)).toLocaleString('en-US').padStart(8)} placements/s`;
}

async function measure(select) {
  const sim = await import(path.join(root, 'dist', 'ctld', 'simulate.js'));
  const cluster = await sim.loadCluster({ file: path.join(root, 'fixtures', 'clusters', 'large.yaml') });
  const config = sim.withPlugins(cluster, { select, sched: 'sched/builtin' });
  let now = 1_700_000_000;
  const host = await sim.startSimHost(config, sim.createLogger('bench', 'quiet'), () => now, path.join(root, 'dist', '.bench-state'));
  const { ctl, registry } = host;
  const running = [];
  const launcher = new sim.SimLauncher(ctl, (job) => running.push(job));
  const signal = new AbortController().signal;

  const setupStart = performance.now();
  const random = mulberry32(42);
  for (let id = 1; id <= jobCount; id++) {
    const { partition, ...shape } = shapeOf(random);
    sim.addSimJob(ctl, sim.simDescriptor({ name: `bench${id}`, userId: 1000 + (id % 50), ...shape }), id, partition);
  }
  const setupMs = performance.now() - setupStart;

  const pass = async () => {
    const before = running.length;
    const pending = ctl.pendingJobs().length;
    const start = performance.now();
    const stats = await sim.schedulePass(ctl, launcher, signal);
    const ms = performance.now() - start;
    return { ms, placed: running.length - before, pending, queueMs: stats.queueMs, schedMs: stats.schedMs, estimateMs: stats.estimateMs };
  };

  // A few milliseconds each: the median of several runs.
  const floors = Array.from({ length: 9 }, () => bareNextFit(ctl.table.nodes.map((node) => node.cpus), jobCount));
  const floor = floors.sort((a, b) => a.ms - b.ms)[4];
  const main = await pass();
  // Half the running jobs end (every other one), a minute later.
  now += 60;
  for (let k = running.length - 1; k >= 0; k -= 2) {
    const [job] = running.splice(k, 1);
    await sim.endSimJob(ctl, job, 3 /* JOB_COMPLETE */);
  }
  // The same job table under sched/backfill: the facade is swapped in place (a benchmark, not a controller).
  ctl.sched = new sim.SchedFacade(await registry.get('sched', 'sched/backfill'), registry.timeoutMs, ctl.log);
  const backfill = await pass();
  const rescan = await pass();
  await host.close();
  return { main, floor, backfill, rescan, setupMs, maxRssKb: process.resourceUsage().maxRSS };
}

// The floor: each job of the same stream takes CPUs from the nodes at and after a cursor
// (whole idle nodes for --exclusive; -N nodes with their share of the tasks' CPUs each; else
// free CPUs wherever they are), the cursor moving past full nodes, until a job finds none.
function bareNextFit(cpus, count) {
  const free = Int32Array.from(cpus);
  const random = mulberry32(42);
  const shapes = Array.from({ length: count }, () => shapeOf(random));
  const start = performance.now();
  let cursor = 0;
  let placed = 0;
  for (const shape of shapes) {
    while (cursor < free.length && free[cursor] === 0) cursor++;
    const nodes = shape.minNodes ?? 0;
    const taken = [];
    if (nodes === 0) {
      let left = shape.ntasks;
      for (let i = cursor; i < free.length && left > 0; i++) {
        const take = Math.min(free[i], left);
        if (take > 0) taken.push(i, take);
        left -= take;
      }
      if (left > 0) break;
    } else {
      const need = shape.exclusive ? -1 : Math.ceil(shape.ntasks / nodes);
      for (let i = cursor; i < free.length && taken.length < 2 * nodes; i++) {
        if (need === -1 ? free[i] === cpus[i] : free[i] >= need) taken.push(i, need === -1 ? free[i] : need);
      }
      if (taken.length < 2 * nodes) break;
    }
    for (let k = 0; k < taken.length; k += 2) free[taken[k]] -= taken[k + 1];
    placed++;
  }
  return { placed, ms: performance.now() - start };
}

// The mix: single tasks, multi-task jobs on one or a few nodes, wide jobs up to 64 nodes,
// whole-node jobs, and GPU jobs (--gres per node) in the gpu partition.
function shapeOf(random) {
  const pick = random();
  const timeLimit = 10 + Math.floor(random() * 600);
  const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  if (pick < 0.35) return { partition: 'batch', ntasks: 1, timeLimit };
  if (pick < 0.6) return { partition: 'batch', ntasks: between(2, 64), timeLimit };
  if (pick < 0.75) {
    const nodes = between(2, 8);
    return { partition: 'batch', minNodes: nodes, maxNodes: nodes, ntasks: nodes * between(1, 32), timeLimit };
  }
  if (pick < 0.82) {
    const nodes = between(16, 64);
    return { partition: 'batch', minNodes: nodes, maxNodes: nodes, ntasks: nodes * 16, timeLimit };
  }
  if (pick < 0.9) {
    const nodes = between(1, 4);
    return { partition: 'batch', minNodes: nodes, maxNodes: nodes, exclusive: true, timeLimit };
  }
  const nodes = between(1, 4);
  return { partition: 'gpu', minNodes: nodes, maxNodes: nodes, ntasks: nodes * between(1, 8), gres: `gpu:${between(1, 4)}`, timeLimit };
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
