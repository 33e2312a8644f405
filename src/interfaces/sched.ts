// The sched facade (Slurm's src/slurmctld/sched_plugin.c, sched_g_*): the controller's one
// way to call its scheduler plugin, through the plugin host's invoker (a throw or a timeout
// is a PluginError naming the plugin and the hook).
//
// What the controller does when the plugin fails at run time (as slurmctld: a plugin that
// fails to load stops the controller from starting; one that fails later is logged and the
// jobs wait): a scheduling pass that throws, rejects or outlasts the hook timeout is logged as
// one error line and ends; the jobs it did not start stay pending with the reasons they had,
// and the next pass runs as usual. The pass's context is closed when its call ends, so a pass
// left running after its timeout can no longer start jobs. A failing initial_priority gives
// the job the default priority (one below the last, less its --nice); a failing notification (newalloc,
// freealloc, requeue, reconfig, ...) is logged and changes nothing else.
import { PluginError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { SLURM_ERROR, SLURM_SUCCESS, type Rc } from '../plugin-api/common.js';
import type { job_record_t } from '../plugin-api/records.js';
import type { SchedContext, SchedStartResult, SchedWillRunResult } from '../plugin-api/sched.js';
import { hookFailure, invokeHook, isPromise } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';

const MAX_PRIORITY = 0xffffffff;

export class SchedFacade {
  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  /** `sched/builtin`, for messages. */
  get type(): string {
    return this.plugin.type;
  }

  /**
   * sched_g_schedule → slurm_sched_p_schedule: one scheduling pass. Never throws: a crash or
   * a timeout is logged and answered SLURM_ERROR (see the head of this file).
   */
  async schedule(ctx: SchedContext): Promise<Rc> {
    const pass = new PassContext(ctx);
    try {
      return await this.call<Rc>('slurm_sched_p_schedule', [pass.view]);
    } catch (error) {
      this.log.error(`${message(error)}; the pass ends, its pending jobs stay pending`);
      return SLURM_ERROR;
    } finally {
      pass.close();
    }
  }

  /**
   * sched_g_initial_priority → slurm_sched_p_initial_priority, called as a job is submitted:
   * its answer must come at once and be a priority (0..2^32-1), else the default is used.
   */
  initialPriority(lastPrio: number, job: job_record_t): number {
    // priority/basic's: one below the last, less the job's --nice, never below 1.
    const fallback = Math.max(1, lastPrio - 1 - (job.details.nice ?? 0));
    const hook = 'slurm_sched_p_initial_priority';
    try {
      const answer = invokeHook<unknown>(this.plugin, hook, [lastPrio, job], { timeoutMs: this.timeoutMs, fallback: () => fallback });
      if (isPromise(answer)) {
        answer.catch(() => {});
        throw new PluginError(this.type, 'answered with a promise; a priority must be answered at once', { hook });
      }
      if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer > MAX_PRIORITY) {
        throw new PluginError(this.type, `returned ${String(answer)}, which is not a priority`, { hook });
      }
      return answer;
    } catch (error) {
      this.log.error(`${message(error)}; job ${job.job_id} gets priority ${fallback}`);
      return fallback;
    }
  }

  /** sched_g_newalloc → slurm_sched_p_newalloc: `job` was given resources. */
  newalloc(job: job_record_t): Promise<void> {
    return this.notify('slurm_sched_p_newalloc', [job]);
  }

  /** sched_g_freealloc → slurm_sched_p_freealloc: `job` gave its resources back. */
  freealloc(job: job_record_t): Promise<void> {
    return this.notify('slurm_sched_p_freealloc', [job]);
  }

  /** sched_g_requeue → slurm_sched_p_requeue: `job` is being requeued for `reason`. */
  requeue(job: job_record_t, reason: string): Promise<void> {
    return this.notify('slurm_sched_p_requeue', [job, reason]);
  }

  /** sched_g_reconfig → slurm_sched_p_reconfig: `tscontrol reconfigure`. */
  reconfig(): Promise<void> {
    return this.notify('slurm_sched_p_reconfig', []);
  }

  /** sched_g_job_is_pending → slurm_sched_p_job_is_pending. */
  jobIsPending(): Promise<void> {
    return this.notify('slurm_sched_p_job_is_pending', []);
  }

  /** sched_g_partition_change → slurm_sched_p_partition_change. */
  partitionChange(): Promise<void> {
    return this.notify('slurm_sched_p_partition_change', []);
  }

  // A hook whose failure changes nothing but a log line: SLURM_ERROR (with the plugin's errno
  // text), a throw or a timeout.
  private async notify(hook: string, args: readonly unknown[]): Promise<void> {
    try {
      const rc = await this.call<unknown>(hook, args);
      if (typeof rc === 'number' && rc !== SLURM_SUCCESS) throw hookFailure(this.plugin, hook, rc);
    } catch (error) {
      this.log.error(message(error));
    }
  }

  private async call<R>(hook: string, args: readonly unknown[]): Promise<R> {
    // errno is the plugin's last one: clear it so a failure reports this call's, not a stale one.
    this.plugin.errno = 0;
    return invokeHook<R>(this.plugin, hook, args, { timeoutMs: this.timeoutMs, fallback: () => SLURM_SUCCESS as R });
  }
}

// The context a pass's plugin sees: the controller's, until the call ends (returned, threw or
// timed out); after that it starts nothing, and its signal is aborted. The signal is made when
// the plugin first reads it and aborted with one shared reason: AbortSignal.any and a
// DOMException (with its stack) made for every pass cost more than the rest of a short pass.
class PassContext {
  private controller: AbortController | undefined;
  private onStop: (() => void) | undefined;
  private closed = false;
  readonly view: SchedContext;

  constructor(private readonly ctx: SchedContext) {
    const over = { rc: SLURM_ERROR, reason: 'the scheduling pass is over' } as const;
    const signal = (): AbortSignal => this.signal();
    this.view = {
      now: ctx.now,
      get signal() {
        return signal();
      },
      pending: () => ctx.pending(),
      running: () => ctx.running(),
      nodes: () => ctx.nodes(),
      bit_alloc: () => ctx.bit_alloc(),
      // Every argument passed on as given: a wrapper that named them would drop any added later.
      will_run: (...args): SchedWillRunResult | Promise<SchedWillRunResult> => (this.closed ? over : ctx.will_run(...args)),
      start: (...args): SchedStartResult | Promise<SchedStartResult> => (this.closed ? over : ctx.start(...args)),
      set_reason: (job, reason) => {
        if (!this.closed) ctx.set_reason(job, reason);
      },
    };
  }

  // Aborted when the pass is over, or when the controller stops (the controller's own signal).
  private signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const stopping = this.ctx.signal;
      if (this.closed) controller.abort(passOver());
      else if (stopping.aborted) controller.abort(stopping.reason);
      else stopping.addEventListener('abort', (this.onStop = () => controller.abort(stopping.reason)), { once: true });
    }
    return this.controller.signal;
  }

  close(): void {
    this.closed = true;
    if (this.onStop) this.ctx.signal.removeEventListener('abort', this.onStop);
    this.controller?.abort(passOver());
  }
}

let passOverReason: DOMException | undefined;

function passOver(): DOMException {
  return (passOverReason ??= new DOMException('the scheduling pass is over', 'AbortError'));
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
