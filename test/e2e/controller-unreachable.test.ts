// The viewing commands against a TCP controller that refuses the connection fail as Slurm's
// do (observed on 22.05 with nothing listening on SlurmctldPort, /work/ref/controller-down.txt):
// one line naming the load call, exit 1. Before, tsqueue printed an empty queue and tsinfo and
// tscontrol show the cluster file's idle nodes, as if no job existed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePorts, startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

describe('viewing commands when the TCP controller refuses the connection', () => {
  let c: DaemonCluster;
  let dead: string;

  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 1 });
    const [deadPort] = await freePorts(1);
    dead = path.join(c.root, 'dead-ctld.yaml');
    writeFileSync(dead, readFileSync(c.clusterFile, 'utf8').replace(`:${c.ctldPort}\n`, `:${deadPort}\n`));
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  const unreachable = (call: string) => ({ exitCode: 1, stdout: '', stderr: `${call} Unable to contact slurm controller (connect failure)\n` });

  it.each([
    ['tsqueue', [], 'slurm_load_jobs error:'],
    ['tsqueue', ['-j', '1'], 'slurm_load_jobs error:'],
    ['tsinfo', [], 'slurm_load_partitions:'],
    ['tsinfo', ['-N', '-l'], 'slurm_load_partitions:'],
    ['tscontrol', ['show', 'job'], 'slurm_load_jobs error:'],
    ['tscontrol', ['show', 'job', '1'], 'slurm_load_jobs error:'],
    ['tscontrol', ['show', 'node'], 'slurm_load_node error:'],
    ['tscontrol', ['show', 'partition'], 'slurm_load_partitions error:'],
    ['tscontrol', ['show', 'steps'], 'slurm_get_job_steps error:'],
    ['tscontrol', ['show', 'reservation'], 'slurm_load_reservations error:'],
  ])('%s %j', async (bin, args, call) => {
    const r = await c.run(bin, args, { env: { TSLURM_CONF: dead } });
    expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual(unreachable(call));
  });

  it('the same commands still answer from the live controller', async () => {
    expect((await c.run('tsqueue', [])).exitCode).toBe(0);
    expect((await c.run('tsinfo', [])).exitCode).toBe(0);
    expect((await c.run('tscontrol', ['show', 'node'])).exitCode).toBe(0);
  });
});
