// The proctrack facade (Slurm's src/interfaces/proctrack.c, proctrack_g_*): the one active
// process-tracking plugin. Expected failures (SLURM_ERROR + errno, a null id) become
// PluginErrors naming the plugin and hook; questions (find, has_pid, get_pids) are passed on.
import { constants } from 'node:os';
import { PluginError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { SLURM_SUCCESS } from '../plugin-api/common.js';
import type { ProctrackOrphanPlan, ProctrackStep } from '../plugin-api/proctrack.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import { callHook, hookFailure } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';

export class ProctrackFacade {
  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
  ) {}

  /** proctrack_g_create → proctrack_p_create: the step's container, before its first task. */
  async create(step: ProctrackStep): Promise<bigint> {
    const hook = 'proctrack_p_create';
    const id = await this.ask<bigint | null>(hook, [step]);
    if (typeof id === 'bigint' && id > 0n) return id;
    const why = this.plugin.errno !== 0 ? slurm_strerror(this.plugin.errno) : `returned ${String(id)}`;
    throw new PluginError(this.plugin.type, `cannot create a container for step ${step.jobid}.${step.stepid}: ${why}`, { hook });
  }

  /** proctrack_p_join (tslurm's), when the plugin has it: the task's argv/env before its spawn. */
  async join(step: ProctrackStep, task: ContainerTask): Promise<void> {
    if (typeof this.plugin.module['proctrack_p_join'] !== 'function') return;
    return this.check('proctrack_p_join', [step, task]);
  }

  /** proctrack_p_oom_events (tslurm's), when the plugin has it: the container's oom kills, else 0. */
  async oomEvents(contId: bigint): Promise<number> {
    if (typeof this.plugin.module['proctrack_p_oom_events'] !== 'function') return 0;
    const count = await this.ask<number>('proctrack_p_oom_events', [contId]);
    return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0;
  }

  /** proctrack_p_orphan_plan (tslurm's), when the plugin has it: how the reaper finds the container's processes. */
  async orphanPlan(contId: bigint): Promise<ProctrackOrphanPlan> {
    if (typeof this.plugin.module['proctrack_p_orphan_plan'] !== 'function') return {};
    const plan = await this.ask<ProctrackOrphanPlan | null>('proctrack_p_orphan_plan', [contId]);
    if (plan === null || typeof plan !== 'object') return {};
    return {
      ...(typeof plan.cgroup === 'string' && plan.cgroup !== '' && { cgroup: plan.cgroup }),
      ...(typeof plan.environ === 'string' && plan.environ.includes('=') && { environ: plan.environ }),
    };
  }

  /** proctrack_g_add → proctrack_p_add: each task right after its spawn. */
  add(step: ProctrackStep, pid: number): Promise<void> {
    return this.check('proctrack_p_add', [step, pid]);
  }

  /** proctrack_g_signal → proctrack_p_signal: `signal` to every process of the container. */
  signal(contId: bigint, signal: NodeJS.Signals | 0): Promise<void> {
    const signo = signal === 0 ? 0 : constants.signals[signal];
    return this.check('proctrack_p_signal', [contId, signo]);
  }

  /** proctrack_p_signal(id, 0): is any (non-zombie) process left in the container? */
  async anyLeft(contId: bigint): Promise<boolean> {
    return (await this.ask<number>('proctrack_p_signal', [contId, 0])) === SLURM_SUCCESS;
  }

  /** proctrack_g_wait → proctrack_p_wait: settles once the container is empty (SIGKILLing what is left). */
  wait(contId: bigint): Promise<void> {
    return this.check('proctrack_p_wait', [contId]);
  }

  /** proctrack_g_destroy → proctrack_p_destroy: last, once the step is over. */
  destroy(contId: bigint): Promise<void> {
    return this.check('proctrack_p_destroy', [contId]);
  }

  /** proctrack_g_find → proctrack_p_find: the container holding `pid`, or null. */
  find(pid: number): Promise<bigint | null> {
    return this.ask('proctrack_p_find', [pid]);
  }

  /** proctrack_g_has_pid → proctrack_p_has_pid. */
  hasPid(contId: bigint, pid: number): Promise<boolean> {
    return this.ask('proctrack_p_has_pid', [contId, pid]);
  }

  /** proctrack_g_get_pids → proctrack_p_get_pids: the container's processes. */
  async getPids(contId: bigint): Promise<readonly number[]> {
    const pids = await this.ask<readonly number[] | null>('proctrack_p_get_pids', [contId]);
    if (pids === null || !Array.isArray(pids)) throw hookFailure(this.plugin, 'proctrack_p_get_pids', -1);
    return pids;
  }

  private ask<R>(hook: string, args: readonly unknown[]): Promise<R> {
    // errno is the plugin's last one: clear it so a failure reports this call's, not a stale one.
    this.plugin.errno = 0;
    return callHook<R>(this.plugin, hook, args, { timeoutMs: this.timeoutMs });
  }

  private async check(hook: string, args: readonly unknown[]): Promise<void> {
    const rc = await this.ask<number>(hook, args);
    if (rc !== SLURM_SUCCESS) throw hookFailure(this.plugin, hook, rc);
  }
}
