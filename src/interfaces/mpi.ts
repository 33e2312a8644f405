// The mpi facade (Slurm's src/interfaces/mpi.c, mpi_g_*): one plugin chosen per step, its
// four hooks called in Slurm's order by tsrun (client) and the step daemon (stepd).
import { PluginError } from '../core/errors.js';
import { callHook, hookCrash, hookFailure } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';
import type { MpiClientInfo, MpiStepInfo, MpiTaskInfo, MpiTaskLaunch, StepEnv } from '../plugin-api/mpi.js';

export class MpiFacade {
  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
  ) {}

  /** The minor type, as SLURM_MPI_TYPE carries it (`pmi2`, `none`). */
  get minor(): string {
    return this.plugin.type.slice('mpi/'.length);
  }

  /** mpi_g_client_prelaunch → p_mpi_hook_client_prelaunch: in tsrun, before any node starts. */
  async clientPrelaunch(info: MpiClientInfo, env: StepEnv): Promise<object> {
    const state = await callHook<object | null>(this.plugin, 'p_mpi_hook_client_prelaunch', [info, env], {
      timeoutMs: this.timeoutMs,
    });
    if (state === null || state === undefined || typeof state !== 'object') {
      throw new PluginError(this.plugin.type, 'MPI plugin\'s pre-launch setup failed', {
        hook: 'p_mpi_hook_client_prelaunch',
        code: 'SLURM_MPI_PLUGIN_PRELAUNCH_SETUP_FAILED',
      });
    }
    return state;
  }

  /** mpi_g_slurmstepd_prefork → p_mpi_hook_slurmstepd_prefork: once per node, before its first task. */
  async stepdPrefork(step: MpiStepInfo, env: StepEnv): Promise<void> {
    const rc = await callHook<number>(this.plugin, 'p_mpi_hook_slurmstepd_prefork', [step, env], {
      timeoutMs: this.timeoutMs,
    });
    if (rc !== 0) throw hookFailure(this.plugin, 'p_mpi_hook_slurmstepd_prefork', rc);
  }

  /** mpi_g_slurmstepd_task → p_mpi_hook_slurmstepd_task: for each task, just before it is spawned. */
  async stepdTask(task: MpiTaskInfo, env: StepEnv): Promise<MpiTaskLaunch | undefined> {
    const launch = await callHook<MpiTaskLaunch | void>(this.plugin, 'p_mpi_hook_slurmstepd_task', [task, env], {
      timeoutMs: this.timeoutMs,
    });
    if (!launch?.attach && !launch?.exited) return launch ?? undefined;
    // attach and exited run after the spawn, outside the invoker: a throw there is still the
    // plugin's crash, reported the same way.
    const guard =
      <A extends unknown[]>(callback: ((...args: A) => void) | undefined) =>
      (...args: A): void => {
        try {
          callback?.apply(launch, args);
        } catch (error) {
          throw hookCrash(this.plugin, 'p_mpi_hook_slurmstepd_task', error);
        }
      };
    return {
      ...launch,
      ...(launch.attach ? { attach: guard(launch.attach) } : {}),
      ...(launch.exited ? { exited: guard(launch.exited) } : {}),
    };
  }

  /** mpi_g_client_fini → p_mpi_hook_client_fini: in tsrun after every task ended, failure or not. */
  async clientFini(state: object): Promise<void> {
    const rc = await callHook<number>(this.plugin, 'p_mpi_hook_client_fini', [state], { timeoutMs: this.timeoutMs });
    if (rc !== 0) throw hookFailure(this.plugin, 'p_mpi_hook_client_fini', rc);
  }
}
