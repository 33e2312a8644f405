// The jobcomp facade (Slurm's src/common/slurm_jobcomp.c, jobcomp_g_*): the controller's job
// completion logging plugin, called through the plugin host's invoker. Nothing it does can
// stop the controller: a call that fails, throws or outlasts the hook timeout is logged as one
// error line naming the plugin and the hook, and the job's end stands. Records are offered one
// at a time, in the order jobs ended (jobcomp/script's agent thread runs them in order too).
import type { Logger } from '../core/log.js';
import { SLURM_SUCCESS, type Rc } from '../plugin-api/common.js';
import type { jobcomp_record_t } from '../plugin-api/jobcomp.js';
import { callHook, hookCrash, hookFailure } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';

export class JobcompFacade {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  get type(): string {
    return this.plugin.type;
  }

  /** jobcomp_g_set_location → jobcomp_p_set_location(JobCompLoc); false when it failed (logged). */
  setLocation(location: string | undefined): Promise<boolean> {
    return this.serially('jobcomp_p_set_location', [location ?? null]);
  }

  /** jobcomp_g_write → jobcomp_p_log_record: queued behind the records before it; settles when written. */
  logRecord(job: jobcomp_record_t): Promise<boolean> {
    return this.serially('jobcomp_p_log_record', [job]);
  }

  /** Resolves once every record offered so far has been handed over (for shutdown). */
  drain(): Promise<void> {
    return this.queue;
  }

  private serially(hook: string, args: unknown[]): Promise<boolean> {
    const done = this.queue.then(() => this.call(hook, args));
    this.queue = done.then(() => {});
    return done;
  }

  private async call(hook: string, args: unknown[]): Promise<boolean> {
    try {
      const rc = await callHook<Rc>(this.plugin, hook, args, { timeoutMs: this.timeoutMs });
      if (rc === SLURM_SUCCESS) return true;
      this.log.error(hookFailure(this.plugin, hook, rc).message);
    } catch (error) {
      this.log.error(hookCrash(this.plugin, hook, error).message);
    }
    return false;
  }
}
