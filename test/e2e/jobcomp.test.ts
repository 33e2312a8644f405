// Job completion logging (JobCompType): jobcomp/filetxt appends Slurm 22.05's line for each
// finished job to JobCompLoc, jobcomp/script runs JobCompLoc with the job in exactly Slurm's
// environment, and a script that fails is logged while the controller goes on.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { groupNameForGid } from '../../src/os/groups.js';

const uid = process.getuid?.() ?? 0;
const gid = process.getgid?.() ?? 0;
const user = os.userInfo().username;
const group = groupNameForGid(gid) ?? String(gid);

function clusterWith(dir: string, plugin: string, loc: string): string {
  const file = path.join(dir, `${plugin}.yaml`);
  writeFileSync(
    file,
    [
      'cluster: comp',
      'plugins:',
      `  jobcomp: jobcomp/${plugin}`,
      `  jobcomp_loc: ${loc}`,
      'nodes:',
      '  - name: node[1-2]',
      '    cpus: 2',
      '    memory: 1000',
      'partitions:',
      '  - name: debug',
      '    nodes: ALL',
      '    default: true',
      '    max_time: 10',
      '',
    ].join('\n'),
  );
  return file;
}

describe('jobcomp/filetxt', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('appends one line per finished job, in Slurm 22.05\'s layout', async () => {
    const log = path.join(ctl.workDir, 'jobcomp.log');
    const cluster = clusterWith(ctl.workDir, 'filetxt', log);
    const ok = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '-J', 'fine', '--wrap', 'true'])).stdout.trim();
    const bad = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '-N2', '-t', '5', '--wrap', 'exit 3'])).stdout.trim();
    await ctl.until(() => existsSync(log) && readFileSync(log, 'utf8').split('\n').length >= 3);
    const field = (id: string, name: string) => ctl.jobField(id, name);
    const expected = async (id: string, name: string, state: string, limit: string, nodes: string, count: number, exit: string) =>
      `JobId=${id} UserId=${user}(${uid}) GroupId=${group}(${gid}) Name=${name} JobState=${state} Partition=debug ` +
      `TimeLimit=${limit} StartTime=${await field(id, 'StartTime')} EndTime=${await field(id, 'EndTime')} NodeList=${nodes} ` +
      `NodeCnt=${count} ProcCnt=${count} WorkDir=${ctl.workDir} ReservationName= Tres=cpu=${count},mem=0M,node=${count},billing=${count} ` +
      `Account= QOS= WcKey= Cluster=comp SubmitTime=${await field(id, 'SubmitTime')} EligibleTime=${await field(id, 'EligibleTime')} ` +
      `DerivedExitCode=0:0 ExitCode=${exit} \n`;
    expect(readFileSync(log, 'utf8')).toBe(
      (await expected(ok, 'fine', 'COMPLETED', '10', 'node1', 1, '0:0')) + (await expected(bad, 'wrap', 'FAILED', '5', 'node[1-2]', 2, '3:0')),
    );
  });
});

describe('jobcomp/script', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('runs JobCompLoc once per finished job with Slurm\'s variables, in its order, from /tmp', async () => {
    const out = path.join(ctl.workDir, 'env');
    const script = path.join(ctl.workDir, 'jobcomp.sh');
    writeFileSync(script, `#!/bin/sh\n{ pwd; tr '\\0' '\\n' < /proc/$$/environ; } > ${out}.$JOBID\n[ "$JOBSTATE" = COMPLETED ]\n`);
    chmodSync(script, 0o755);
    const cluster = clusterWith(ctl.workDir, 'script', script);
    const id = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '-o', 'job.out', '--wrap', 'true'])).stdout.trim();
    await ctl.until(() => existsSync(`${out}.${id}`) && readFileSync(`${out}.${id}`, 'utf8').includes('PATH='));
    const field = (name: string) => ctl.jobField(id, name);
    const epoch = async (name: string) => String(Math.floor(new Date(await field(name)).getTime() / 1000));
    const tz = process.env.TZ === undefined ? [] : [`TZ=${process.env.TZ}`];
    expect(readFileSync(`${out}.${id}`, 'utf8').split('\n')).toEqual([
      '/tmp',
      `JOBID=${id}`,
      'EXITCODE=0:0',
      'DERIVED_EC=0:0',
      'ARRAYJOBID=0',
      'ARRAYTASKID=4294967294',
      `UID=${uid}`,
      `GID=${gid}`,
      `START=${await epoch('StartTime')}`,
      `END=${await epoch('EndTime')}`,
      `SUBMIT=${await epoch('SubmitTime')}`,
      'PROCS=1',
      'NODECNT=1',
      'DB_FLAGS=None',
      'BATCH=yes',
      'CLUSTER=comp',
      'CONSTRAINTS=',
      'NODES=node1',
      'ACCOUNT=',
      'JOBNAME=wrap',
      'JOBSTATE=COMPLETED',
      'PARTITION=debug',
      'QOS=',
      'DEPENDENCY=',
      `WORK_DIR=${ctl.workDir}`,
      'RESERVATION=',
      `USERNAME=${user}`,
      `GROUPNAME=${group}`,
      'STATEREASONPREV=None',
      // As submitted: -o given, -e and -i not.
      'STDOUT=job.out',
      'LIMIT=00:10:00',
      ...tz,
      'PATH=/usr/bin:/bin:/usr/sbin:/sbin',
      '',
    ]);
    // A script that exits non-zero (this one, for a failed job) is logged; the controller goes on.
    const failed = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '--wrap', 'exit 1'])).stdout.trim();
    await ctl.until(() => existsSync(`${out}.${failed}`));
    const log = path.join(ctl.stateDir, 'tsctld.log');
    await ctl.until(() => readFileSync(log, 'utf8').includes(`jobcomp/script: script ${script} exited with status 1`));
    expect(await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '--wrap', 'true'])).toMatchObject({ exitCode: 0 });
  });
});
