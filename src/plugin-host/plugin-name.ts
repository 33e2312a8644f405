// Plugin requests as users write them (`linear`, `select/linear`, `cons_res`) turned into
// Slurm's "major/minor" form, and the file names the search path looks for.
import { UserError } from '../core/errors.js';
import type { PluginMajor } from './types-table.js';

export interface PluginRequest {
  major: PluginMajor;
  minor: string;
  /** "major/minor" */
  type: string;
}

/** `linear` or `select/linear` under major `select` → select/linear; a foreign major is refused. */
export function normalizePluginRequest(major: PluginMajor, request: string): PluginRequest {
  const trimmed = request.trim();
  const slash = trimmed.indexOf('/');
  const givenMajor = slash === -1 ? major : trimmed.slice(0, slash);
  const minor = slash === -1 ? trimmed : trimmed.slice(slash + 1);
  if (givenMajor !== major) {
    throw new UserError(
      `plugin "${trimmed}" is not a ${major} plugin: Plugin has invalid format or unable to be loaded`,
      { code: 'ESLURM_PLUGIN_INVALID' },
    );
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(minor)) {
    throw new UserError(`invalid plugin name "${trimmed}": expected "${major}/<name>"`, {
      code: 'ESLURM_PLUGIN_INVALID',
    });
  }
  return { major, minor, type: `${major}/${minor}` };
}

/** The module base name Slurm would look for: select/cons_tres → select_cons_tres. */
export function pluginFileBase(type: string): string {
  return type.replace('/', '_');
}
