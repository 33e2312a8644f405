// Calling a plugin's hook: the documented default when an optional function is absent,
// a timeout so a hook that never settles is reported instead of hanging, and a throw turned
// into a PluginError that names the plugin and the hook (STYLE.md §3.4).
import { PluginError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { HookTimeout, withTimeout } from './timeout.js';
import type { LoadedPlugin } from './loaded-plugin.js';

/** Calls `hook` on the plugin with `args`; `fallback` is the host's default for an absent optional hook. */
export async function callHook<R>(
  plugin: LoadedPlugin,
  hook: string,
  args: readonly unknown[],
  options: { timeoutMs: number; fallback?: () => R },
): Promise<R> {
  const fn = plugin.functions.get(hook);
  if (!fn) {
    if (options.fallback) return options.fallback();
    throw new PluginError(plugin.type, `${slurm_strerror('ESLURM_PLUGIN_INCOMPLETE')}: no ${hook}`, {
      hook,
      code: 'ESLURM_PLUGIN_INCOMPLETE',
    });
  }
  try {
    return (await withTimeout(fn.apply(plugin.module, args) as R | Promise<R>, options.timeoutMs)) as R;
  } catch (error) {
    if (error instanceof PluginError) throw error;
    const why = error instanceof HookTimeout ? error.message : `crashed: ${error instanceof Error ? error.message : String(error)}`;
    throw new PluginError(plugin.type, why, { hook, cause: error });
  }
}

/** The error for a hook that returned SLURM_ERROR: the plugin's errno text, if it set one. */
export function hookFailure(plugin: LoadedPlugin, hook: string, rc: number): PluginError {
  const errno = plugin.errno !== 0 ? plugin.errno : rc > 0 ? rc : 0;
  return new PluginError(plugin.type, `failed: ${errno !== 0 ? slurm_strerror(errno) : `returned ${rc}`}`, { hook });
}
