// tsrestd's accounting paths, GET /slurmdb/v0.0.38/jobs and /job/{job_id}, against the store a
// live controller wrote for real jobs (completed with steps, failed, cancelled): each answer
// checked against the OpenAPI document tsrestd serves, each job the same record `tsacct --json`
// prints, the query keys and refusals as slurmrestd 22.05.8's dbv0.0.38 answers them
// (/work/ref/restd-slurmdb-22.05.txt: 9000 with status 500 for a query it cannot read, 9003
// "Nothing found" and 7000 with status 200).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { startRestd, type RestAnswer, type TestRestd } from '../helpers/restd.js';
import { openapiChecker, type Check } from '../helpers/openapi-check.js';
import { fixture, repoRoot } from '../helpers/run-bin.js';

const DB = '/slurmdb/v0.0.38';
const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
const DB_META = { plugin: { type: 'openapi/dbv0.0.38', name: 'Slurm OpenAPI DB v0.0.38' }, Slurm: { version: { major: 22, micro: 8, minor: 5 }, release: '22.05.8' } };
const NOTHING_FOUND = [{ description: 'Nothing found', error_number: 9003, error: 'Nothing found with query', source: 'slurmdb_jobs_get' }];
const invalidQuery = (description: string, source?: string) => [
  { description, error_number: 9000, error: 'Query empty or not RFC7320 compliant', ...(source !== undefined && { source }) },
];

type Job = { job_id: number; name: string; state: { current: string }; steps: Array<{ step: { id: string } }> };

describe('tsrestd /slurmdb/v0.0.38', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  let restd: TestRestd;
  let check: Check;
  const ids: Record<'steps' | 'failed' | 'cancelled', number> = { steps: 0, failed: 0, cancelled: 0 };

  const get = async (target: string): Promise<RestAnswer> => {
    const answer = await restd.request(target);
    expect(answer.headers['content-type'], `${target}: ${answer.text}`).toMatch(/^application\/json/);
    expect(check('dbv0.0.38_job_info', answer.json), target).toEqual([]);
    expect(answer.json.meta, target).toEqual(DB_META);
    return answer;
  };
  const tsacctJobs = async (args: string[]): Promise<Job[]> => {
    const printed = await ctl.run('tsacct', ['--json', ...args]);
    expect(printed.stderr).toBe('');
    return JSON.parse(printed.stdout).jobs;
  };
  const submit = async (args: string[]): Promise<number> => {
    const r = await ctl.run('tsbatch', ['--parsable', '-o', '/dev/null', ...args]);
    expect(r.stderr).toBe('');
    return Number(r.stdout.trim());
  };
  const ended = (id: number) => ctl.until(async () => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(await ctl.jobField(id, 'JobState')), 60_000);

  beforeAll(async () => {
    restd = await startRestd(ctl);
    check = openapiChecker((await restd.request('/openapi/v3')).json);
    ids.steps = await submit(['-J', 'with-steps', '-n2', '--wrap', `${tsrun} -n2 true; ${tsrun} -n1 sh -c 'exit 3'; exit 0`]);
    ids.failed = await submit(['-J', 'fails', '--wrap', 'exit 7']);
    ids.cancelled = await submit(['-J', 'cancelled', '--wrap', 'sleep 300']);
    await ctl.until(async () => (await ctl.jobField(ids.cancelled, 'JobState')) === 'RUNNING');
    expect((await ctl.run('tscancel', [String(ids.cancelled)])).exitCode).toBe(0);
    for (const id of Object.values(ids)) await ended(id);
  }, 120_000);
  afterAll(async () => {
    await restd?.stop();
    await ctl.stop();
  });

  it('lists the paths and their schemas in the OpenAPI document', async () => {
    const document = (await restd.request('/openapi/v3')).json;
    const jobs = document.paths[`${DB}/jobs`].get;
    expect(jobs.operationId).toBe('slurmdb_v0_0_38_get_jobs');
    expect(jobs.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['start_time', 'end_time', 'submit_time', 'account', 'groups', 'job_name', 'partition', 'state', 'step', 'node', 'skip_steps']));
    expect(document.paths[`${DB}/job/{job_id}`].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/dbv0.0.38_job_info' });
  });

  it('answers each job as tsacct --json prints it: completed with steps, failed, cancelled', async () => {
    for (const [kind, id] of Object.entries(ids)) {
      const answer = await get(`${DB}/job/${id}`);
      expect([answer.status, answer.json.errors], kind).toEqual([200, []]);
      expect(answer.json.jobs, kind).toEqual(await tsacctJobs(['-j', String(id)]));
    }
    const [withSteps] = (await get(`${DB}/job/${ids.steps}`)).json.jobs as Job[];
    expect(withSteps!.state.current).toBe('COMPLETED');
    expect(withSteps!.steps.map((s) => s.step.id)).toEqual([`${ids.steps}.batch`, `${ids.steps}.0`, `${ids.steps}.1`]);
    expect((await get(`${DB}/job/${ids.failed}`)).json.jobs[0]).toMatchObject({ state: { current: 'FAILED' }, exit_code: { status: 'FAILED', return_code: 7 } });
    expect((await get(`${DB}/job/${ids.cancelled}`)).json.jobs[0]).toMatchObject({ name: 'cancelled', state: { current: 'CANCELLED' }, kill_request_user: expect.any(String) });
    // One step of a job, as sacct -j 7.1 selects it.
    const step = (await get(`${DB}/job/${ids.steps}.1`)).json.jobs as Job[];
    expect(step[0]!.steps.map((s) => s.step.id)).toEqual([`${ids.steps}.1`]);
  });

  it('lists jobs in a window, by state, name and node, and without steps, as tsacct selects them', async () => {
    const window = (await get(`${DB}/jobs?start_time=now-1hours`)).json.jobs as Job[];
    expect(window).toEqual(await tsacctJobs(['-a', '-S', 'now-1hours']));
    expect(window.map((j) => j.job_id)).toEqual(expect.arrayContaining(Object.values(ids)));
    const completed = (await get(`${DB}/jobs?start_time=now-1hours&state=CD`)).json.jobs as Job[];
    expect(completed).toEqual(await tsacctJobs(['-a', '-S', 'now-1hours', '-s', 'CD']));
    expect(completed.map((j) => j.state.current)).toEqual(completed.map(() => 'COMPLETED'));
    expect((await get(`${DB}/jobs?start_time=now-1hours&job_name=fails,cancelled`)).json.jobs.map((j: Job) => j.name).sort()).toEqual(['cancelled', 'fails']);
    const bare = (await get(`${DB}/jobs?start_time=now-1hours&skip_steps=true`)).json.jobs as Job[];
    expect(bare).toEqual(await tsacctJobs(['-a', '-S', 'now-1hours', '-X']));
    expect(bare.every((j) => j.steps.length === 0)).toBe(true);
    const onNode = (await get(`${DB}/jobs?start_time=now-1hours&node=node1&groups=root,0`)).json.jobs as Job[];
    expect(onNode).toEqual(await tsacctJobs(['-a', '-S', 'now-1hours', '-N', 'node1']));
    expect((await get(`${DB}/jobs?step=${ids.failed}`)).json.jobs).toEqual(await tsacctJobs(['-j', String(ids.failed)]));
  });

  it('says "Nothing found" for an unknown job or an empty selection, as 22.05 does (status 200)', async () => {
    const unknown = await get(`${DB}/job/999999`);
    expect([unknown.status, unknown.json.errors, unknown.json.jobs]).toEqual([200, NOTHING_FOUND, []]);
    const none = await get(`${DB}/jobs?start_time=now-1hours&partition=small`);
    expect([none.status, none.json.errors, none.json.jobs]).toEqual([200, NOTHING_FOUND, []]);
  });

  it("refuses a query 22.05 cannot read with its error 9000 and status 500 ('users' and 'group' are not its keys)", async () => {
    for (const [query, errors] of [
      ['users=root', invalidQuery('Unknown Query field')],
      ['group=root', invalidQuery('Unknown Query field')],
      ['state=BOGUS', invalidQuery('Unable to parse CSV list', 'state')],
      ['start_time=garbage', invalidQuery('Unable to parse time format', 'start_time')],
      ['cpus_min=x', invalidQuery('must be an integer', 'cpus_min')],
      ['node=node[1', invalidQuery('Unable to parse node list', 'node')],
      ['start_time=now&submit_time=now', invalidQuery('start_time and submit_time are mutually exclusive', 'submit_time')],
    ] as const) {
      const answer = await get(`${DB}/jobs?${query}`);
      expect([answer.status, answer.json.errors], query).toEqual([500, errors]);
    }
    // slurmrestd 22.05.8 dies on this one ("fatal: Bad job/step specified: abc"); tsrestd refuses it.
    const malformed = await get(`${DB}/job/abc`);
    expect([malformed.status, malformed.json.errors]).toEqual([500, invalidQuery('Unable to parse job/step format', 'job_id')]);
  });

  it('answers with no store yet (nothing recorded) and with a store it cannot read as 22.05 answers without slurmdbd', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'tsrestd-nostore-'));
    const empty = await startRestd({ env: { ...ctl.env, TSLURM_STATE_DIR: fresh }, workDir: ctl.workDir });
    try {
      const none = await empty.request(`${DB}/jobs`);
      expect(check('dbv0.0.38_job_info', none.json)).toEqual([]);
      expect([none.status, none.json.errors, none.json.jobs]).toEqual([200, NOTHING_FOUND, []]);
      writeFileSync(path.join(fresh, 'accounting.db'), 'not a database, whatever the name says\n'.repeat(200), { mode: 0o600 });
      const broken = await empty.request(`${DB}/job/1`);
      expect(check('dbv0.0.38_job_info', broken.json)).toEqual([]);
      expect([broken.status, broken.json.errors, broken.json.jobs]).toEqual([
        200,
        [{ description: 'Failed connecting to slurmdbd', error_number: 7000, error: 'Unable to connect to database', source: 'slurmdb_jobs_get' }],
        [],
      ]);
    } finally {
      await empty.stop();
    }
  });

  it('wants the same credentials as /slurm/: TCP without a token is refused', async () => {
    const refused = await restd.request(`${DB}/jobs`, { tcp: true });
    expect([refused.status, refused.text]).toEqual([401, 'Authentication failure']);
  });
});
