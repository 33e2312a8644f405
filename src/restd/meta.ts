// The `meta` block every v0.0.38 answer starts with: which plugin answered and which Slurm it
// speaks for. slurmrestd 22.05.8 sends the version parts as numbers (observed), though its
// document calls them strings; clients parse the numbers, so tsrestd sends those.
import { SLURM_COMPAT_VERSION } from '../cli/slurm-names.js';

export const PLUGIN = { type: 'openapi/v0.0.38', name: 'Slurm OpenAPI v0.0.38' } as const;

export interface Meta {
  plugin: { type: string; name: string };
  Slurm: { version: { major: number; micro: number; minor: number }; release: string };
}

let meta: Meta | undefined;

/** The accounting paths' plugin (/slurmdb/v0.0.38/). */
export const DB_PLUGIN = { type: 'openapi/dbv0.0.38', name: 'Slurm OpenAPI DB v0.0.38' } as const;

export function restMeta(plugin: Meta['plugin'] = PLUGIN): Meta {
  if (!meta) {
    const [major = 0, minor = 0, micro = 0] = SLURM_COMPAT_VERSION.split('.').map(Number);
    meta = { plugin: { ...PLUGIN }, Slurm: { version: { major, micro, minor }, release: SLURM_COMPAT_VERSION } };
  }
  return plugin === PLUGIN ? meta : { ...meta, plugin: { ...plugin } };
}
