// The one hook invoker: a synchronous answer comes back synchronously, an async one is
// awaited under the timeout, and a throw, a rejection or a timeout is a PluginError naming
// the plugin and the hook.
import { describe, expect, it } from 'vitest';
import { PluginError } from '../../../src/core/errors.js';
import { callHook, invokeHook, type HookTarget } from '../../../src/plugin-host/invoke.js';

function plugin(functions: Record<string, Function>): HookTarget {
  return { type: 'select/fixture', functions: new Map(Object.entries(functions)), module: { tag: 'module' } };
}

const options = { timeoutMs: 50 };

async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('invokeHook', () => {
  it('answers a synchronous hook synchronously, with the module as `this` and the arguments as given', () => {
    const target = plugin({
      select_p_job_ready(this: { tag: string }, a: number, b: string) {
        return `${this.tag} ${a} ${b}`;
      },
    });
    expect(invokeHook(target, 'select_p_job_ready', [1, 'x'], options)).toBe('module 1 x');
  });

  it('awaits an async hook', async () => {
    const target = plugin({ select_p_job_ready: async () => 7 });
    const answer = invokeHook<number>(target, 'select_p_job_ready', [], options);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(7);
  });

  it('turns a throw into a PluginError naming the plugin and the hook', async () => {
    const target = plugin({
      select_p_job_test: () => {
        throw new Error('boom');
      },
    });
    const error = await caught(() => invokeHook(target, 'select_p_job_test', [], options));
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ pluginType: 'select/fixture', hook: 'select_p_job_test', message: 'select/fixture: select_p_job_test: crashed: boom' });
  });

  it('turns a rejection into the same PluginError', async () => {
    const target = plugin({ select_p_job_test: () => Promise.reject(new Error('late boom')) });
    await expect(callHook(target, 'select_p_job_test', [], options)).rejects.toMatchObject({
      message: 'select/fixture: select_p_job_test: crashed: late boom',
    });
  });

  it('reports a hook that never settles once the timeout has passed', async () => {
    const target = plugin({ slurm_sched_p_schedule: () => new Promise(() => {}) });
    await expect(callHook(target, 'slurm_sched_p_schedule', [], options)).rejects.toMatchObject({
      name: 'PluginError',
      message: 'select/fixture: slurm_sched_p_schedule: did not return within 50 ms',
    });
  });

  it('times out a thenable that is not a Promise too', async () => {
    const target = plugin({ slurm_sched_p_schedule: () => ({ then() {} }) });
    await expect(callHook(target, 'slurm_sched_p_schedule', [], options)).rejects.toMatchObject({ hook: 'slurm_sched_p_schedule' });
  });

  it('uses the fallback for an absent hook, and refuses an absent one without it', async () => {
    const target = plugin({});
    expect(invokeHook(target, 'select_p_reconfigure', [], { ...options, fallback: () => 0 })).toBe(0);
    const error = await caught(() => invokeHook(target, 'select_p_job_test', [], options));
    expect(error).toMatchObject({ code: 'ESLURM_PLUGIN_INCOMPLETE', hook: 'select_p_job_test' });
  });
});
