// The job_container facade (Slurm's src/interfaces/job_container.c, container_g_*): the one
// active plugin, called by the step daemon at Slurm's moments. A job's container is created
// once per job in this step-daemon process however many of its steps (or emulated nodes) start
// here, and deleted once when the job ends.
import { SLURM_SUCCESS } from '../plugin-api/common.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import { callHook, hookFailure } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';

export class JobContainerFacade {
  private readonly created = new Map<number, Promise<void>>();

  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
  ) {}

  /** container_g_create → container_p_create: before the job's first task here; later calls share the first. */
  create(jobId: number): Promise<void> {
    let pending = this.created.get(jobId);
    if (!pending) {
      pending = this.call('container_p_create', [jobId]);
      this.created.set(jobId, pending);
      pending.catch(() => this.created.delete(jobId));
    }
    return pending;
  }

  /** container_g_add_cont → container_p_add_cont: a step's proctrack container joins the job's. */
  addCont(jobId: number, contId: bigint): Promise<void> {
    return this.call('container_p_add_cont', [jobId, contId]);
  }

  /** container_g_join → container_p_join (optional): may rewrite the task's argv and env before its spawn. */
  join(jobId: number, uid: number, task: ContainerTask): Promise<void> {
    return this.call('container_p_join', [jobId, uid, task], () => SLURM_SUCCESS);
  }

  /** container_g_add_pid → container_p_add_pid: each task right after its spawn. */
  addPid(jobId: number, pid: number, uid: number): Promise<void> {
    return this.call('container_p_add_pid', [jobId, pid, uid]);
  }

  /** container_g_delete → container_p_delete: the job ended; only for a job created here. */
  async delete(jobId: number): Promise<void> {
    const pending = this.created.get(jobId);
    if (!pending) return;
    this.created.delete(jobId);
    await pending.catch(() => {});
    await this.call('container_p_delete', [jobId]);
  }

  /** container_g_reconfig → container_p_reconfig. */
  async reconfig(): Promise<void> {
    await callHook<void>(this.plugin, 'container_p_reconfig', [], { timeoutMs: this.timeoutMs });
  }

  private async call(hook: string, args: readonly unknown[], fallback?: () => number): Promise<void> {
    // errno is the plugin's last one: clear it so a failure reports this call's, not a stale one.
    this.plugin.errno = 0;
    const rc = await callHook<number>(this.plugin, hook, args, { timeoutMs: this.timeoutMs, fallback });
    if (rc !== SLURM_SUCCESS) throw hookFailure(this.plugin, hook, rc);
  }
}
