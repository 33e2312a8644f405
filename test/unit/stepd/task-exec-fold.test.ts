// The task exec helper's layers, as proctrack/cgroup, job_container/tmpfs, run-as and the step
// host stack them before a task's program, folded into what the spawn server's child does:
// root's steps before setpriv, the user's after it; a layer it cannot take whole stays.
import { describe, expect, it } from 'vitest';
import { foldTaskExec } from '../../../src/stepd/task-exec-fold.js';

const helper = '/x/dist/native/tstask_exec';
const limits = ['--rlimit', 'CORE=0', '--rlimit', 'NOFILE=1024'];

describe('foldTaskExec', () => {
  it("folds a step task's layers: cgroup, mount namespace and directory, umask and limits", () => {
    const argv = [helper, '--procs', '/cg/step_0/cgroup.procs', '--', helper, '--mount-ns', '/jc/1/.ns', '--chdir', '/home/u', '--', helper, '--umask', '0027', ...limits, '--', 'prog', '--procs', 'x'];
    expect(foldTaskExec(argv, helper)).toEqual({
      argv: ['prog', '--procs', 'x'],
      setup: { procs: ['/cg/step_0/cgroup.procs'], mountNs: '/jc/1/.ns', chdirFallback: true, rlimits: ['CORE=0', 'NOFILE=1024'], taskPid: true },
      cwd: '/home/u',
      umask: 0o027,
      ids: undefined,
      rusageFd: undefined,
    });
  });

  it("takes setpriv's user, and the batch step's --rusage-fd", () => {
    const argv = [helper, '--procs', '/m/cgroup.procs', '--procs', '/cg/cgroup.procs', '--', '/usr/bin/setpriv', '--reuid', '1000', '--regid', '100', '--groups', '100,27', '--', helper, ...limits, '--rusage-fd', '3', '--', '/spool/job1/script'];
    const folded = foldTaskExec(argv, helper)!;
    expect(folded.argv).toEqual(['/spool/job1/script']);
    expect(folded.ids).toEqual({ uid: 1000, gid: 100, groups: [100, 27] });
    expect(folded.setup.procs).toEqual(['/m/cgroup.procs', '/cg/cgroup.procs']);
    expect(folded.rusageFd).toBe(3);
  });

  it('leaves a layer it cannot take whole, and what follows it; nothing to fold is undefined', () => {
    expect(foldTaskExec(['prog', 'a'], helper)).toBeUndefined();
    const unknown = [helper, '--procs', '/cg/cgroup.procs', '--', helper, '--future', 'x', '--', 'prog'];
    expect(foldTaskExec(unknown, helper)?.argv).toEqual([helper, '--future', 'x', '--', 'prog']);
    // A cgroup after setpriv would be joined as the user: not root's step any more.
    const late = ['/usr/bin/setpriv', '--reuid', '1', '--regid', '1', '--groups', '1', '--', helper, '--procs', '/cg/cgroup.procs', '--', 'prog'];
    expect(foldTaskExec(late, helper)?.argv).toEqual([helper, '--procs', '/cg/cgroup.procs', '--', 'prog']);
    // The pty helper (or anything else) ends the folding.
    expect(foldTaskExec([helper, '--umask', '0022', '--', '/x/tspty', helper, '--', 'prog'], helper)?.argv).toEqual(['/x/tspty', helper, '--', 'prog']);
  });
});
