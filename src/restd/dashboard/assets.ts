// The page's files (HTML, CSS, ES modules), served as they are: no bundler, no CDN. The build
// copies static/ to dist/dashboard/; run from the sources they are read from static/ itself.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  type: string;
  body: Buffer;
}

/** The directory holding the page: dist/dashboard/ next to the built chunk, else static/ beside this file. */
export function assetDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, '..', 'dashboard'), path.join(here, 'static')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
  if (!found) throw new Error(`the dashboard's files are missing (looked in ${candidates.join(', ')})`);
  return found;
}

/** Every file of the page, read once: the set is small and fixed, and no request names a path on disk. */
export function loadAssets(dir = assetDir()): Map<string, Asset> {
  const names = ['index.html', 'dashboard.css', 'main.js', 'api.js', 'grid.js', 'queue.js', 'rows.js', 'chart.js', 'ends.js', 'format.js'];
  return new Map(
    names.map((name) => [name, { type: TYPES[path.extname(name)] ?? 'application/octet-stream', body: readFileSync(path.join(dir, name)) }]),
  );
}
