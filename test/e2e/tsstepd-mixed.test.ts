// Daemon mode with nodes that have a tsstepd daemon and nodes that have none (issue 19): the
// nodes without one are emulated on the state directory's step host, on the machine of the
// command or controller that needs them. A step spanning both kinds runs each node's share
// where that node lives; batch jobs start on their first node, whichever kind; tsbcast writes
// to every node, daemons and the step host alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/run-bin.js';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

const bin = (name: string) => `${process.execPath} ${path.join(repoRoot, 'bin', `${name}.js`)}`;
/**
 * Each task: its node, and whether the process that started it (its parent, the spawn server)
 * belongs to the embedded step host or to a node daemon: the server's parent's command line.
 */
const WHERE = 'echo "$SLURMD_NODENAME $(tr "\\0" " " < /proc/$(cut -d" " -f4 /proc/$PPID/stat)/cmdline | grep -o -e "--embedded" -e "--node [a-z0-9]*")"';

function stopStepHost(root: string): void {
  try {
    process.kill(Number.parseInt(readFileSync(path.join(root, 'state', 'tsstepd.pid'), 'utf8'), 10), 'SIGTERM');
  } catch {
    // none runs
  }
}

describe('daemon mode, two nodes with a tsstepd and two emulated on the step host', () => {
  let c: DaemonCluster;
  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 2, emulated: 2 });
  }, 60_000);
  afterAll(async () => {
    stopStepHost(c?.root ?? '');
    await c?.stop();
  });

  it('lists all four nodes idle', async () => {
    expect(await c.states()).toEqual({ dn1: 'idle', en1: 'idle', dn2: 'idle', en2: 'idle' });
  });

  it('runs a step over all four: each share where its node lives', async () => {
    const r = await c.run('tsrun', ['-N4', '-n4', '-l', 'sh', '-c', WHERE]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n').map((line) => line.replace(/^\d+: /, '')).sort();
    expect(lines).toEqual(['dn1 --node dn1', 'dn2 --node dn2', 'en1 --embedded', 'en2 --embedded']);
  });

  it('runs batch jobs on a daemon node and on an emulated one, their steps spanning both kinds; tsbcast reaches every node', async () => {
    const source = path.join(c.root, 'work', 'payload.txt');
    writeFileSync(source, 'payload\n');
    const dest = path.join(c.root, 'work', 'copied.txt');
    const script = (out: string) =>
      [
        `#!/bin/sh`,
        `#SBATCH -o ${out}`,
        `echo "batch on $SLURMD_NODENAME"`,
        // One file system under every node here: -f lets each node write its copy.
        `${bin('tsbcast')} -f ${source} ${dest}; echo "bcast=$?"`,
        `${bin('tsrun')} -l sh -c '${WHERE.replace(/'/g, `'\\''`)}; cat ${dest}' | sort`,
      ].join('\n');
    // In node-table order dn1, en1, dn2, en2: the first node of each job runs its script.
    const jobs = [
      { out: 'on-daemon.out', nodes: 'dn1,en1', batch: 'dn1' },
      { out: 'on-emulated.out', nodes: 'en1,dn2', batch: 'en1' },
    ];
    for (const { out, nodes } of jobs) {
      writeFileSync(path.join(c.root, 'work', `${out}.sh`), script(out));
      const sub = await c.run('tsbatch', ['--parsable', '--wait', '-N2', '-n2', '-w', nodes, `${out}.sh`]);
      expect(sub.exitCode, sub.stderr).toBe(0);
    }
    for (const { out, nodes, batch } of jobs) {
      const lines = readFileSync(path.join(c.root, 'work', out), 'utf8').split('\n');
      expect(lines.slice(0, 2)).toEqual([`batch on ${batch}`, 'bcast=0']);
      const where = nodes.split(',').map((node) => `${node} ${node.startsWith('en') ? '--embedded' : `--node ${node}`}`);
      expect(lines.slice(2).filter(Boolean).map((line) => line.replace(/^\d+: /, '')).sort()).toEqual([...where, 'payload', 'payload'].sort());
    }
  });

  it('a step host SIGKILLed under a step of a batch job on a daemon node: the job ends NODE_FAIL', async () => {
    const up = path.join(c.root, 'work', 'step.up');
    const script = `${bin('tsrun')} -l sh -c 'touch ${up}; sleep 300'; echo "tsrun rc=$?"; sleep 300`;
    const sub = await c.run('tsbatch', ['--parsable', '--no-requeue', '-N2', '-n2', '-w', 'dn1,en1', '-o', 'lost.out', '--wrap', script]);
    const id = sub.stdout.trim();
    await c.until(() => existsSync(up));
    const host = Number.parseInt(readFileSync(path.join(c.root, 'state', 'tsstepd.pid'), 'utf8'), 10);
    process.kill(host, 'SIGKILL');
    const state = async () => (await c.run('tsqueue', ['-h', '-t', 'all', '-j', id, '-o', '%T %r'])).stdout.trim();
    await c.until(async () => (await state()) === 'NODE_FAIL NodeDown');
    // The nodes stay up: the daemons', and the emulated ones for the next step host.
    await c.until(async () => Object.values(await c.states()).every((s) => s === 'idle'));
    const next = await c.run('tsrun', ['-N2', '-w', 'dn2,en2', '-l', 'hostname']);
    expect(next.exitCode, next.stderr).toBe(0);
  });
});
