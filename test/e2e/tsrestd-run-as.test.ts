// A job submitted through tsrestd runs as the token's user where the cluster runs jobs as
// their users: a root tsstepd node daemon, with the controller on TCP (auth/hmac). tsrestd
// (root) reaches that controller over TCP, where a root peer's submission keeps the user it
// names, as slurmctld lets root submit for another user. Needs root; skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';

const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('tsrestd on a cluster of root node daemons', () => {
  let c: DaemonCluster;
  let restd: TestRestd;
  const tag = `/tmp/tsrestd-run-as-${process.pid}`;

  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 1 });
    // The user's script is reached through the daemons' spool, under these (as tsstepd-run-as).
    chmodSync(c.root, 0o711);
    chmodSync(path.join(c.root, 'state'), 0o711);
    restd = await startRestd({ env: { TSLURM_CONF: c.clusterFile, TSLURM_STATE_DIR: undefined }, workDir: path.join(c.root, 'work') });
  }, 60_000);
  afterAll(async () => {
    await restd?.stop();
    await c?.stop();
    rmSync(tag, { force: true });
  });

  it("runs the script as the token's user", async () => {
    const made = await c.run('tscontrol', ['token', 'username=nobody']);
    const jwt = /^SLURM_JWT=(\S+)/.exec(made.stdout)![1]!;
    const answer = await restd.request('/slurm/v0.0.38/job/submit', {
      tcp: true,
      method: 'POST',
      headers: { 'X-SLURM-USER-NAME': 'nobody', 'X-SLURM-USER-TOKEN': jwt },
      body: { script: `#!/bin/sh\nid -u > ${tag}\n`, job: { name: 'as-nobody', current_working_directory: '/tmp', standard_output: '/dev/null', environment: { PATH: '/usr/bin:/bin' } } },
    });
    expect(answer.status).toBe(200);
    const id = answer.json.job_id as number;
    await c.until(() => existsSync(tag) && readFileSync(tag, 'utf8') !== '');
    expect(readFileSync(tag, 'utf8')).toBe('65534\n');
    const shown = await c.run('tscontrol', ['-o', 'show', 'job', String(id)]);
    expect(shown.stdout).toContain('UserId=nobody(65534)');
  });
});
