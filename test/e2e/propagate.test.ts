// What tasks take from the submitter, as on Slurm 22.05 (/work/ref/propagate.txt): the soft
// resource limits (--propagate, default all; NONE; a list), the umask (SLURM_UMASK too) and the
// nice value as SLURM_PRIO_PROCESS (the tasks themselves are not reniced). Checked for tsrun's
// own tasks and for tasks on tsstepd node daemons, which would otherwise have the daemon's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

const tsrun = path.join(repoRoot, 'bin', 'tsrun.js');
const PROBE = `sh -c 'ulimit -S -n; ulimit -S -c; ulimit -S -s; umask; env | grep -E "^SLURM_(RLIMIT|UMASK|PRIO)" | sort'`;

/**
 * tsrun started by a shell with these limits, umask and nice value; the trailing `:` keeps the
 * shell as tsrun's parent (a shell may exec its last command).
 */
function fromShell(env: Record<string, string | undefined>, cwd: string, tsrunArgs: string) {
  const line = `ulimit -S -n 1000; ulimit -S -c 0; ulimit -S -s 4096; umask 027; nice -n 5 node ${tsrun} ${tsrunArgs}; :`;
  return execa('sh', ['-c', line], { cwd, env: { ...env, NO_COLOR: '1' }, reject: false, timeout: 60_000 });
}

describe("the submitter's limits, umask and priority reach the tasks", () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'proctrack-pgid.yaml') });
  let daemons: DaemonCluster;
  beforeAll(async () => {
    daemons = await startDaemonCluster({ nodes: 1 });
  }, 60_000);
  afterAll(async () => {
    await ctl.stop();
    await daemons?.stop();
  });
  const runs = () => [
    { where: 'tsrun', run: (args: string) => fromShell(ctl.env, ctl.workDir, args) },
    { where: 'tsstepd', run: (args: string) => fromShell({ TSLURM_CONF: daemons.clusterFile, TSLURM_STATE_DIR: undefined }, path.join(daemons.root, 'work'), args) },
  ];

  it('by default all soft limits (NOFILE too, which Node raises for itself), the umask and SLURM_PRIO_PROCESS', async () => {
    for (const { where, run } of runs()) {
      const r = await run(`-n1 ${PROBE}`);
      expect({ where, stderr: r.stderr, exit: r.exitCode }).toEqual({ where, stderr: '', exit: 0 });
      expect({ where, out: r.stdout.split('\n') }).toEqual({ where, out: ['1000', '0', '4096', '0027', 'SLURM_PRIO_PROCESS=5', 'SLURM_UMASK=0027'] });
    }
  });

  it('--propagate=NOFILE takes only that one; --propagate=NONE none', async () => {
    const r = await runs()[1]!.run(`-n1 --propagate=NOFILE sh -c 'ulimit -S -n; ulimit -S -s'`);
    const [nofile, stack] = r.stdout.split('\n');
    expect(nofile).toBe('1000');
    // The daemon's own stack limit, not the submitter's 4096.
    expect(stack).not.toBe('4096');
    const none = await runs()[1]!.run(`-n1 --propagate=NONE sh -c 'ulimit -S -n; ulimit -S -s'`);
    expect(none.stdout.split('\n')).not.toContain('1000');
    expect(none.stdout.split('\n')).not.toContain('4096');
  });

  it("a bad name is srun's and sbatch's two lines", async () => {
    const r = await ctl.run('tsrun', ['-n1', '--propagate=FOO', 'true']);
    expect({ code: r.exitCode, err: r.stderr }).toEqual({ code: 1, err: 'tsrun: error: Bad rlimit name: FOO\ntsrun: error: --propagate=FOO is not valid.\n' });
    const b = await ctl.run('tsbatch', ['--propagate=FOO', '--wrap', 'true']);
    expect({ code: b.exitCode, err: b.stderr }).toEqual({ code: 1, err: 'tsbatch: error: Bad rlimit name: FOO\ntsbatch: error: --propagate=FOO is not valid.\n' });
  });

  it('a batch script (and its output file, and srun inside it) takes them from tsbatch; no SLURM_UMASK there', async () => {
    const tsbatch = path.join(repoRoot, 'bin', 'tsbatch.js');
    const script = `umask; ulimit -S -n; ulimit -S -s; env | grep -E "^SLURM_(RLIMIT|UMASK|PRIO)" | sort; node ${tsrun} sh -c "umask; ulimit -S -s"`;
    for (const { where, env, cwd } of [
      { where: 'controller', env: ctl.env, cwd: ctl.workDir },
      { where: 'tsstepd', env: { TSLURM_CONF: daemons.clusterFile, TSLURM_STATE_DIR: undefined }, cwd: path.join(daemons.root, 'work') },
    ]) {
      const line = `ulimit -S -n 1000; ulimit -S -s 4096; umask 027; nice -n 5 node ${tsbatch} --wait -o batch.out --wrap '${script}'; :`;
      const r = await execa('sh', ['-c', line], { cwd, env: { ...env, NO_COLOR: '1' }, reject: false, timeout: 60_000 });
      expect({ where, code: r.exitCode }).toEqual({ where, code: 0 });
      expect({ where, out: readFileSync(path.join(cwd, 'batch.out'), 'utf8') }).toEqual({ where, out: '0027\n1000\n4096\nSLURM_PRIO_PROCESS=5\n0027\n4096\n' });
      expect(statSync(path.join(cwd, 'batch.out')).mode & 0o777).toBe(0o640);
    }
  });
});
