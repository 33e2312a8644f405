// One node's step as the job_container and proctrack plugins see it (slurmstepd's
// _fork_all_tasks and its end): the job's container and the step's proctrack container before
// the first task, each task put into both, every signal sent to the whole container, and a
// step that ends only once its container is empty.
import type { JobContainerFacade } from '../interfaces/job-container.js';
import type { MpiFacade } from '../interfaces/mpi.js';
import type { ProctrackFacade } from '../interfaces/proctrack.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import type { StepEnv } from '../plugin-api/mpi.js';
import type { ProctrackOrphanPlan, ProctrackStep } from '../plugin-api/proctrack.js';

/** The plugins a step daemon runs a step with. */
export interface StepdPlugins {
  mpi: MpiFacade;
  container: JobContainerFacade;
  proctrack: ProctrackFacade;
}

/** What a container needs: the batch step runs without an mpi plugin. */
export type ContainerPlugins = Pick<StepdPlugins, 'container' | 'proctrack'>;

export class StepContainer {
  private contAdded = false;
  /** close() has begun: the container is being emptied, or is gone. */
  closed = false;

  private constructor(
    private readonly plugins: ContainerPlugins,
    readonly step: ProctrackStep & { cont_id: bigint },
  ) {}

  /**
   * container_g_create (once per job here), then proctrack_g_create for the step. `stepMem`:
   * the step's memory on this node in MB (0: none asked for), for a plugin that limits it.
   */
  static async open(
    plugins: ContainerPlugins,
    ids: { jobId: number; stepId: number; nodeName: string; stepMem?: number; owner?: { uid: number; gid: number } | undefined },
    env: StepEnv,
  ): Promise<StepContainer> {
    // The plugins are told whose processes these are: the job's user, or ourselves.
    const uid = ids.owner?.uid ?? process.getuid?.() ?? 0;
    const gid = ids.owner?.gid ?? process.getgid?.() ?? 0;
    await plugins.container.create(ids.jobId);
    const base = { jobid: ids.jobId, stepid: ids.stepId, uid, gid, node_name: ids.nodeName, cont_id: null, step_mem: ids.stepMem ?? 0 };
    const contId = await plugins.proctrack.create({ ...base, env });
    return new StepContainer(plugins, { ...base, cont_id: contId });
  }

  /**
   * container_g_join, then proctrack's join, just before a task's spawn: each plugin may wrap
   * its argv and edit its env; proctrack's wrapper runs first, so everything the task and the
   * job container's wrapper start is in the step's container.
   * @returns whether the job container wrapped the task's argv (it may then run in a mount
   * namespace of its own, where the program's path means something else).
   */
  async join(task: ContainerTask): Promise<{ containerWrapped: boolean }> {
    const before = task.argv.length;
    await this.plugins.container.join(this.step.jobid, this.step.uid, task);
    const containerWrapped = task.argv.length !== before;
    await this.plugins.proctrack.join(this.step, task);
    return { containerWrapped };
  }

  /**
   * A task was spawned: proctrack_g_add, container_g_add_cont (first task only),
   * container_g_add_pid. Slurm's child waits before exec until it is tracked; a task here may
   * already have ended (`gone()`), which is no failure: there is nothing left to track.
   */
  async adopt(pid: number, gone: () => boolean): Promise<void> {
    // A task already gone (a short one, by the time its node's last task was spawned) is not
    // offered to the plugins: proctrack/cgroup's move of a reaped pid fails (ESRCH) after a
    // look at /proc and a write to cgroup.procs, and the failure's error was made only to be
    // dropped here, per task, on the way to the step's first exit.
    let tracked = !gone();
    if (tracked) {
      await this.plugins.proctrack.add(this.step, pid).catch((error: unknown) => {
        if (!gone()) throw error;
        tracked = false;
      });
    }
    if (!this.contAdded) {
      this.contAdded = true;
      await this.plugins.container.addCont(this.step.jobid, this.step.cont_id);
    }
    if (tracked) await this.plugins.container.addPid(this.step.jobid, pid, this.step.uid);
  }

  /** How a process other than this one finds the step's processes (for the reaper). */
  orphanPlan(): Promise<ProctrackOrphanPlan> {
    return this.plugins.proctrack.orphanPlan(this.step.cont_id);
  }

  /** How many of the step's processes the out-of-memory killer has ended so far. */
  oomKills(): Promise<number> {
    return this.plugins.proctrack.oomEvents(this.step.cont_id);
  }

  /** proctrack_g_signal: every process of the step, grandchildren included. */
  signal(signal: NodeJS.Signals): Promise<void> {
    return this.plugins.proctrack.signal(this.step.cont_id, signal);
  }

  /**
   * The step is over: SIGKILL whatever is left, proctrack_g_wait until the container is empty,
   * count the out-of-memory kills while the container still exists, then proctrack_g_destroy
   * (also when the wait failed; the failure is rethrown after it).
   * @returns how many of the step's processes the out-of-memory killer ended (0: none).
   */
  async close(): Promise<number> {
    this.closed = true;
    try {
      await this.signal('SIGKILL');
      await this.plugins.proctrack.wait(this.step.cont_id);
      return await this.plugins.proctrack.oomEvents(this.step.cont_id);
    } finally {
      await this.plugins.proctrack.destroy(this.step.cont_id);
    }
  }
}
