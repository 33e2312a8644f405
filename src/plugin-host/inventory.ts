// What the search path offers, for `tscontrol show plugins`: every module in every plugin
// directory, its header, and whether the host would accept it — and why not when it would not.
import { slurm_strerror } from '../core/errno.js';
import { checkPluginModule } from './check.js';
import { importModule } from './load.js';
import { listModules, type SearchDir } from './search-path.js';
import { isPluginMajor, pluginTypeInfo } from './types-table.js';

export interface InventoryEntry {
  type: string;
  name: string;
  version: string;
  revision: number;
  file: string;
  builtin: boolean;
  /** null when the host would load it; otherwise why it is refused. */
  refused: string | null;
  /** Another module of the same type wins (higher revision, or earlier in the path). */
  supersededBy?: string;
}

export async function pluginInventory(searchPath: readonly SearchDir[]): Promise<InventoryEntry[]> {
  const entries: InventoryEntry[] = [];
  for (const { dir, builtin } of searchPath) {
    for (const { file } of listModules(dir)) entries.push(await inspect(file, builtin));
  }
  markSuperseded(entries);
  return entries;
}

async function inspect(file: string, builtin: boolean): Promise<InventoryEntry> {
  const base = { name: '-', version: '-', revision: 0, file, builtin };
  const imported = await importModule(file);
  if (!imported.ok) {
    return { ...base, type: '?', refused: `${slurm_strerror('ESLURM_PLUGIN_DLOPEN_FAILED')}: ${imported.reason}` };
  }
  const { mod } = imported;
  const type = typeof mod.plugin_type === 'string' ? mod.plugin_type : '?';
  const name = typeof mod.plugin_name === 'string' ? mod.plugin_name : '-';
  const major = type.split('/')[0] ?? '';
  if (!isPluginMajor(major)) {
    const why = type === '?' ? 'missing plugin_type' : `unknown plugin type "${major}"`;
    return { ...base, type, name, refused: `${slurm_strerror(type === '?' ? 'ESLURM_PLUGIN_MISSING_NAME' : 'ESLURM_PLUGIN_INVALID')}: ${why}` };
  }
  const check = checkPluginModule(mod, type, pluginTypeInfo(major));
  if (!check.ok) return { ...base, type, name, refused: `${slurm_strerror(check.code)}: ${check.reason}` };
  return { ...base, type, name, version: check.version.display, revision: check.version.revision, refused: null };
}

// Mirrors loadPlugin's choice: highest revision wins, ties go to the first in the path.
function markSuperseded(entries: InventoryEntry[]): void {
  const winners = new Map<string, InventoryEntry>();
  for (const entry of entries) {
    if (entry.refused !== null) continue;
    const current = winners.get(entry.type);
    if (!current || entry.revision > current.revision) winners.set(entry.type, entry);
  }
  for (const entry of entries) {
    const winner = winners.get(entry.type);
    if (entry.refused === null && winner && winner !== entry) entry.supersededBy = winner.file;
  }
}
