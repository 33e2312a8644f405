// tscancel when it cannot do what it was asked: a key the auth plugin refuses, a TCP
// controller that does not answer. Each is one line and a non-zero exit, and the job stays;
// before, these ended in silence and status 0 as if the job had been cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePorts, startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

describe('tscancel failures against a TCP controller', () => {
  let c: DaemonCluster;
  let jobId: string;

  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 1 });
    const submitted = await c.run('tsbatch', ['--parsable', '--hold', '--wrap', 'true']);
    expect(submitted.stderr).toBe('');
    jobId = submitted.stdout.trim();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  /** A copy of the cluster file with `edit` applied to its text. */
  function clusterVariant(name: string, edit: (text: string) => string): string {
    const file = path.join(c.root, `${name}.yaml`);
    writeFileSync(file, edit(readFileSync(c.clusterFile, 'utf8')));
    return file;
  }

  async function jobState(): Promise<string> {
    const r = await c.run('tsqueue', ['-h', '-j', jobId, '-o', '%T']);
    return r.stdout.trim();
  }

  it('says why when the key file cannot be read, exits 1 and leaves the job', async () => {
    const missing = path.join(c.root, 'no-such-key');
    const conf = clusterVariant('missing-key', (text) => text.replace(c.keyFile, missing));
    const r = await c.run('tscancel', [jobId], { env: { TSLURM_CONF: conf } });
    expect(r.stderr).toBe(
      `tscancel: error: Kill job error on job id ${jobId}: auth/hmac: cannot open key file ${missing}: No such file or directory\n`,
    );
    expect(r.exitCode).toBe(1);
    expect(await jobState()).toBe('PENDING');
  });

  it('says why when the key file is readable by others, exits 1 and leaves the job', async () => {
    const loose = path.join(c.root, 'loose-key');
    copyFileSync(c.keyFile, loose);
    chmodSync(loose, 0o644);
    const conf = clusterVariant('loose-key', (text) => text.replace(c.keyFile, loose));
    const r = await c.run('tscancel', [jobId], { env: { TSLURM_CONF: conf } });
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toContain(`tscancel: error: Kill job error on job id ${jobId}: `);
    expect(r.stderr).toContain('is readable by others (mode 0644); chmod 600 it');
    expect(r.exitCode).toBe(1);
    expect(await jobState()).toBe('PENDING');
  });

  it('fails with one line when the TCP controller does not answer (filters too)', async () => {
    const [deadPort] = await freePorts(1);
    const conf = clusterVariant('dead-ctld', (text) => text.replace(`:${c.ctldPort}\n`, `:${deadPort}\n`));
    const byId = await c.run('tscancel', [jobId], { env: { TSLURM_CONF: conf } });
    expect(byId.stderr).toBe(`tscancel: error: Kill job error on job id ${jobId}: Unable to contact slurm controller (ECONNREFUSED)\n`);
    expect(byId.exitCode).toBe(1);
    const byFilter = await c.run('tscancel', ['-t', 'PENDING'], { env: { TSLURM_CONF: conf } });
    expect(byFilter.stderr).toBe('tscancel: error: Unable to contact slurm controller (ECONNREFUSED)\n');
    expect(byFilter.exitCode).toBe(1);
    expect(await jobState()).toBe('PENDING');
  });

  it('still cancels with the right key', async () => {
    const r = await c.run('tscancel', [jobId]);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    await c.until(async () => (await jobState()) === '');
  });
});
