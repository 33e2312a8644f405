// The one way the host calls a plugin's hook, whatever the type (STYLE.md §3.4): the
// documented default when an optional function is absent, a timeout so a hook that never
// settles is reported instead of hanging, and a throw, a rejection or a timeout turned into a
// PluginError that names the plugin (its plugin_type, `select/linear`) and the hook.
//
// A hook that answers synchronously is answered synchronously: no promise, no microtask. The
// select plugin's hooks run thousands of times a scheduling pass, and each await shows there.
// A synchronous hook that never returns cannot be timed out (it holds the only thread); the
// timeout covers what a hook awaits.
import { PluginError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { HookTimeout, withTimeout } from './timeout.js';

/** What the invoker needs of a plugin: a LoadedPlugin, or a facade's view of its functions. */
export interface HookTarget {
  /** `major/minor`, for messages. */
  readonly type: string;
  /** The API functions under their documented names. */
  readonly functions: ReadonlyMap<string, Function>;
  /** `this` for the calls: the module namespace. */
  readonly module: object;
}

export interface HookOptions<R> {
  /** How long an async hook may take before it is reported as hanging. */
  readonly timeoutMs: number;
  /** The host's default for an absent optional hook; without it an absent hook is an error. */
  readonly fallback?: () => R;
}

export type MaybePromise<T> = T | Promise<T>;

/** Calls `hook` with `args`: its answer as it came (a value, or a promise raced against the timeout). */
export function invokeHook<R>(plugin: HookTarget, hook: string, args: readonly unknown[], options: HookOptions<R>): MaybePromise<R> {
  const fn = plugin.functions.get(hook);
  if (fn === undefined) {
    if (options.fallback) return options.fallback();
    throw new PluginError(plugin.type, `${slurm_strerror('ESLURM_PLUGIN_INCOMPLETE')}: no ${hook}`, {
      hook,
      code: 'ESLURM_PLUGIN_INCOMPLETE',
    });
  }
  let answer: unknown;
  try {
    answer = fn.apply(plugin.module, args);
  } catch (error) {
    throw hookCrash(plugin, hook, error);
  }
  if (!isPromise(answer)) return answer as R;
  return withTimeout(Promise.resolve(answer as R), options.timeoutMs).catch((error: unknown) => {
    throw hookCrash(plugin, hook, error);
  });
}

/** invokeHook, always as a promise: for the callers that await every hook anyway. */
export async function callHook<R>(plugin: HookTarget, hook: string, args: readonly unknown[], options: HookOptions<R>): Promise<R> {
  return invokeHook(plugin, hook, args, options);
}

/** What a hook's throw, rejection or timeout becomes: a PluginError naming plugin and hook. */
export function hookCrash(plugin: Pick<HookTarget, 'type'>, hook: string, error: unknown): PluginError {
  if (error instanceof PluginError) return error;
  const why = error instanceof HookTimeout ? error.message : `crashed: ${error instanceof Error ? error.message : String(error)}`;
  return new PluginError(plugin.type, why, { hook, cause: error });
}

/** The error for a hook that returned SLURM_ERROR: the plugin's errno text, if it set one. */
export function hookFailure(plugin: HookTarget & { readonly errno: number }, hook: string, rc: number): PluginError {
  const errno = plugin.errno !== 0 ? plugin.errno : rc > 0 ? rc : 0;
  return new PluginError(plugin.type, `failed: ${errno !== 0 ? slurm_strerror(errno) : `returned ${rc}`}`, { hook });
}

/** Whether a hook's answer is a promise (a thenable): only then is it awaited. */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
