// A slurm.conf cluster through Slurm's command names: SLURM_CONF alone makes srun, sbatch,
// squeue, sinfo and scontrol use it (here the reference cluster's three-node slurm-multi.conf),
// and a malformed file is one error line naming its file and line.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { fixture } from '../helpers/run-bin.js';

describe('SLURM_CONF through the drop-in names', () => {
  const ctl = testController({ SLURM_CONF: fixture('slurm-conf', 'real-slurm', 'slurm-multi.conf') });
  afterAll(() => ctl.stop());
  const slurm = (name: string, args: string[]) => ctl.run('slurm-name', [name, ...args]);

  it('srun runs on the nodes slurm.conf defines', async () => {
    const result = await slurm('srun', ['-N3', '-l', 'printenv', 'SLURMD_NODENAME']);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['0: node1', '1: node2', '2: node3']);
    expect(result.exitCode).toBe(0);
  });

  it("srun honours a partition's MaxTime from slurm.conf", async () => {
    const result = await slurm('srun', ['-p', 'small', '-t', '11', 'true']);
    expect(result.stderr).toBe('srun: error: Unable to allocate resources: Requested time limit is invalid (missing or exceeds some limit)\n');
    expect(result.exitCode).toBe(1);
  });

  it('sbatch, squeue and scontrol see the same cluster', async () => {
    const submitted = await slurm('sbatch', ['--parsable', '-p', 'small', '--wrap', 'echo "$SLURM_CLUSTER_NAME $SLURM_JOB_PARTITION $SLURMD_NODENAME"']);
    expect(submitted.stderr).toBe('');
    const id = submitted.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read(`slurm-${id}.out`)).toBe('refcluster small node1\n');
    const queue = await slurm('squeue', ['-h', '-t', 'all', '-j', id, '-o', '%P %T']);
    expect(queue.stdout).toMatch(/^small (COMPLETED|COMPLETING)\n$/);
    const info = await slurm('sinfo', ['-h', '-o', '%P %D %l']);
    expect(info.stdout).toBe('debug* 3 infinite\nsmall 1 10:00\n');
  });

  it("KillWait from slurm.conf is the grace between SIGTERM and SIGKILL", async () => {
    const conf = path.join(ctl.workDir, 'killwait.conf');
    writeFileSync(conf, 'ClusterName=kw\nKillWait=3\nNodeName=n1 CPUs=2\nPartitionName=p Nodes=n1\n');
    const result = await ctl.run('slurm-name', ['srun', '-t', '1', 'bash', '-c', 'trap "" TERM; sleep 30'], {
      env: { SLURM_CONF: conf, TSLURM_KILL_WAIT: undefined, TSLURM_MINUTE_SECONDS: '1' },
    });
    expect(result.stderr).toContain('srun: Job step aborted: Waiting up to 5 seconds for job step to finish.\n');
    expect(result.exitCode).toBe(137);
  });

  it('a malformed slurm.conf is one error line per bad line, with file and line', async () => {
    const bad = path.join(ctl.workDir, 'bad.conf');
    writeFileSync(bad, 'ClusterName=x\nNodeName=n1 CPUs=4\nPartitionName=p Nodes=n1 MaxTime=soon\nKillWait=5 6\n');
    const result = await ctl.run('slurm-name', ['scontrol', 'show', 'node'], { env: { SLURM_CONF: bad } });
    expect(result.stderr).toBe(`scontrol: error: ${bad}:4: Parse error: "6"\n`);
    expect(result.exitCode).toBe(1);
    const squeue = await ctl.run('slurm-name', ['squeue'], { env: { SLURM_CONF: bad.replace('bad.conf', 'missing.conf') } });
    expect(squeue.stderr).toBe(`squeue: error: ${path.join(ctl.workDir, 'missing.conf')}: cannot read cluster file: No such file or directory\n`);
  });
});
