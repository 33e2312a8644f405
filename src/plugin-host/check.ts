// Validation at load time, before init (Slurm's _verify_syms; STYLE.md §3.3 steps 4-5):
// the header symbols, the version, and every required function of the type — every missing
// name reported in one message.
import { checkPluginVersion, type VersionVerdict } from './version.js';
import type { PluginTypeInfo } from './types-table.js';

export type ModuleNamespace = Readonly<Record<string, unknown>>;

export type CheckResult =
  | { ok: true; name: string; type: string; version: Extract<VersionVerdict, { ok: true }>; functions: Map<string, Function> }
  | { ok: false; code: 'ESLURM_PLUGIN_MISSING_NAME' | 'ESLURM_PLUGIN_INVALID' | 'ESLURM_PLUGIN_BAD_VERSION' | 'ESLURM_PLUGIN_INCOMPLETE'; reason: string; type?: string };

/** Checks a loaded module against the plugin type it was loaded as. */
export function checkPluginModule(mod: ModuleNamespace, expectedType: string, info: PluginTypeInfo): CheckResult {
  const type = mod.plugin_type;
  const name = mod.plugin_name;
  const missing = [typeof type === 'string' ? '' : 'plugin_type', typeof name === 'string' ? '' : 'plugin_name'].filter(Boolean);
  if (missing.length > 0) {
    return { ok: false, code: 'ESLURM_PLUGIN_MISSING_NAME', reason: `missing ${missing.join(' and ')}` };
  }
  if (type !== expectedType) {
    return { ok: false, code: 'ESLURM_PLUGIN_INVALID', reason: `plugin_type is "${String(type)}", expected "${expectedType}"`, type: type as string };
  }
  const version = checkPluginVersion(mod.plugin_version, mod.plugin_legacy, info);
  if (!version.ok) return { ok: false, code: 'ESLURM_PLUGIN_BAD_VERSION', reason: version.reason, type: expectedType };

  const functions = new Map<string, Function>();
  const problems: string[] = [];
  for (const [symbol, need] of Object.entries(info.symbols)) {
    const value = resolveSymbol(mod, symbol, info.aliases);
    if (typeof value === 'function') functions.set(symbol, value);
    else if (value !== undefined) problems.push(`${symbol} (not a function)`);
    else if (need === 'required') problems.push(symbol);
  }
  for (const hook of ['init', 'fini']) {
    if (mod[hook] !== undefined && typeof mod[hook] !== 'function') problems.push(`${hook} (not a function)`);
  }
  if (problems.length > 0) {
    return { ok: false, code: 'ESLURM_PLUGIN_INCOMPLETE', reason: problems.join(", "), type: expectedType };
  }
  return { ok: true, name: name as string, type: expectedType, version, functions };
}

function resolveSymbol(mod: ModuleNamespace, symbol: string, aliases: Readonly<Record<string, string>>): unknown {
  if (mod[symbol] !== undefined) return mod[symbol];
  for (const [alias, documented] of Object.entries(aliases)) {
    if (documented === symbol && mod[alias] !== undefined) return mod[alias];
  }
  return undefined;
}
