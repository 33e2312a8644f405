// The container plugins a step host runs batch steps in, loaded once per set of cluster
// settings the controller sends (one set, unless the cluster file changed under a running
// host) rather than once per job; a load that failed is tried again by the next job.
import type { Logger } from '../../core/log.js';
import { createPluginRegistry, type PluginSettings } from '../../plugin-host/create.js';
import type { PluginRegistry } from '../../plugin-host/registry.js';
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

  /** fini of every plugin loaded, at the host's end. */
  async finiAll(): Promise<void> {
    for (const { registry } of this.loaded.values()) await registry.finiAll();
  }
}
