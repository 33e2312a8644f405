// The container plugins a step host runs batch steps and steps' tasks in, loaded once per set
// of cluster settings the controller or tsrun sends (one set, unless the cluster file changed
// under a running host) rather than once per job; a load that failed is tried again by the
// next job. A step's mpi plugin comes from the same registry, so batch steps and steps share
// one instance of each plugin.
import type { Logger } from '../../core/log.js';
import { createPluginRegistry, type PluginSettings } from '../../plugin-host/create.js';
import type { PluginRegistry } from '../../plugin-host/registry.js';
import { MpiFacade } from '../../interfaces/mpi.js';
import { JobContainerFacade } from '../../interfaces/job-container.js';
import { loadProctrack } from '../../interfaces/proctrack-load.js';
import type { ContainerPlugins } from '../step-container.js';

export class HostPlugins {
  private readonly loaded = new Map<string, { registry: PluginRegistry; plugins: Promise<ContainerPlugins> }>();

  constructor(private readonly log: Logger) {}

  /** The job_container and proctrack plugins of `settings`. */
  for(settings: PluginSettings): Promise<ContainerPlugins> {
    const key = JSON.stringify(settings);
    const known = this.loaded.get(key);
    if (known) return known.plugins;
    const registry = createPluginRegistry(settings, this.log);
    const plugins = (async (): Promise<ContainerPlugins> => ({
      container: new JobContainerFacade(await registry.get('job_container', settings.plugins.jobContainer), registry.timeoutMs),
      proctrack: await loadProctrack(registry, settings.plugins),
    }))();
    this.loaded.set(key, { registry, plugins });
    plugins.catch(() => this.loaded.delete(key));
    return plugins;
  }

  /** The mpi plugin `type` (a step's --mpi) of `settings`. */
  async mpi(settings: PluginSettings, type: string): Promise<MpiFacade> {
    await this.for(settings);
    const registry = this.loaded.get(JSON.stringify(settings))!.registry;
    return new MpiFacade(await registry.get('mpi', type), registry.timeoutMs);
  }

  /** fini of every plugin loaded, at the host's end. */
  async finiAll(): Promise<void> {
    for (const { registry } of this.loaded.values()) await registry.finiAll();
  }
}
