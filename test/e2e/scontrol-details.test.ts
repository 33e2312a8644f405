// scontrol's global options, `-d show job`, live node facts, wait_job, listpids, version, show
// daemons|topology and the controller started by ping, against what Slurm 22.05 printed for
// the same commands (/work/ref/scontrol.txt); live values (times, load, memory) are masked.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs, 2000 MB; partitions debug, small
const gpu = fixture('clusters', 'gpu.yaml');
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/g;

describe('scontrol options and details', () => {
  const ctl = testController({ TSLURM_CONF: small });
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', 'root']).catch(() => {});
    await ctl.stop();
  });
  const scontrol = (...args: string[]) => ctl.run('tscontrol', args);
  const sbatch = async (...args: string[]) => (await ctl.run('tsbatch', ['--parsable', ...args])).stdout.trim();
  const running = (id: string) => ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');

  it('ping starts the controller: UP at once on a fresh state directory', async () => {
    const host = (await import('node:os')).hostname().split('.')[0];
    expect(await scontrol('ping')).toEqual({ exitCode: 0, stdout: `Slurmctld(primary) at ${host} is UP\n`, stderr: '' });
  });

  it('ping that cannot start a controller says DOWN with the banner, exit 1', async () => {
    const host = (await import('node:os')).hostname().split('.')[0];
    const down = await runBin('tscontrol', ['ping'], { env: { TSLURM_CONF: small, TSLURM_STATE_DIR: '/proc/no-such-dir/state' } });
    expect(down).toEqual({
      exitCode: 1,
      stdout: `Slurmctld(primary) at ${host} is DOWN\n*****************************************\n** RESTORE SLURMCTLD DAEMON TO SERVICE **\n*****************************************\n`,
      stderr: '',
    });
  });

  it('takes -d -o before the command and after it; -Q silences errors', async () => {
    const id = await sbatch('--hold', '--wrap', 'true');
    const before = await scontrol('-d', '-o', 'show', 'jobs');
    const after = await scontrol('show', 'job', id, '-d', '--oneliner');
    expect(before.exitCode).toBe(0);
    // (AllocNode:Sid= names the submitting session, which differs run to run: masked.)
    const sid = (text: string) => text.replace(/AllocNode:Sid=\S+/, 'AllocNode:Sid=<sid>');
    expect({ ...after, stdout: sid(after.stdout) }).toEqual({ exitCode: 0, stdout: sid(before.stdout.split('\n').find((l) => l.startsWith(`JobId=${id} `))!) + '\n', stderr: '' });
    // A pending job: DerivedExitCode, but no allocation lines (observed).
    expect(after.stdout).toContain(' ExitCode=0:0 DerivedExitCode=0:0 RunTime=');
    expect(after.stdout).not.toContain('JOB_GRES');
    expect(await scontrol('-Q', 'show', 'job', '999999')).toEqual({ exitCode: 1, stdout: '', stderr: '' });
    expect(await scontrol('show', 'job', '999999')).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified\n' });
    expect(await scontrol('-Q', 'show', 'node', 'nosuch')).toEqual({ exitCode: 1, stdout: '', stderr: '' });
    expect(await scontrol('-a', 'show', 'partition', 'small')).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^PartitionName=small\n/) });
    expect(await scontrol('-M', 'small', 'show', 'partition', 'small')).toMatchObject({ exitCode: 0 });
    expect(await scontrol('-M', 'foo', 'show', 'job')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "tscontrol: error: 'foo' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters.\n",
    });
    // getopt's two lines, as scontrol prints them.
    expect(await scontrol('-x', 'show', 'job')).toMatchObject({ exitCode: 1, stderr: 'tscontrol: invalid option -- \'x\'\nTry "tscontrol --help" for more information\n' });
    await ctl.run('tscancel', [id]);
  });

  it('-d show job: DerivedExitCode, JOB_GRES and the CPUs and memory of each node, as 22.05 prints them', async () => {
    const name = `a_rather_long_job_name_${'x'.repeat(300)}`;
    const id = await sbatch('-J', name, '-c', '2', '--mem=100', '--comment=hello world', '--wrap', 'sleep 60');
    await running(id);
    const shown = await scontrol('-d', 'show', 'job', id);
    const text = shown.stdout
      .replace(TIME, '<time>')
      .replace(/RunTime=\S+/, 'RunTime=<t>')
      .replace(/Priority=\d+/, 'Priority=<p>')
      .replace(/AllocNode:Sid=\S+/, 'AllocNode:Sid=<sid>')
      .replaceAll(ctl.workDir, '<dir>')
      .replaceAll(`JobId=${id} `, 'JobId=<id> ')
      .replaceAll(`slurm-${id}.out`, 'slurm-<id>.out');
    // Observed on Slurm 22.05 for `sbatch -J <long name> --mem=100M -c 2 --comment="hello world"`:
    // the same lines (Mem=0 there: its select does not count memory; here it does).
    expect(text).toBe(
      [
        `JobId=<id> JobName=${name}`,
        '   UserId=root(0) GroupId=root(0) MCS_label=N/A',
        '   Priority=<p> Nice=0 Account=(null) QOS=(null)',
        '   JobState=RUNNING Reason=None Dependency=(null)',
        '   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0',
        '   DerivedExitCode=0:0',
        '   RunTime=<t> TimeLimit=UNLIMITED TimeMin=N/A',
        '   SubmitTime=<time> EligibleTime=<time>',
        '   AccrueTime=<time>',
        '   StartTime=<time> EndTime=Unknown Deadline=N/A',
        '   SuspendTime=None SecsPreSuspend=0 LastSchedEval=<time> Scheduler=Main',
        '   Partition=debug AllocNode:Sid=<sid>',
        '   ReqNodeList=(null) ExcNodeList=(null)',
        '   NodeList=node1',
        '   BatchHost=node1',
        '   NumNodes=1 NumCPUs=2 NumTasks=1 CPUs/Task=2 ReqB:S:C:T=0:0:*:*',
        '   TRES=cpu=2,mem=100M,node=1,billing=2',
        '   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*',
        '   JOB_GRES=(null)',
        '     Nodes=node1 CPU_IDs=0-1 Mem=100 GRES=',
        '   MinCPUsNode=2 MinMemoryNode=100M MinTmpDiskNode=0',
        '   Features=(null) DelayBoot=00:00:00',
        '   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)',
        '   Command=(null)',
        '   WorkDir=<dir>',
        '   Comment=hello world ',
        '   StdErr=<dir>/slurm-<id>.out',
        '   StdIn=/dev/null',
        '   StdOut=<dir>/slurm-<id>.out',
        '   Power=',
        '   ',
        '',
        '',
      ].join('\n'),
    );
    // The name round-trips whole through squeue and scontrol -o too.
    expect((await ctl.run('tsqueue', ['-h', '-j', id, '-o', '%j'])).stdout).toBe(`${name}\n`);
    expect((await scontrol('-o', 'show', 'job', id)).stdout).toContain(` JobName=${name} UserId=`);
    // -o -d: the allocation line keeps its two leading spaces (observed: "JOB_GRES=(null)   Nodes=").
    expect((await scontrol('-o', '-d', 'show', 'job', id)).stdout).toContain(' JOB_GRES=(null)   Nodes=node1 CPU_IDs=0-1 Mem=100 GRES= MinCPUsNode=2 ');
    // The next job on node1 gets the next free CPUs.
    const next = await sbatch('-w', 'node1', '-n', '2', '--wrap', 'sleep 60');
    await running(next);
    expect((await scontrol('-o', '-d', 'show', 'job', next)).stdout).toContain('   Nodes=node1 CPU_IDs=2-3 Mem=0 GRES= ');
    await ctl.run('tscancel', [id, next]);
  });

  it('CPU numbers survive a killed controller, and the next job still gets free ones', async () => {
    const { readFileSync } = await import('node:fs');
    const cpus = async (id: string) => /   Nodes=node2 CPU_IDs=(\S+) /.exec((await scontrol('-o', '-d', 'show', 'job', id)).stdout)?.[1];
    const a = await sbatch('-w', 'node2', '-n', '2', '--wrap', 'sleep 60');
    await running(a);
    const b = await sbatch('-w', 'node2', '-n', '1', '--wrap', 'sleep 60');
    await running(b);
    expect([await cpus(a), await cpus(b)]).toEqual(['0-1', '2']);
    process.kill(Number(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8')), 'SIGKILL');
    await ctl.until(async () => (await scontrol('ping')).exitCode === 0);
    expect([await cpus(a), await cpus(b)]).toEqual(['0-1', '2']);
    const c = await sbatch('-w', 'node2', '-n', '1', '--wrap', 'sleep 60');
    await running(c);
    expect(await cpus(c)).toBe('3');
    await ctl.run('tscancel', [a, b, c]);
  });

  it('show node: Arch, OS, CPULoad, FreeMem and boot times live from the host', async () => {
    const os = await import('node:os');
    const shown = (await scontrol('show', 'node', 'node3')).stdout;
    const masked = shown.replace(TIME, '<time>').replace(/CPULoad=\d+\.\d\d/, 'CPULoad=<load>').replace(/FreeMem=\d+/, 'FreeMem=<mb>');
    // Observed on Slurm 22.05 (scontrol show node, one registered node), live values masked.
    expect(masked).toBe(
      [
        `NodeName=node3 Arch=${os.machine()} CoresPerSocket=4 `,
        '   CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=<load>',
        '   AvailableFeatures=(null)',
        '   ActiveFeatures=(null)',
        '   Gres=(null)',
        `   NodeAddr=node3 NodeHostName=node3 Version=${/Version=(\S+)/.exec(shown)![1]}`,
        `   OS=${os.type()} ${os.release()} ${os.version()} `,
        '   RealMemory=2000 AllocMem=0 FreeMem=<mb> Sockets=1 Boards=1',
        '   State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A',
        '   Partitions=debug ',
        '   BootTime=<time> SlurmdStartTime=<time>',
        '   LastBusyTime=Unknown',
        '   CfgTRES=cpu=4,mem=2000M,billing=4',
        '   AllocTRES=',
        '   CapWatts=n/a',
        '   CurrentWatts=0 AveWatts=0',
        '   ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s',
        '',
        '',
      ].join('\n'),
    );
    const free = Number(/FreeMem=(\d+)/.exec(shown)![1]);
    expect(Math.abs(free - os.freemem() / 1048576)).toBeLessThan(1024);
    const boot = Date.parse(`${/BootTime=(\S+)/.exec(shown)![1]}`) / 1000;
    expect(Math.abs(boot - (Date.now() / 1000 - os.uptime()))).toBeLessThan(5);
  });

  it('wait_job, listpids: the answers of scontrol 22.05', async () => {
    expect(await scontrol('wait_job', '999999')).toEqual({ exitCode: 1, stdout: '', stderr: 'tscontrol: Problem running job 999999\n' });
    expect(await scontrol('wait_job')).toEqual({ exitCode: 1, stdout: '', stderr: 'too few arguments for keyword:wait_job\n' });
    expect(await scontrol('wait_job', 'abc')).toEqual({ exitCode: 1, stdout: '', stderr: 'Invalid job_id abc\n' });
    const held = await sbatch('--hold', '--wrap', 'true');
    expect(await scontrol('wait_job', held)).toEqual({ exitCode: 1, stdout: '', stderr: `tscontrol: Job ${held} no longer running\n` });
    const header = 'PID      JOBID    STEPID   LOCALID GLOBALID\n';
    expect(await scontrol('listpids')).toEqual({ exitCode: 1, stdout: header, stderr: 'No job steps exist on this node.\n' });
    expect(await scontrol('listpids', '999999')).toEqual({ exitCode: 1, stdout: header, stderr: 'JobId=999999 does not exist on node (null).\n' });
    expect(await scontrol('listpids', 'abc')).toEqual({ exitCode: 1, stdout: '', stderr: '"abc" does not look like a jobid\n' });
    const id = await sbatch('--wrap', 'sleep 60 & wait');
    await running(id);
    expect(await scontrol('wait_job', id)).toEqual({ exitCode: 0, stdout: '', stderr: `tscontrol: Nodes are ready for job ${id}\n` });
    let listed = '';
    await ctl.until(async () => (listed = (await scontrol('listpids', id)).stdout).split('\n').length >= 4);
    const rows = listed.split('\n').slice(1, -1);
    // The batch script with its task ids, then what it started (`-`), columns as scontrol pads them.
    expect(rows[0]).toMatch(new RegExp(`^\\d+ {4,8}${id} {4,8}batch    0       0       $`));
    expect(rows[1]).toMatch(new RegExp(`^\\d+ {4,8}${id} {4,8}batch    -       -       $`));
    expect(await scontrol('listpids', '999999')).toEqual({ exitCode: 1, stdout: header, stderr: 'There are no steps for job 999999 on node (null).\n' });
    await ctl.run('tscancel', [id, held]);
  });

  it('write batch_script: the script as submitted, to slurm-ID.sh, a file or stdout', async () => {
    const script = '#!/bin/bash\n#SBATCH -J scripted\necho "$SLURM_JOB_ID"\n';
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(path.join(ctl.workDir, 'job.sh'), script);
    const id = await sbatch('--hold', 'job.sh');
    expect(await scontrol('write', 'batch_script', id, '-')).toEqual({ exitCode: 0, stdout: script, stderr: '' });
    expect(await scontrol('write', 'batch_script', id)).toEqual({ exitCode: 0, stdout: `batch script for job ${id} written to slurm-${id}.sh\n`, stderr: '' });
    expect(readFileSync(path.join(ctl.workDir, `slurm-${id}.sh`), 'utf8')).toBe(script);
    expect(await scontrol('write', 'batch_script', id, 'copy.sh')).toEqual({ exitCode: 0, stdout: `batch script for job ${id} written to copy.sh\n`, stderr: '' });
    expect(readFileSync(path.join(ctl.workDir, 'copy.sh'), 'utf8')).toBe(script);
    // Observed on 22.05: the failure is reported, with exit status 0.
    expect(await scontrol('write', 'batch_script', '999999')).toEqual({ exitCode: 0, stdout: '', stderr: 'job script retrieval failed: Invalid job id specified\n' });
    expect(await scontrol('write', 'foo')).toEqual({ exitCode: 1, stdout: '', stderr: 'invalid write argument:foo\n' });
    await ctl.run('tscancel', [id]);
  });

  it('version, show daemons, show topology without a topology plugin', async () => {
    expect((await scontrol('version')).stdout).toMatch(/^tslurm \d+\.\d+\.\d+\n$/);
    expect(await scontrol('show', 'daemons')).toEqual({ exitCode: 0, stdout: 'tsctld tsstepd\n', stderr: '' });
    expect(await scontrol('show', 'topology')).toEqual({ exitCode: 0, stdout: '', stderr: 'tscontrol: error: No topology information available\n' });
    expect(await scontrol('show', 'topology', 'node1')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'tscontrol: error: Topology information contains no switch or node named node1\n',
    });
    expect(await scontrol('show', 'foo')).toEqual({ exitCode: 1, stdout: '', stderr: 'invalid entity:foo for keyword:show \n' });
    expect(await scontrol('bogus')).toEqual({ exitCode: 1, stdout: '', stderr: 'invalid keyword: bogus\n' });
  });
});

describe('scontrol -d show job with generic resources', () => {
  const ctl = testController({ TSLURM_CONF: gpu });
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', 'root']).catch(() => {});
    await ctl.stop();
  });

  it('prints JOB_GRES and each node run with its GPU indices', async () => {
    const id = (await ctl.run('tsbatch', ['--parsable', '-p', 'gpu', '-N2', '--gres=gpu:2', '--mem=1G', '--wrap', 'sleep 60'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    const lines = (await ctl.run('tscontrol', ['-d', 'show', 'job', id])).stdout.split('\n');
    const at = lines.indexOf('   JOB_GRES=gpu:4');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('     Nodes=gpu[1-2] CPU_IDs=0 Mem=1024 GRES=gpu:2(IDX:0-1)');
  });
});

describe('scontrol show job with no controller', () => {
  it('answers as before from a state directory no controller serves', async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'tslurm-noctld-'));
    expect(await runBin('tscontrol', ['-d', '-o', 'show', 'jobs'], { env: { TSLURM_CONF: small, TSLURM_STATE_DIR: state } })).toEqual({
      exitCode: 0,
      stdout: 'No jobs in the system\n',
      stderr: '',
    });
  });
});

describe('scontrol ping and show daemons with a TCP controller (control.address)', () => {
  it('UP while tsctld answers; DOWN with the banner once it is gone, and none is started in its place', async () => {
    const { startDaemonCluster } = await import('../helpers/daemon-cluster.js');
    const cluster = await startDaemonCluster({ nodes: 1 });
    try {
      expect(await cluster.run('tscontrol', ['ping'])).toEqual({ exitCode: 0, stdout: 'Slurmctld(primary) at 127.0.0.1 is UP\n', stderr: '' });
      // The controller and the node daemon both live on this host.
      expect((await cluster.run('tscontrol', ['show', 'daemons'])).stdout).toBe('tsctld tsstepd\n');
    } finally {
      await cluster.stop();
    }
    expect(await cluster.run('tscontrol', ['ping'])).toEqual({
      exitCode: 1,
      stdout: 'Slurmctld(primary) at 127.0.0.1 is DOWN\n*****************************************\n** RESTORE SLURMCTLD DAEMON TO SERVICE **\n*****************************************\n',
      stderr: '',
    });
  }, 60_000);
});
