// The registry a command or daemon uses, built from the cluster config and the environment.
import type { Logger } from '../core/log.js';
import type { ClusterConfig } from '../config/types.js';
import { PluginRegistry } from './registry.js';
import { pluginSearchPath, type SearchDir } from './search-path.js';
import { pluginTimeouts } from './timeout.js';

/** What the registry needs of a cluster: a step daemon gets just this, not the whole file. */
export type PluginSettings = Pick<ClusterConfig, 'clusterName' | 'plugins' | 'options'>;

export function searchPathFor(config: PluginSettings, env: NodeJS.ProcessEnv = process.env): SearchDir[] {
  return pluginSearchPath({ pluginDirs: config.plugins.pluginDirs, env });
}

/** `clock`: now in Unix seconds as plugins see it (host.time); the wall clock when not given. */
export function createPluginRegistry(
  config: PluginSettings,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
  clock?: () => number,
): PluginRegistry {
  const { initMs, hookMs } = pluginTimeouts(env);
  return new PluginRegistry(
    {
      searchPath: searchPathFor(config, env),
      log,
      clusterName: config.clusterName,
      options: config.options,
      initTimeoutMs: initMs,
      ...(clock && { clock }),
    },
    hookMs,
  );
}
