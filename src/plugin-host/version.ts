// plugin_version under both of Slurm's schemes (DESIGN.md §4):
//  - ≥ 65536: a toolkit version (major<<16 | minor<<8 | micro) that must match ours in major.minor;
//  - < 65536: the older API number major*1000 + minor, where the highest API version common to
//    host and plugin (plugin_legacy..plugin_version) is spoken and the minor is the revision.
import { toolkitVersionParts } from '../os/version.js';
import type { PluginTypeInfo } from './types-table.js';

export type VersionVerdict =
  | { ok: true; scheme: 'toolkit' | 'api' | 'none'; apiVersion: number; revision: number; display: string }
  | { ok: false; reason: string };

export function formatToolkitVersion(v: number): string {
  return `${(v >> 16) & 0xff}.${(v >> 8) & 0xff}.${v & 0xff}`;
}

export function checkPluginVersion(
  version: unknown,
  legacy: unknown,
  info: PluginTypeInfo,
): VersionVerdict {
  if (version === undefined) return { ok: true, scheme: 'none', apiVersion: info.api.current, revision: 0, display: '-' };
  if (!isUint32(version)) return { ok: false, reason: `plugin_version must be an unsigned 32-bit integer, got ${show(version)}` };
  if (version >= 65536) return checkToolkitVersion(version);
  return negotiateApiVersion(version, legacy, info);
}

function checkToolkitVersion(version: number): VersionVerdict {
  const ours = toolkitVersionParts();
  const display = formatToolkitVersion(version);
  if (((version >> 16) & 0xff) !== ours.major || ((version >> 8) & 0xff) !== ours.minor) {
    return { ok: false, reason: `plugin built for tslurm ${display}, this is tslurm ${ours.major}.${ours.minor}.${ours.micro}` };
  }
  return { ok: true, scheme: 'toolkit', apiVersion: 0, revision: version & 0xff, display };
}

function negotiateApiVersion(version: number, legacy: unknown, info: PluginTypeInfo): VersionVerdict {
  if (legacy !== undefined && (!isUint32(legacy) || legacy > version)) {
    return { ok: false, reason: `plugin_legacy must be an API number no higher than plugin_version, got ${show(legacy)}` };
  }
  const newest = Math.floor(version / 1000);
  // Slurm: an absent plugin_legacy is plugin_version rounded down to the thousand.
  const oldest = Math.floor(((legacy as number | undefined) ?? version) / 1000);
  const spoken = Math.min(newest, info.api.current);
  const display = `API ${newest}.${version % 1000}`;
  if (spoken < Math.max(oldest, info.api.oldest)) {
    return {
      ok: false,
      reason: `plugin speaks API ${range(oldest, newest)}, tslurm speaks API ${range(info.api.oldest, info.api.current)}`,
    };
  }
  return { ok: true, scheme: 'api', apiVersion: spoken, revision: version % 1000, display };
}

function range(low: number, high: number): string {
  return low === high ? `${low}` : `${low}-${high}`;
}

function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
