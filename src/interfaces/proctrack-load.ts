// Loading the cluster's proctrack plugin: the one the cluster file names, or the default the
// host allowed (config/default-proctrack.ts), with proctrack/linuxproc when that default
// cannot load after all (a cgroup tree that looked writable and is not).
import type { PluginChoices } from '../config/types.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import { ProctrackFacade } from './proctrack.js';

export async function loadProctrack(registry: PluginRegistry, choices: Pick<PluginChoices, 'proctrack' | 'proctrackFallback'>): Promise<ProctrackFacade> {
  try {
    return new ProctrackFacade(await registry.get('proctrack', choices.proctrack), registry.timeoutMs);
  } catch (error) {
    if (choices.proctrackFallback === undefined) throw error;
    registry.log.verbose(`${choices.proctrack} cannot run here (${error instanceof Error ? error.message : String(error)}); using ${choices.proctrackFallback}`);
    return new ProctrackFacade(await registry.get('proctrack', choices.proctrackFallback), registry.timeoutMs);
  }
}
