// srun's --uid and --gid (observed on Slurm 22.05, /work/ref/uid-gid.txt): root's tsrun runs
// the job and its tasks as that user and group (the group not given stays the caller's), on
// tsrun's own nodes and on tsstepd daemons, and the controller records the job as that user's; anyone else gets srun's
// refusal, as does a user or group that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

const isRoot = process.getuid?.() === 0;
const tsrun = path.join(repoRoot, 'bin', 'tsrun.js');
const PROBE = ['-D', '/', 'sh', '-c', 'echo "$(id -u) $(id -g) $SLURM_JOB_UID $SLURM_JOB_USER $SLURM_JOB_GID"'];

describe.skipIf(!isRoot)('--uid and --gid', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'proctrack-pgid.yaml') });
  let daemons: DaemonCluster;
  let nobody: number;
  beforeAll(async () => {
    nobody = Number((await execa('id', ['-u', 'nobody'])).stdout);
    daemons = await startDaemonCluster({ nodes: 1 });
  }, 60_000);
  afterAll(async () => {
    await ctl.stop();
    await daemons?.stop();
  });

  it('as root: the tasks and the job are that user\'s; the other id stays the caller\'s', async () => {
    for (const run of [(args: string[]) => ctl.run('tsrun', args), (args: string[]) => daemons.run('tsrun', args)]) {
      const byName = await run(['-n1', '--uid=nobody', ...PROBE]);
      expect({ out: byName.stdout, err: byName.stderr }).toEqual({ out: `${nobody} 0 ${nobody} nobody 0\n`, err: '' });
      const both = await run(['-n1', `--uid=${nobody}`, '--gid=100', ...PROBE]);
      expect(both.stdout).toBe(`${nobody} 100 ${nobody} nobody 100\n`);
    }
    // The controller records the job as the user's (tsqueue's USER while it runs).
    const env = { TSLURM_CONF: daemons.clusterFile, TSLURM_STATE_DIR: undefined };
    const running = execa(process.execPath, [tsrun, '-n1', '--uid=nobody', '-D', '/', 'sleep', '5'], { cwd: '/', env, reject: false });
    await daemons.until(async () => (await daemons.run('tsqueue', ['-h', '-o', '%u %g'])).stdout.trim() === 'nobody root');
    await running;
  });

  it("srun's refusals: unknown ids, and anyone but root", async () => {
    const unknownUser = await ctl.run('tsrun', ['-n1', '--uid=tslurm-no-such-user', 'true']);
    expect({ code: unknownUser.exitCode, err: unknownUser.stderr }).toEqual({ code: 255, err: 'tsrun: error: Invalid --uid specification\n' });
    const unknownGroup = await ctl.run('tsrun', ['-n1', '--gid=tslurm-no-such-group', 'true']);
    expect({ code: unknownGroup.exitCode, err: unknownGroup.stderr }).toEqual({ code: 255, err: 'tsrun: error: Invalid --gid specification\n' });
    for (const [option, message] of [['--uid=0', '--uid only permitted by root user'], ['--gid=0', '--gid only permitted by root user']]) {
      const r = await execa('runuser', ['-u', 'nobody', '--', process.execPath, tsrun, '-n1', option!, 'true'], { cwd: '/', reject: false, env: { ...ctl.env, NO_COLOR: '1' } });
      expect({ code: r.exitCode, err: r.stderr }).toEqual({ code: 255, err: `tsrun: error: ${message}` });
    }
  });
});
