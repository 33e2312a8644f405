// `tscontrol show job` of a held batch job, line for line as scontrol 22.05 printed the same
// job (/work/notes-sbatch-facts.md 4.1: `sbatch --hold --wrap='sleep 20'`); only the times, the
// job id, the submitting session and the paths differ from run to run.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4]: 4 CPUs, 2000 MB each

describe('tscontrol show job', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('prints a held job as scontrol does', async () => {
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--hold', '--wrap', 'sleep 20'])).stdout.trim();
    const shown = await ctl.run('tscontrol', ['show', 'job', id]);
    expect(shown.exitCode).toBe(0);
    const text = shown.stdout
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/g, '<time>')
      .replace(/AllocNode:Sid=\S+/, 'AllocNode:Sid=<sid>')
      .replaceAll(ctl.workDir, '<dir>')
      .replace(`JobId=${id} `, 'JobId=<id> ')
      .replaceAll(`-${id}.out`, '-<id>.out');
    expect(text).toBe(
      [
        'JobId=<id> JobName=wrap',
        '   UserId=root(0) GroupId=root(0) MCS_label=N/A',
        '   Priority=0 Nice=0 Account=(null) QOS=(null)',
        '   JobState=PENDING Reason=JobHeldUser Dependency=(null)',
        '   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0',
        '   RunTime=00:00:00 TimeLimit=UNLIMITED TimeMin=N/A',
        '   SubmitTime=<time> EligibleTime=Unknown',
        '   AccrueTime=Unknown',
        '   StartTime=Unknown EndTime=Unknown Deadline=N/A',
        '   SuspendTime=None SecsPreSuspend=0 LastSchedEval=<time> Scheduler=Main',
        '   Partition=debug AllocNode:Sid=<sid>',
        '   ReqNodeList=(null) ExcNodeList=(null)',
        '   NodeList=',
        '   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*',
        '   TRES=cpu=1,mem=2000M,node=1,billing=1',
        '   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*',
        '   MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0',
        '   Features=(null) DelayBoot=00:00:00',
        '   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)',
        '   Command=(null)',
        '   WorkDir=<dir>',
        '   StdErr=<dir>/slurm-<id>.out',
        '   StdIn=/dev/null',
        '   StdOut=<dir>/slurm-<id>.out',
        '   Power=',
        '   ',
        '',
        '',
      ].join('\n'),
    );
  });
});
