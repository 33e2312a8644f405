// `show plugins`: every module the plugin search path offers, and for the plugins this
// cluster is configured to use, whether they really load (checks, init, fini).
import type { ClusterConfig } from '../../config/types.js';
import type { Logger } from '../../core/log.js';
import { createPluginRegistry, searchPathFor } from '../../plugin-host/create.js';
import { pluginInventory, type InventoryEntry } from '../../plugin-host/inventory.js';
import { formatColumns } from '../../cli/format/columns.js';
import type { PluginMajor } from '../../plugin-host/types-table.js';

export interface PluginRow extends InventoryEntry {
  status: 'active' | 'ok' | 'superseded' | 'refused';
}

export async function collectPlugins(config: ClusterConfig, log: Logger): Promise<{ rows: PluginRow[]; failed: string[] }> {
  const entries = await pluginInventory(searchPathFor(config));
  const configured: Array<[PluginMajor, string]> = [
    ['select', config.plugins.select],
    ['mpi', config.plugins.mpiDefault],
    ['job_container', config.plugins.jobContainer],
    ['proctrack', config.plugins.proctrack],
    ['sched', config.plugins.sched],
    ['auth', config.plugins.auth],
    ['jobcomp', config.jobcomp?.type ?? 'jobcomp/none'],
  ];
  const registry = createPluginRegistry(config, log);
  const active = new Map<string, string>(); // type → file that loaded
  const failed: string[] = [];
  for (const [major, request] of configured) {
    try {
      const plugin = await registry.get(major, request);
      active.set(plugin.type, plugin.file);
    } catch (error) {
      failed.push(error instanceof Error ? error.message : String(error));
    }
  }
  await registry.finiAll();
  const rows = entries.map((entry): PluginRow => {
    if (entry.refused !== null) return { ...entry, status: 'refused' };
    if (active.get(entry.type) === entry.file) return { ...entry, status: 'active' };
    return { ...entry, status: entry.supersededBy ? 'superseded' : 'ok' };
  });
  return { rows, failed };
}

export function formatPluginTable(rows: readonly PluginRow[]): string {
  return formatColumns(
    ['TYPE', 'NAME', 'VERSION', 'FILE', 'STATUS'],
    rows.map((r) => [
      r.type,
      r.name,
      r.version,
      r.file,
      r.status === 'refused' ? `refused: ${r.refused}` : r.status === 'superseded' ? `superseded by ${r.supersededBy}` : r.status,
    ]),
  );
}
