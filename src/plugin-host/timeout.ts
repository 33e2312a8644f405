// A hook that never settles must become an error the user reads, not a hang (avvio's lesson).

export class HookTimeout extends Error {
  constructor(readonly ms: number) {
    super(`did not return within ${formatMs(ms)}`);
    this.name = 'HookTimeout';
  }
}

/** Resolves with the hook's value, or rejects with HookTimeout after `ms` . */
export function withTimeout<T>(value: T | Promise<T>, ms: number): Promise<T> {
  if (!(value instanceof Promise)) return Promise.resolve(value);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // Not unref'd: a hook that never settles would otherwise let Node exit silently mid-await.
    timer = setTimeout(() => reject(new HookTimeout(ms)), ms);
  });
  return Promise.race([value, timeout]).finally(() => clearTimeout(timer));
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Per-hook and init timeouts; TSLURM_PLUGIN_TIMEOUT (seconds) overrides both, for tests and slow hosts. */
export function pluginTimeouts(env: NodeJS.ProcessEnv = process.env): { initMs: number; hookMs: number } {
  const override = Number.parseFloat(env.TSLURM_PLUGIN_TIMEOUT ?? '');
  if (Number.isFinite(override) && override > 0) return { initMs: override * 1000, hookMs: override * 1000 };
  return { initMs: 10_000, hookMs: 300_000 };
}
