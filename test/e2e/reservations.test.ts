// Advance reservations and `tsqueue --start`, against the texts Slurm 22.05 printed for the
// same commands (scontrol create/update/delete/show reservation, sbatch --reservation, squeue
// --start with a job pending behind one with a time limit), on small.yaml (node[1-4]).
import { afterAll, describe, expect, it } from 'vitest';
import { userInfo } from 'node:os';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');
// `%.8u` of whoever runs the tests (jobs are submitted as them).
const U = userInfo().username.slice(0, 8).padStart(8);
const DATE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d';

describe('reservations', () => {
  const ctl = testController();
  afterAll(async () => {
    await ctl.run('tscancel', ['--cluster', small, '-u', 'root']).catch(() => {});
    await ctl.stop();
  });
  const scontrol = (...args: string[]) => ctl.run('tscontrol', ['--cluster', small, ...args]);
  const sbatch = (...args: string[]) => ctl.run('tsbatch', ['--cluster', small, ...args]);
  const create = (...words: string[]) => scontrol('create', 'reservation', ...words);

  it('refuses what scontrol refuses, in its words', async () => {
    const refused = (stderr: string) => ({ exitCode: 1, stdout: '', stderr });
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Nodes=node3')).toEqual(
      refused('tscontrol: error: Either Users/Groups and/or Accounts must be specified.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=bogus', 'Duration=10', 'Nodes=node3', 'Users=root')).toEqual(
      refused('Invalid time specification (pos=0): bogus\ntscontrol: error: Invalid start time StartTime=bogus.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'Duration=10', 'Nodes=node3', 'Users=root')).toEqual(
      refused('tscontrol: error: A start time must be given.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Nodes=node3', 'Users=root')).toEqual(
      refused('tscontrol: error: An end time or duration must be given.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Users=root')).toEqual(
      refused('tscontrol: error: CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=bogus', 'Nodes=node3', 'Users=root')).toEqual(
      refused('tscontrol: error: Invalid duration Duration=bogus.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Nodes=node3', 'Users=root', 'Flags=BOGUS')).toEqual(
      refused('tscontrol: error: Error parsing flags BOGUS.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Nodes=node3', 'Users=root', 'Bogus=1')).toEqual(
      refused('tscontrol: error: Unknown parameter Bogus=1.  No reservation created.\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Nodes=node9', 'Users=root')).toEqual(
      refused('Error creating the reservation: Invalid node name specified\n'),
    );
    expect(await create('ReservationName=x', 'StartTime=now', 'Duration=10', 'Nodes=node3', 'Users=nosuchuser')).toEqual(
      refused('Error creating the reservation: Invalid user id\n'),
    );
    expect(await scontrol('show', 'reservation')).toEqual({ exitCode: 0, stdout: 'No reservations in the system\n', stderr: '' });
    expect(await scontrol('show', 'res', 'nope')).toEqual({ exitCode: 1, stdout: 'Reservation nope not found\n', stderr: '' });
    expect(await scontrol('delete', 'ReservationName=nope')).toEqual(refused('delete_reservation ReservationName=nope: Requested reservation is invalid\n'));
    expect(await scontrol('update', 'ReservationName=nope', 'Duration=5')).toEqual(
      refused('Error updating the reservation: Requested reservation is invalid\nslurm_update error: Requested reservation is invalid\n'),
    );
  });

  it('creates, shows, updates; refuses overlaps and duplicates; jobs run inside it, others wait', async () => {
    expect(await create('ReservationName=r1', 'StartTime=now', 'Duration=10', 'Nodes=node1', 'Users=root')).toEqual({
      exitCode: 0,
      stdout: 'Reservation created: r1\n',
      stderr: '',
    });
    const shown = await scontrol('show', 'res', 'r1');
    expect(shown.stdout).toMatch(
      new RegExp(
        `^ReservationName=r1 StartTime=${DATE} EndTime=${DATE} Duration=00:10:00\n` +
          '   Nodes=node1 NodeCnt=1 CoreCnt=4 Features=\\(null\\) PartitionName=\\(null\\) Flags=SPEC_NODES\n' +
          '   TRES=cpu=4\n' +
          '   Users=root Groups=\\(null\\) Accounts=\\(null\\) Licenses=\\(null\\) State=ACTIVE BurstBuffer=\\(null\\) Watts=n/a\n' +
          '   MaxStartDelay=\\(null\\)\n\n$',
      ),
    );
    expect(await create('ReservationName=r3', 'StartTime=now', 'Duration=10', 'Nodes=node1', 'Users=root')).toMatchObject({
      exitCode: 1,
      stderr: 'Error creating the reservation: Requested reservation overlaps with another reservation\n',
    });
    expect((await create('ReservationName=r1', 'StartTime=now', 'Duration=10', 'Nodes=node4', 'Users=root')).stderr).toBe(
      'Error creating the reservation: Duplicate reservation name\n',
    );
    expect(await scontrol('update', 'ReservationName=r1', 'Duration=20')).toEqual({ exitCode: 0, stdout: 'Reservation updated.\n', stderr: '' });
    expect((await scontrol('-o', 'show', 'res', 'r1')).stdout).toContain(' Duration=00:20:00 Nodes=node1 ');

    // NodeCnt=: select_p_resv_test picks them in the default partition, around node1.
    const counted = await create('StartTime=now', 'Duration=10', 'NodeCnt=2', 'Users=root', 'Flags=IGNORE_JOBS');
    expect(counted).toEqual({ exitCode: 0, stdout: 'Reservation created: root_2\n', stderr: '' });
    expect((await scontrol('-o', 'show', 'res', 'root_2')).stdout).toContain(' Nodes=node[2-3] NodeCnt=2 CoreCnt=8 Features=(null) PartitionName=debug Flags=IGNORE_JOBS ');
    const busy = await create('StartTime=now', 'Duration=10', 'NodeCnt=2', 'Users=root');
    expect(busy).toEqual({
      exitCode: 1,
      stdout: 'Note, unless nodes are directly requested a reservation must exist in a single partition.\nIf no partition is requested the default partition is assumed.\n',
      stderr: 'Error creating the reservation: Requested nodes are busy\n',
    });

    // sinfo shows idle reserved nodes as resv (observed on Slurm 22.05).
    expect((await ctl.run('tsinfo', ['--cluster', small, '-N', '-h', '-p', 'debug', '-o', '%N %t'])).stdout).toBe('node1 resv\nnode2 resv\nnode3 resv\nnode4 idle\n');

    expect(await sbatch('--reservation=nope', '--wrap', 'true')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbatch: error: Batch job submission failed: Requested reservation is invalid\n',
    });
    const inside = (await sbatch('--parsable', '--reservation=r1', '-N1', '--wrap', 'sleep 30')).stdout.trim();
    const outside = (await sbatch('--parsable', '-w', 'node1', '--wrap', 'true')).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(inside, 'JobState')) === 'RUNNING');
    expect(await ctl.jobField(inside, 'NodeList')).toBe('node1');
    expect(await ctl.jobField(inside, 'Reservation')).toBe('r1');
    await ctl.until(async () => (await ctl.run('tsqueue', ['--cluster', small, '-h', '-j', outside, '-o', '%R'])).stdout !== '(None)\n');
    expect((await ctl.run('tsqueue', ['--cluster', small, '-h', '-o', '%i|%v|%R'])).stdout).toBe(
      `${outside}|(null)|(ReqNodeNotAvail, May be reserved for other job)\n${inside}|r1|node1\n`,
    );
    expect((await ctl.run('tsqueue', ['--cluster', small, '-h', '-R', 'r1', '-o', '%i'])).stdout).toBe(`${inside}\n`);
    // A reservation with a running job in it is in use.
    expect(await scontrol('delete', 'ReservationName=r1')).toMatchObject({
      exitCode: 1,
      stderr: 'delete_reservation ReservationName=r1: Requested reservation is in use\n',
    });
    await ctl.run('tscancel', ['--cluster', small, inside, outside]);
    await ctl.until(async () => (await scontrol('delete', 'ReservationName=r1')).exitCode === 0);
    expect((await scontrol('delete', 'ReservationName=root_2')).exitCode).toBe(0);
    expect((await scontrol('show', 'res')).stdout).toBe('No reservations in the system\n');
  });

  it('access is for the users named; a future reservation holds its jobs; MAINT keeps others off', async () => {
    expect((await create('ReservationName=later', 'StartTime=now+1hour', 'Duration=10', 'Nodes=node4', 'Users=root')).exitCode).toBe(0);
    expect((await create('ReservationName=theirs', 'StartTime=now+1hour', 'Duration=10', 'Nodes=node3', 'Users=nobody')).exitCode).toBe(0);
    expect(await sbatch('--reservation=theirs', '--wrap', 'true')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbatch: error: Batch job submission failed: Access denied to requested reservation\n',
    });
    expect((await scontrol('show', 'res', 'later')).stdout).toContain(' State=INACTIVE ');
    const waiting = (await sbatch('--parsable', '--reservation=later', '--wrap', 'true')).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(waiting, 'Reason')) === 'Reservation');
    expect(await ctl.jobField(waiting, 'StartTime')).toBe('Unknown');

    expect((await create('ReservationName=m1', 'StartTime=now+2minutes', 'Duration=10', 'Nodes=ALL', 'Users=root', 'Flags=MAINT')).exitCode).toBe(0);
    expect((await scontrol('-o', 'show', 'res', 'm1')).stdout).toContain(' Nodes=node[1-4] NodeCnt=4 CoreCnt=16 Features=(null) PartitionName=(null) Flags=MAINT,SPEC_NODES,ALL_NODES ');
    const tooLong = (await sbatch('--parsable', '-t', '5', '--wrap', 'true')).stdout.trim();
    const short = (await sbatch('--parsable', '-t', '1', '--wrap', 'true')).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(tooLong, 'Reason')) === 'ReqNodeNotAvail,');
    expect((await ctl.run('tsqueue', ['--cluster', small, '-h', '-j', tooLong, '-o', '%R'])).stdout).toBe('(ReqNodeNotAvail, Reserved for maintenance)\n');
    await ctl.until(async () => (await ctl.jobField(short, 'JobState')) === 'COMPLETED');

    // A restarted controller keeps the reservations (resv_state beside job_state).
    await ctl.stop();
    const after = await scontrol('show', 'reservation');
    expect(after.stdout.match(/^ReservationName=\S+/gm)).toEqual(['ReservationName=later', 'ReservationName=theirs', 'ReservationName=m1']);
    await ctl.run('tscancel', ['--cluster', small, waiting, tooLong]);
    for (const name of ['later', 'theirs', 'm1']) expect((await scontrol('delete', `ReservationName=${name}`)).exitCode).toBe(0);
  });

  it('tsqueue --start: a job pending behind one with a time limit starts when that limit ends', async () => {
    const first = (await sbatch('--parsable', '-N4', '--exclusive', '-t', '5', '--wrap', 'sleep 60')).stdout.trim();
    const second = (await sbatch('--parsable', '-N4', '--exclusive', '-t', '5', '--wrap', 'true')).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(second, 'StartTime')) !== 'Unknown');
    const started = await ctl.jobField(first, 'StartTime');
    const ends = await ctl.jobField(first, 'EndTime');
    expect(await ctl.jobField(second, 'StartTime')).toBe(ends);
    expect(Date.parse(`${ends}Z`) - Date.parse(`${started}Z`)).toBe(5 * 60_000);
    expect(await ctl.jobField(second, 'SchedNodeList')).toBe('node[1-4]');
    const start = await ctl.run('tsqueue', ['--cluster', small, '--start']);
    expect(start.stdout).toBe(
      '             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES           NODELIST(REASON)\n' +
        `${second.padStart(18)}     debug     wrap ${U} PD ${ends}      4 node[1-4]            (Resources)\n`,
    );
    await ctl.run('tscancel', ['--cluster', small, first, second]);
  });
});
