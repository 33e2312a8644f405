// The plugins one process has loaded: one per plugin_type (asking again returns the loaded
// one, never a second copy), and fini in reverse load order at shutdown, every failure logged
// and none stopping the others.
import type { Logger } from '../core/log.js';
import { loadPlugin, type LoadContext } from './load.js';
import { normalizePluginRequest } from './plugin-name.js';
import { withTimeout } from './timeout.js';
import type { PluginMajor } from './types-table.js';
import type { LoadedPlugin } from './loaded-plugin.js';

export class PluginRegistry {
  private readonly loaded: LoadedPlugin[] = [];
  private readonly loading = new Map<string, Promise<LoadedPlugin>>();

  constructor(
    private readonly ctx: LoadContext,
    private readonly hookTimeoutMs: number,
  ) {}

  get log(): Logger {
    return this.ctx.log;
  }

  get timeoutMs(): number {
    return this.hookTimeoutMs;
  }

  /** The plugin for `request` under `major`, loading it on first use (concurrent callers share one load). */
  async get(major: PluginMajor, request: string): Promise<LoadedPlugin> {
    const normalized = normalizePluginRequest(major, request);
    const existing = this.loading.get(normalized.type);
    if (existing) return existing;
    const pending = loadPlugin(normalized, this.ctx).then((plugin) => {
      this.loaded.push(plugin);
      return plugin;
    });
    this.loading.set(normalized.type, pending);
    pending.catch(() => this.loading.delete(normalized.type));
    return pending;
  }

  list(): readonly LoadedPlugin[] {
    return this.loaded;
  }

  /** Calls every loaded plugin's fini in reverse load order; returns the failures (already logged). */
  async finiAll(): Promise<string[]> {
    const failures: string[] = [];
    for (const plugin of [...this.loaded].reverse()) {
      const fini = plugin.module.fini;
      if (typeof fini !== 'function') continue;
      try {
        const rc = await withTimeout(fini.call(plugin.module) as unknown, this.ctx.initTimeoutMs);
        if (rc !== undefined && rc !== 0) failures.push(`${plugin.type}: fini returned ${String(rc)}`);
      } catch (error) {
        failures.push(`${plugin.type}: fini: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.loaded.length = 0;
    this.loading.clear();
    for (const failure of failures) this.ctx.log.error(failure);
    return failures;
  }
}
