// tsrestd against a live controller running real jobs: slurmrestd 22.05's v0.0.38 paths, their
// answers (each checked against the OpenAPI document tsrestd serves, and against what
// squeue/sinfo/scontrol --json print for the same records), its errors array and plain-text
// refusals as captured from slurmrestd 22.05.8 (/work/ref/restd-slurmrestd-22.05.txt), over its
// Unix socket (the peer's uid) and TCP (a token from `tscontrol token`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execa } from 'execa';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { startRestd, type RequestOptions, type RestAnswer, type TestRestd } from '../helpers/restd.js';
import { openapiChecker, type Check } from '../helpers/openapi-check.js';
import { fixture } from '../helpers/run-bin.js';
import { signJwt } from '../../src/core/jwt-hs256.js';

const small = fixture('clusters', 'small.yaml');
const V = '/slurm/v0.0.38';
const asRoot = process.getuid?.() === 0;

describe('tsrestd', () => {
  const ctl = testController({ TSLURM_CONF: small });
  let restd: TestRestd;
  let check: Check;
  let rootToken: string;

  /** A request whose answer (JSON) must match `component` of the served document. */
  const call = async (target: string, component: string, options: RequestOptions = {}): Promise<RestAnswer> => {
    const answer = await restd.request(target, options);
    expect(answer.headers['content-type'], `${target}: ${answer.text}`).toMatch(/^application\/json/);
    expect(check(component, answer.json), `${target} against ${component}`).toEqual([]);
    return answer;
  };
  const token = async (...args: string[]): Promise<string> => {
    const made = await ctl.run('tscontrol', ['token', ...args]);
    expect(made.stderr).toBe('');
    return /^SLURM_JWT=(\S+)\n$/.exec(made.stdout)![1]!;
  };
  const tcpAs = (name: string, jwt: string): RequestOptions => ({ tcp: true, headers: { 'X-SLURM-USER-NAME': name, 'X-SLURM-USER-TOKEN': jwt } });
  const submission = (job: Record<string, unknown>, script = '#!/bin/sh\ntrue\n') => ({
    script,
    job: { current_working_directory: ctl.workDir, environment: { PATH: '/usr/bin:/bin' }, ...job },
  });

  beforeAll(async () => {
    restd = await startRestd(ctl);
    const document = (await restd.request('/openapi/v3')).json;
    check = openapiChecker(document);
    rootToken = await token();
  });
  afterAll(async () => {
    await restd?.stop();
    await ctl.run('tscancel', ['-u', 'root']);
    await ctl.stop();
  });

  it('serves its OpenAPI document, every path under v0.0.38 and the schemas it names', async () => {
    const document = (await restd.request('/openapi/v3')).json;
    expect(document.openapi).toBe('3.0.2');
    expect(Object.keys(document.paths).sort()).toEqual(
      ['diag', 'job/submit', 'job/{job_id}', 'jobs', 'node/{node_name}', 'nodes', 'partition/{partition_name}', 'partitions', 'ping', 'reservation/{reservation_name}', 'reservations']
        .map((p) => `${V}/${p}`)
        .concat(['/slurmdb/v0.0.38/jobs', '/slurmdb/v0.0.38/job/{job_id}'])
        .sort(),
    );
    expect(Object.keys(document.paths[`${V}/job/{job_id}`]).sort()).toEqual(['delete', 'get', 'post']);
    const refs = JSON.stringify(document).match(/#\/components\/schemas\/[\w.]+/g) ?? [];
    for (const ref of new Set(refs)) expect(document.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
  });

  it("makes tokens as scontrol token does, and refuses as it does", async () => {
    const made = await ctl.run('tscontrol', ['token', 'LIFESPAN=60', 'username=nobody']);
    const claims = JSON.parse(Buffer.from(/^SLURM_JWT=[^.]+\.([^.]+)\./.exec(made.stdout)![1]!, 'base64url').toString());
    expect([claims.sun, claims.exp - claims.iat]).toEqual(['nobody', 60]);
    expect(JSON.parse(Buffer.from((await token()).split('.')[1]!, 'base64url').toString())).toMatchObject({ sun: 'root' });
    expect(await ctl.run('tscontrol', ['token', 'bogus=1'])).toEqual({ exitCode: 1, stdout: '', stderr: 'Invalid option: `bogus=1`\n' });
    expect(await ctl.run('tscontrol', ['token', 'username=no-such-user'])).toEqual({ exitCode: 1, stdout: '', stderr: 'Error fetching token\n' });
    // The key: made once, the owner's alone.
    expect(statSync(path.join(ctl.stateDir, 'jwt_hs256.key')).mode & 0o777).toBe(0o600);
  });

  it('answers ping on the Unix socket for the peer, and refuses TCP without a token', async () => {
    const answer = await call(`${V}/ping`, 'v0.0.38_pings');
    expect(answer.status).toBe(200);
    expect(answer.json.meta).toEqual({ plugin: { type: 'openapi/v0.0.38', name: 'Slurm OpenAPI v0.0.38' }, Slurm: { version: { major: 22, micro: 8, minor: 5 }, release: '22.05.8' } });
    expect(answer.json.errors).toEqual([]);
    expect(answer.json.pings).toEqual([expect.objectContaining({ ping: 'UP', mode: 'primary', status: 0 })]);
    const refused = await restd.request(`${V}/ping`, { tcp: true });
    expect([refused.status, refused.headers['content-type'], refused.text]).toEqual([401, 'text/plain', 'Authentication failure']);
    const withToken = await call(`${V}/ping`, 'v0.0.38_pings', tcpAs('root', rootToken));
    expect(withToken.json.pings[0].ping).toBe('UP');
  });

  it('refuses expired, forged and mismatched tokens, and a name without a token', async () => {
    const key = readFileSync(path.join(ctl.stateDir, 'jwt_hs256.key'));
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt({ iat: now - 120, exp: now - 60, sun: 'root' }, key);
    const forged = signJwt({ iat: now, exp: now + 60, sun: 'root' }, Buffer.alloc(32, 7));
    const nobodys = signJwt({ iat: now, exp: now + 60, sun: 'nobody' }, key);
    for (const options of [
      tcpAs('root', expired),
      tcpAs('root', forged),
      tcpAs('root', 'not.a.token'),
      // A user's token speaks for that user alone.
      tcpAs('root', nobodys),
      { tcp: true, headers: { 'X-SLURM-USER-NAME': 'root' } },
      { tcp: true, headers: { 'X-SLURM-USER-TOKEN': rootToken } },
      // The headers are checked on the socket too.
      { headers: { 'X-SLURM-USER-NAME': 'root', 'X-SLURM-USER-TOKEN': expired } },
    ]) {
      const answer = await restd.request(`${V}/jobs`, options);
      expect([answer.status, answer.text], JSON.stringify(options.headers)).toEqual([401, 'Authentication failure']);
    }
    // The same checks pass a fresh token of the same user.
    expect((await restd.request(`${V}/jobs`, tcpAs('nobody', nobodys))).status).toBe(200);
  });

  it('lists jobs as squeue --json shows them, and one job by id', async () => {
    // A listing first: tsrestd keeps it, and must not answer with it once the queue changed.
    const before = (await call(`${V}/jobs`, 'v0.0.38_jobs_response')).json.jobs.length;
    const submitted = await ctl.run('tsbatch', ['--parsable', '--hold', '-J', 'held-one', '--wrap', 'true']);
    const id = Number(submitted.stdout.trim());
    const all = await call(`${V}/jobs`, 'v0.0.38_jobs_response');
    expect(all.json.jobs.length).toBe(before + 1);
    const job = all.json.jobs.find((j: { job_id: number }) => j.job_id === id);
    expect(job).toMatchObject({ name: 'held-one', job_state: 'PENDING', state_reason: 'JobHeldUser', user_name: 'root' });
    // Every key squeue writes is in the answer: none was dropped by the document's schema.
    const squeue = JSON.parse((await ctl.run('tsqueue', ['--json'])).stdout);
    expect(job).toEqual(squeue.jobs.find((j: { job_id: number }) => j.job_id === id));
    const one = await call(`${V}/job/${id}`, 'v0.0.38_jobs_response');
    expect(one.json.jobs).toEqual([job]);
    // A change to one job of the kept list shows, the others as they were.
    await ctl.run('tscontrol', ['update', `JobId=${id}`, 'Comment=changed']);
    const changed = (await call(`${V}/jobs`, 'v0.0.38_jobs_response')).json.jobs;
    expect(changed.find((j: { job_id: number }) => j.job_id === id)).toEqual({ ...job, comment: 'changed' });
    expect(changed.filter((j: { job_id: number }) => j.job_id !== id)).toEqual(all.json.jobs.filter((j: { job_id: number }) => j.job_id !== id));
  });

  it('answers an unknown or malformed job id as slurmrestd 22.05 does', async () => {
    const unknown = await call(`${V}/job/999999`, 'v0.0.38_jobs_response');
    expect(unknown.status).toBe(500);
    expect(unknown.json.errors).toEqual([{ description: 'Unable to find JobId=999999', error_number: 2017, error: 'Invalid job id specified', source: 'slurm_load_job' }]);
    expect(unknown.json.jobs).toEqual([]);
    const malformed = await call(`${V}/job/abc`, 'v0.0.38_jobs_response');
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors).toEqual([
      { description: 'Unable to find JobId=abc', error_number: 9002, error: 'Jobs description entry not found, empty or not dictionary or list', source: '_handle_job_get' },
    ]);
  });

  it('submits a job that runs, and cancels it', async () => {
    const body = submission({ name: 'rest-run', nodes: [1, 1], tasks: 2, time_limit: 5, standard_output: `${ctl.workDir}/rest-%j.out` }, '#!/bin/sh\necho started\nsleep 60\n');
    expect(check('v0.0.38_job_submission', body)).toEqual([]);
    const answer = await call(`${V}/job/submit`, 'v0.0.38_job_submission_response', { method: 'POST', body });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ errors: [], step_id: 'BATCH', job_submit_user_msg: '' });
    const id = answer.json.job_id as number;
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    await ctl.until(() => existsSync(path.join(ctl.workDir, `rest-${id}.out`)) && ctl.read(`rest-${id}.out`) === 'started\n');
    const shown = (await call(`${V}/job/${id}`, 'v0.0.38_jobs_response')).json.jobs[0];
    expect(shown).toMatchObject({ name: 'rest-run', job_state: 'RUNNING', node_count: 1, tasks: 2, time_limit: 5, current_working_directory: ctl.workDir });
    const cancelled = await call(`${V}/job/${id}`, 'v0.0.38_meta_errors', { method: 'DELETE' });
    expect([cancelled.status, cancelled.json.errors]).toEqual([200, []]);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
    // A job that has ended is no error to cancel again.
    expect((await call(`${V}/job/${id}`, 'v0.0.38_meta_errors', { method: 'DELETE' })).status).toBe(200);
  });

  it('sends a named signal to a running job', async () => {
    const script = "#!/bin/sh\ntrap 'echo got USR1; exit 0' USR1\necho ready\nwhile :; do sleep 0.2; done\n";
    const answer = await call(`${V}/job/submit`, 'v0.0.38_job_submission_response', {
      method: 'POST',
      body: submission({ name: 'rest-signal', standard_output: `${ctl.workDir}/signal-%j.out` }, script),
    });
    const id = answer.json.job_id as number;
    await ctl.until(() => existsSync(path.join(ctl.workDir, `signal-${id}.out`)) && ctl.read(`signal-${id}.out`) === 'ready\n');
    const signalled = await call(`${V}/job/${id}?signal=USR1`, 'v0.0.38_meta_errors', { method: 'DELETE' });
    expect(signalled.status).toBe(200);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    // The whole job got it (KILL_FULL_JOB): the shell's trap ran.
    expect(ctl.read(`signal-${id}.out`)).toContain('got USR1\n');
    const bad = await call(`${V}/job/${id}?signal=FOO`, 'v0.0.38_meta_errors', { method: 'DELETE' });
    expect([bad.status, bad.json.errors]).toEqual([
      400,
      [{ description: 'invalid signal: 0', error_number: 9000, error: 'Query empty or not RFC7320 compliant', source: 'HTTP request: signal' }],
    ]);
  });

  it('refuses submissions as slurmrestd 22.05 does, with its errors array', async () => {
    const post = (body: unknown) => call(`${V}/job/submit`, 'v0.0.38_job_submission_response', { method: 'POST', body });
    const noEnvironment = await post({ script: '#!/bin/sh\ntrue\n', job: { name: 'x', current_working_directory: ctl.workDir } });
    expect([noEnvironment.status, noEnvironment.json.errors]).toEqual([
      400,
      [
        { error: 'environment must be set', error_code: 2127 },
        { error_code: 9001, error: 'Failure during parsing' },
      ],
    ]);
    const unknownKey = await post(submission({ bogus_field: 1 }));
    expect([unknownKey.status, unknownKey.json.errors]).toEqual([
      400,
      [
        { description: 'Unknown key "bogus_field"', source: 'hsearch_r' },
        { error_code: 9001, error: 'Failure during parsing' },
      ],
    ]);
    const noScript = await post({ job: submission({}).job });
    expect([noScript.status, noScript.json.errors]).toEqual([500, [{ error_code: 2009, error: 'Job script not specified' }]]);
    const badPartition = await post(submission({ partition: 'nope' }));
    expect([badPartition.status, badPartition.json.errors]).toEqual([500, [{ error_code: 2000, error: 'Invalid partition name specified' }]]);
    const notJson = await restd.request(`${V}/job/submit`, { method: 'POST', body: '{"script":' });
    expect([notJson.status, notJson.text]).toEqual([400, 'Unable to parse query.']);
    // Keys in any case; a held job carries slurmctld's note.
    const held = await post(submission({ NAME: 'Upper', hold: true }));
    expect(held.json.errors).toEqual([{ error_code: 2042, error: 'Job is in held state, pending scheduler release' }]);
    expect(await ctl.jobField(held.json.job_id, 'JobName')).toBe('Upper');
  });

  it.runIf(asRoot)("submits and cancels as the token's user, who may not cancel another user's job", async () => {
    const nobody = await token('username=nobody');
    const answer = await call(`${V}/job/submit`, 'v0.0.38_job_submission_response', {
      ...tcpAs('nobody', nobody),
      method: 'POST',
      body: { script: '#!/bin/sh\nsleep 60\n', job: { name: 'as-nobody', current_working_directory: '/tmp', standard_output: '/dev/null', environment: { PATH: '/usr/bin:/bin' } } },
    });
    const id = answer.json.job_id as number;
    // The controller holds it as nobody's, as it holds a job tsbatch submitted as nobody.
    expect(await ctl.jobField(id, 'UserId')).toBe('nobody(65534)');
    expect(await ctl.jobField(id, 'GroupId')).toMatch(/^\w+\(65534\)$/);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    const other = await token('username=daemon');
    const refused = await call(`${V}/job/${id}`, 'v0.0.38_meta_errors', { ...tcpAs('daemon', other), method: 'DELETE' });
    expect([refused.status, refused.json.errors]).toEqual([
      500,
      [{ description: `unable to kill JobId=${id} with signal 9: Access/permission denied`, error_number: 2002, error: 'Access/permission denied', source: 'slurm_kill_job' }],
    ]);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    // Root's token may name another user, as slurmctld lets SlurmUser/root do.
    const asNobody = await call(`${V}/job/${id}`, 'v0.0.38_meta_errors', { ...tcpAs('nobody', rootToken), method: 'DELETE' });
    expect([asNobody.status, asNobody.json.errors]).toEqual([200, []]);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
  });

  it.runIf(asRoot)('takes a local socket peer for its uid (SO_PEERCRED), a submission included', async () => {
    // A socket every user reaches (the state directory is root's alone).
    const shared = mkdtempSync(path.join(tmpdir(), 'tsrestd-shared-'));
    chmodSync(shared, 0o755);
    const socketPath = path.join(shared, 'rest.sock');
    const second = await startRestd(ctl, ['--socket', socketPath]);
    try {
      const asNobody = async (method: string, target: string, body?: unknown) => {
        const script = `const http = require('node:http');
          const req = http.request({ socketPath: ${JSON.stringify(socketPath)}, path: ${JSON.stringify(target)}, method: ${JSON.stringify(method)}, headers: { 'content-type': 'application/json' } }, (res) => {
            let t = ''; res.on('data', (c) => (t += c)); res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, text: t })));
          });
          req.end(${JSON.stringify(body === undefined ? '' : JSON.stringify(body))});`;
        const ran = await execa(process.execPath, ['-e', script], { uid: 65534, gid: 65534, cwd: '/', reject: false });
        expect(ran.stderr).toBe('');
        return JSON.parse(ran.stdout) as { status: number; text: string };
      };
      const listed = await asNobody('GET', `${V}/jobs`);
      expect(listed.status).toBe(200);
      expect(check('v0.0.38_jobs_response', JSON.parse(listed.text))).toEqual([]);
      const submitted = await asNobody('POST', `${V}/job/submit`, { script: '#!/bin/sh\ntrue\n', job: { name: 'peer', hold: true, current_working_directory: '/tmp', environment: { A: '1' } } });
      const id = JSON.parse(submitted.text).job_id as number;
      expect(await ctl.jobField(id, 'UserId')).toBe('nobody(65534)');
      // The peer may cancel its own job, and not root's.
      const rootJob = Number((await ctl.run('tsbatch', ['--parsable', '--hold', '--wrap', 'true'])).stdout.trim());
      const refused = await asNobody('DELETE', `${V}/job/${rootJob}`);
      expect([refused.status, JSON.parse(refused.text).errors[0].error_number]).toEqual([500, 2002]);
      expect((await asNobody('DELETE', `${V}/job/${id}`)).status).toBe(200);
      expect(await ctl.jobField(id, 'JobState')).toBe('CANCELLED');
    } finally {
      await second.stop();
    }
  });

  it('lists nodes, partitions and reservations as the --json outputs show them', async () => {
    const nodes = await call(`${V}/nodes`, 'v0.0.38_nodes_response');
    const sinfo = JSON.parse((await ctl.run('tscontrol', ['show', 'node', '--json'])).stdout);
    expect(nodes.json.nodes.map((n: { name: string }) => n.name)).toEqual(['node1', 'node2', 'node3', 'node4']);
    // Allocation figures move with the jobs; the rest is the same record.
    const still = ({ alloc_cpus: _a, alloc_memory: _m, idle_cpus: _i, state: _s, cpu_load: _c, free_memory: _f, ...rest }: Record<string, unknown>) => rest;
    expect(nodes.json.nodes.map(still)).toEqual(sinfo.nodes.map(still));
    const node = await call(`${V}/node/node2`, 'v0.0.38_nodes_response');
    expect(node.json.nodes.map((n: { name: string }) => n.name)).toEqual(['node2']);
    const noNode = await call(`${V}/node/nope`, 'v0.0.38_nodes_response');
    expect([noNode.status, noNode.json.errors, noNode.json.nodes]).toEqual([500, [{ errno: 2018, error: 'Invalid node name specified' }], []]);

    const partitions = await call(`${V}/partitions`, 'v0.0.38_partitions_response');
    const shown = JSON.parse((await ctl.run('tscontrol', ['show', 'partition', '--json'])).stdout);
    expect(partitions.json.partitions).toEqual(shown.partitions);
    expect((await call(`${V}/partition/small`, 'v0.0.38_partitions_response')).json.partitions).toEqual([shown.partitions[1]]);
    const noPartition = await call(`${V}/partition/nope`, 'v0.0.38_partitions_response');
    expect([noPartition.status, noPartition.json.errors]).toEqual([500, [{ errno: 2000, error: 'Invalid partition name specified' }]]);

    expect((await call(`${V}/reservations`, 'v0.0.38_reservations_response')).json.reservations).toEqual([]);
    const made = await ctl.run('tscontrol', ['create', 'reservation', 'ReservationName=maint', 'StartTime=now', 'Duration=10', 'Nodes=node4', 'Users=root,nobody', 'Flags=MAINT']);
    expect(made.exitCode).toBe(0);
    const resv = await call(`${V}/reservation/maint`, 'v0.0.38_reservations_response');
    expect(resv.json.reservations).toEqual([
      expect.objectContaining({ name: 'maint', node_list: 'node4', node_count: 1, core_count: 4, users: 'root,nobody', flags: ['MAINT', 'SPEC_NODES'], tres: 'cpu=4' }),
    ]);
    expect(resv.json.reservations[0].end_time - resv.json.reservations[0].start_time).toBe(600);
    const noResv = await call(`${V}/reservation/nope`, 'v0.0.38_reservations_response');
    expect([noResv.status, noResv.json.errors, noResv.json.reservations]).toEqual([500, [{ errno: 2053, error: 'Requested reservation is invalid' }], []]);
    await ctl.run('tscontrol', ['delete', 'ReservationName=maint']);
  });

  it('reports the controller\'s figures in diag', async () => {
    const before = (await call(`${V}/diag`, 'v0.0.38_diag')).json.statistics;
    await call(`${V}/job/submit`, 'v0.0.38_job_submission_response', { method: 'POST', body: submission({ name: 'counted', hold: true }) });
    const after = (await call(`${V}/diag`, 'v0.0.38_diag')).json.statistics;
    expect(after.jobs_submitted).toBe(before.jobs_submitted + 1);
    expect(after.jobs_pending).toBe(before.jobs_pending + 1);
    expect(after.req_time_start).toBe(before.req_time_start);
    const submits = (s: typeof before) => s.rpcs_by_message_type.find((r: { message_type: string }) => r.message_type === 'submit')?.count ?? 0;
    expect(submits(after)).toBe(submits(before) + 1);
    expect(after.rpcs_by_user).toEqual(expect.arrayContaining([expect.objectContaining({ user: 'root', user_id: 0 })]));
  });

  it('lists only the jobs changed since update_time', async () => {
    const all = (await call(`${V}/jobs?update_time=1`, 'v0.0.38_jobs_response')).json.jobs;
    expect(all.length).toBeGreaterThan(0);
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect((await call(`${V}/jobs?update_time=${later}`, 'v0.0.38_jobs_response')).json.jobs).toEqual([]);
  });

  it('refuses a second tsrestd on the same socket, leaving the first serving', async () => {
    const second = await ctl.run('tsrestd', []);
    expect(second).toEqual({ exitCode: 1, stdout: '', stderr: `tsrestd: error: another tsrestd already listens on ${restd.socketPath}\n` });
    expect((await restd.request(`${V}/ping`)).status).toBe(200);
  });

  it('answers an unknown URL and an unknown method in slurmrestd\'s words', async () => {
    const url = await restd.request(`${V}/nosuch`);
    expect([url.status, url.text]).toEqual([404, 'Unable find requested URL. Please view /openapi/v3 for API reference.']);
    const method = await restd.request(`${V}/ping`, { method: 'POST' });
    expect([method.status, method.text]).toEqual([405, 'Requested REST method is not defined at URL. Please view /openapi/v3 for API reference.']);
  });
});
