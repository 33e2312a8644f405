// Where plugins are found: the built-in directory first, then the cluster's plugin_dirs,
// then TSLURM_PLUGIN_DIR (colon-separated), left to right, as Slurm walks PluginDir.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SearchDir {
  dir: string;
  builtin: boolean;
}

/** dist/plugins, found relative to this module (every dist module sits one level below dist/). */
export function builtinPluginDir(): string {
  return fileURLToPath(new URL('../plugins/', import.meta.url));
}

export function pluginSearchPath(options: {
  pluginDirs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  builtinDir?: string;
}): SearchDir[] {
  const env = options.env ?? process.env;
  const fromEnv = (env.TSLURM_PLUGIN_DIR ?? '').split(':').filter((d) => d !== '');
  const dirs: SearchDir[] = [{ dir: options.builtinDir ?? builtinPluginDir(), builtin: true }];
  for (const dir of [...(options.pluginDirs ?? []), ...fromEnv]) {
    const resolved = path.resolve(dir);
    if (!dirs.some((d) => d.dir === resolved)) dirs.push({ dir: resolved, builtin: false });
  }
  return dirs;
}

const moduleExt = /\.(m?js)$/;

/** The module files of one directory: `name.js`, `name.mjs`, or `name/index.js`, by base name. */
export function listModules(dir: string): Array<{ base: string; file: string }> {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return []; // a missing plugin dir is not an error, as with Slurm's PluginDir
  }
  const modules: Array<{ base: string; file: string }> = [];
  for (const entry of entries) {
    const full = path.join(dir, entry);
    if (moduleExt.test(entry)) {
      modules.push({ base: entry.replace(moduleExt, ''), file: full });
    } else if (!entry.includes('.') && isDirectory(full)) {
      const index = ['index.js', 'index.mjs'].map((f) => path.join(full, f)).find((f) => existsSync(f));
      if (index) modules.push({ base: entry, file: index });
    }
  }
  return modules;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Candidate modules for a plugin type, in search-path order. First every module named
 * `<major>_<minor>` (or `<major>_<minor>@<revision>`, so one directory can hold several
 * revisions); only when there is none, every `<major>_*` module, to be matched by the
 * `plugin_type` it exports.
 */
export function candidateFiles(dirs: readonly SearchDir[], fileBase: string, major: string): {
  byName: Array<{ file: string; builtin: boolean }>;
  scan: Array<{ file: string; builtin: boolean }>;
} {
  const byName: Array<{ file: string; builtin: boolean }> = [];
  const scan: Array<{ file: string; builtin: boolean }> = [];
  for (const { dir, builtin } of dirs) {
    for (const { base, file } of listModules(dir)) {
      if (base === fileBase || base.startsWith(`${fileBase}@`)) byName.push({ file, builtin });
      else if (base.startsWith(`${major}_`)) scan.push({ file, builtin });
    }
  }
  return { byName, scan };
}
