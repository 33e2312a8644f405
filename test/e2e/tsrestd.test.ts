// tsrestd against a live controller: slurmrestd v0.0.38's paths and shapes, over its Unix
// socket (the peer's uid) and TCP (a token needed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml');

describe('tsrestd', () => {
  const ctl = testController({ TSLURM_CONF: small });
  let restd: TestRestd;
  beforeAll(async () => {
    restd = await startRestd(ctl);
  });
  afterAll(async () => {
    await restd?.stop();
    await ctl.stop();
  });

  it('answers ping with the controller up', async () => {
    const answer = await restd.request('/slurm/v0.0.38/ping');
    expect(answer.status).toBe(200);
    expect(answer.json.meta.plugin).toEqual({ type: 'openapi/v0.0.38', name: 'Slurm OpenAPI v0.0.38' });
    expect(answer.json.errors).toEqual([]);
    expect(answer.json.pings).toEqual([expect.objectContaining({ ping: 'UP', mode: 'primary' })]);
  });

  it('lists the nodes of the cluster file', async () => {
    const answer = await restd.request('/slurm/v0.0.38/nodes');
    expect(answer.status).toBe(200);
    const shown = await ctl.run('tsinfo', ['-h', '-N', '-o', '%N']);
    expect(answer.json.nodes.map((n: { name: string }) => n.name).sort()).toEqual([...new Set(shown.stdout.trim().split('\n'))].sort());
  });

  it('lists a held job tsbatch submitted, as squeue --json shows it', async () => {
    const submitted = await ctl.run('tsbatch', ['--parsable', '--hold', '-J', 'held-one', '--wrap', 'true']);
    const id = Number(submitted.stdout.trim());
    const answer = await restd.request('/slurm/v0.0.38/jobs');
    expect(answer.status).toBe(200);
    const job = answer.json.jobs.find((j: { job_id: number }) => j.job_id === id);
    expect(job).toMatchObject({ name: 'held-one', job_state: 'PENDING', state_reason: 'JobHeldUser' });
    const squeue = await ctl.run('tsqueue', ['--json']);
    expect(job).toEqual(JSON.parse(squeue.stdout).jobs.find((j: { job_id: number }) => j.job_id === id));
  });

  it('refuses a request on TCP without a token', async () => {
    const answer = await restd.request('/slurm/v0.0.38/ping', { tcp: true });
    expect(answer.status).toBe(401);
    expect(answer.text).toBe('Authentication failure');
  });
});
