// Finding, importing, checking and initialising one plugin (STYLE.md §3.3), the way Slurm's
// plugin_load_and_link does it: every failure is a PluginError with a Slurm errno name.
import { pathToFileURL } from 'node:url';
import { PluginError } from '../core/errors.js';
import { slurm_strerror, type ErrnoName } from '../core/errno.js';
import { toolkitVersionParts } from '../os/version.js';
import type { Logger } from '../core/log.js';
import type { PluginHost } from '../plugin-api/common.js';
import { checkPluginModule, type CheckResult, type ModuleNamespace } from './check.js';
import { candidateFiles, type SearchDir } from './search-path.js';
import { pluginFileBase, type PluginRequest } from './plugin-name.js';
import { pluginTypeInfo } from './types-table.js';
import { HookTimeout, withTimeout } from './timeout.js';
import type { LoadedPlugin } from './loaded-plugin.js';

export interface LoadContext {
  searchPath: readonly SearchDir[];
  log: Logger;
  clusterName: string;
  /** Per-plugin option blocks from the cluster YAML, keyed `<major>_<minor>`. */
  options: Readonly<Record<string, unknown>>;
  initTimeoutMs: number;
  /** Now, Unix seconds, as plugins see it (host.time); virtual under `tsctld --simulate`. */
  clock?: () => number;
}

type Candidate = { file: string; builtin: boolean; mod: ModuleNamespace; check: Extract<CheckResult, { ok: true }> };
type Refusal = { file: string; code: ErrnoName; reason: string };

/** Loads, checks and initialises the plugin for `request`; throws PluginError when it cannot. */
export async function loadPlugin(request: PluginRequest, ctx: LoadContext): Promise<LoadedPlugin> {
  const { accepted, refused } = await findCandidates(request, ctx);
  if (accepted.length === 0) throw refusalError(request, refused, ctx.searchPath);

  // Several modules of one type: the highest minor revision wins; ties go to the first found.
  const best = accepted.reduce((a, b) => (b.check.version.revision > a.check.version.revision ? b : a));
  for (const other of accepted) {
    if (other !== best) ctx.log.verbose(`${request.type}: using ${best.file} (revision ${best.check.version.revision}) over ${other.file}`);
  }
  if (best.check.version.scheme === 'none') {
    ctx.log.verbose(`${request.type}: ${best.file} has no plugin_version; loading it anyway`);
  }
  const loaded: LoadedPlugin = {
    type: request.type,
    major: request.major,
    name: best.check.name,
    file: best.file,
    builtin: best.builtin,
    versionScheme: best.check.version.scheme,
    apiVersion: best.check.version.apiVersion,
    revision: best.check.version.revision,
    versionDisplay: best.check.version.display,
    functions: best.check.functions,
    module: best.mod,
    errno: 0,
  };
  await initPlugin(loaded, ctx);
  return loaded;
}

/** Imports every candidate module and sorts them into accepted and refused (with reasons). */
export async function findCandidates(
  request: PluginRequest,
  ctx: Pick<LoadContext, 'searchPath'>,
): Promise<{ accepted: Candidate[]; refused: Refusal[] }> {
  const info = pluginTypeInfo(request.major);
  const { byName, scan } = candidateFiles(ctx.searchPath, pluginFileBase(request.type), request.major);
  const accepted: Candidate[] = [];
  const refused: Refusal[] = [];
  for (const [list, scanning] of [[byName, false], [scan, true]] as const) {
    if (scanning && (accepted.length > 0 || refused.length > 0)) break;
    for (const { file, builtin } of list) {
      const imported = await importModule(file);
      if (!imported.ok) {
        if (!scanning) refused.push({ file, code: 'ESLURM_PLUGIN_DLOPEN_FAILED', reason: imported.reason });
        continue;
      }
      // When scanning, a module declaring another plugin_type is simply another plugin.
      if (scanning && imported.mod.plugin_type !== request.type) continue;
      const check = checkPluginModule(imported.mod, request.type, info);
      if (check.ok) accepted.push({ file, builtin, mod: imported.mod, check });
      else refused.push({ file, code: check.code, reason: check.reason });
    }
  }
  return { accepted, refused };
}

export async function importModule(file: string): Promise<{ ok: true; mod: ModuleNamespace } | { ok: false; reason: string }> {
  try {
    return { ok: true, mod: (await dynamicImport(pathToFileURL(file).href)) as ModuleNamespace };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

function refusalError(request: PluginRequest, refused: readonly Refusal[], searchPath: readonly SearchDir[]): PluginError {
  const first = refused[0];
  if (!first) {
    const dirs = searchPath.map((d) => d.dir).join(', ');
    return new PluginError(request.type, `${slurm_strerror('ESLURM_PLUGIN_NOTFOUND')} (searched ${dirs})`, {
      code: 'ESLURM_PLUGIN_NOTFOUND',
    });
  }
  return new PluginError(request.type, `${slurm_strerror(first.code)}: ${first.reason} (${first.file})`, { code: first.code });
}

async function initPlugin(loaded: LoadedPlugin, ctx: LoadContext): Promise<void> {
  const init = loaded.module.init;
  if (typeof init !== 'function') return;
  const fail = (why: string): PluginError =>
    new PluginError(loaded.type, `${slurm_strerror('ESLURM_PLUGIN_INIT_FAILED')}: ${why} (${loaded.file})`, {
      code: 'ESLURM_PLUGIN_INIT_FAILED',
    });
  // What init logs as an error is held back: when init then fails, the first such line is
  // the reason the user sees, once, instead of a line of its own and "init() returned -1".
  // A plugin may keep the host it was given: after init, its errors print as they come.
  const held: string[] = [];
  let holding = true;
  const host = pluginHost(loaded, ctx);
  const error = host.log.error;
  const initHost: PluginHost = { ...host, log: { ...host.log, error: (m) => (holding ? void held.push(m) : error(m)) } };
  let rc: unknown;
  try {
    rc = await withTimeout(init.call(loaded.module, initHost), ctx.initTimeoutMs);
  } catch (thrown) {
    holding = false;
    for (const message of held) error(message);
    if (thrown instanceof HookTimeout) throw fail(`init() ${thrown.message}`);
    throw fail(`init() threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }
  holding = false;
  if (rc !== undefined && rc !== 0) {
    const errno = loaded.errno !== 0 ? ` (${slurm_strerror(loaded.errno)})` : '';
    if (held.length > 0) throw new PluginError(loaded.type, `${held[0]!}${errno}`, { code: 'ESLURM_PLUGIN_INIT_FAILED' });
    throw fail(`init() returned ${String(rc)}${errno}`);
  }
  for (const message of held) error(message);
}

/** The PluginHost object given to init: logging prefixed with the plugin type, errno, options. */
export function pluginHost(loaded: LoadedPlugin, ctx: LoadContext): PluginHost {
  const tag = (message: string): string => `${loaded.type}: ${message}`;
  return {
    log: {
      error: (m) => ctx.log.error(tag(m)),
      info: (m) => ctx.log.info(tag(m)),
      verbose: (m) => ctx.log.verbose(tag(m)),
      debug: (m) => ctx.log.debug(tag(m)),
    },
    slurm_seterrno: (errnum) => {
      loaded.errno = errnum;
    },
    slurm_strerror,
    version: toolkitVersionParts(),
    options: Object.freeze({ ...((ctx.options[loaded.type.replace('/', '_')] as Record<string, unknown>) ?? {}) }),
    clusterName: ctx.clusterName,
    time: ctx.clock ?? (() => Math.floor(Date.now() / 1000)),
  };
}

// A client command's bundle runs from V8's code cache (bin/command-loader.cjs), where code has
// no import() of its own (Node 20 keeps no module loader for cached vm code): the loader, a
// plain CommonJS module, lends its.
function dynamicImport(url: string): Promise<unknown> {
  const lent = (globalThis as { __tslurmImport?: (url: string) => Promise<unknown> }).__tslurmImport;
  return lent ? lent(url) : import(url);
}
