// bin/command-loader.cjs, on a small tree laid out like the package (bin/, dist/main,
// dist/plugins): a bundle runs from its code cache, kept beside it by the first run; a built-in
// plugin runs as its CommonJS twin with the plugin API of the bundle that loads it (one class
// identity for plugin and host), which third-party plugins' `tslurm/plugin-api` finds too; a daemon keeps its cache soon after its start, not at an exit
// days away.
import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { repoRoot } from '../helpers/run-bin.js';

const { bundleHead } = createRequire(import.meta.url)(path.join(repoRoot, 'bin', 'command-loader.cjs')) as { bundleHead: string };

/** `wrapped`: the bundle written as scripts/build.js writes its bundles, the loader's function itself. */
function packageTree({ wrapped = false } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-loader-'));
  for (const dir of ['bin', 'dist/main', 'dist/plugins']) mkdirSync(path.join(root, dir), { recursive: true });
  copyFileSync(path.join(repoRoot, 'bin', 'command-loader.cjs'), path.join(root, 'bin', 'command-loader.cjs'));
  // A command bundle as scripts/build.js makes them: run(bin, argv) and its plugin API, lent on first use.
  const bundle = (body: string): string => (wrapped ? `${bundleHead}${body}\n})\n//# sourceMappingURL=probe.cjs.map\n` : body);
  writeFileSync(
    path.join(root, 'dist/main/probe.cjs'),
    bundle(`class Bitstr {}\n` +
      `exports.pluginApi = () => Promise.resolve({ Bitstr });\n` +
      `exports.run = async (bin, argv) => {\n` +
      `  if (argv[0] === 'serve') return new Promise((resolve) => setTimeout(resolve, Number(argv[1])));\n` +
      `  const url = require('node:url').pathToFileURL(require('node:path').join(__dirname, '../plugins/probe_twin.js')).href;\n` +
      `  const plugin = await globalThis.__tslurmImport(url);\n` +
      `  process.stdout.write(plugin.form + ' ' + (plugin.apiBitstr === Bitstr) + ' ' + (globalThis.__tslurmPluginApi === exports.pluginApi) + '\\n');\n` +
      `};\n`),
  );
  // The plugin's ES module, found by the search path, and its twin, which the loader runs instead.
  writeFileSync(path.join(root, 'dist/plugins/probe_twin.js'), `export const form = 'module';\n`);
  writeFileSync(
    path.join(root, 'dist/plugins/probe_twin.cjs'),
    bundle(`exports.form = 'twin';\nexports.apiBitstr = require('tslurm/plugin-api').Bitstr;\n`),
  );
  writeFileSync(path.join(root, 'bin', 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(
    path.join(root, 'bin', 'probe.js'),
    `const serving = process.argv[2] === 'serve';\n` +
      `require('./command-loader.cjs').runCommand('probe', 'probe', process.argv.slice(2), serving ? { keepCacheAfterMs: 200 } : {});\n`,
  );
  return root;
}

describe('bin/command-loader.cjs', () => {
  it("runs a built-in plugin's twin with the loading bundle's plugin API, and keeps both caches", async () => {
    const root = packageTree();
    const first = await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    expect(first.stdout).toBe('twin true true');
    const caches = [path.join(root, 'dist/main/probe.cjs.v8cache'), path.join(root, 'dist/plugins/probe_twin.cjs.v8cache')];
    for (const cache of caches) expect(existsSync(cache), cache).toBe(true);
    const written = caches.map((cache) => statSync(cache).mtimeMs);
    // A cache V8 accepts is used as it is, not written again.
    const second = await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    expect(second.stdout).toBe('twin true true');
    expect(caches.map((cache) => statSync(cache).mtimeMs)).toEqual(written);
  });

  // scripts/build.js writes its bundles and twins as the wrapper function the loader compiles.
  it('runs a bundle and twin written as its function, from the cache the first run kept', async () => {
    const root = packageTree({ wrapped: true });
    const first = await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    expect(first.stdout).toBe('twin true true');
    const cache = path.join(root, 'dist/main/probe.cjs.v8cache');
    const written = statSync(cache).mtimeMs;
    const second = await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    expect(second.stdout).toBe('twin true true');
    expect(statSync(cache).mtimeMs).toBe(written); // accepted, not written again
  });

  // A cache holds what its first run compiled: one from a run that only printed its version
  // is replaced by the next run that does the command's work, which then stays.
  it("replaces a cache written by a --version run with a working run's, once", async () => {
    const root = packageTree({ wrapped: true });
    const cache = path.join(root, 'dist/main/probe.cjs.v8cache');
    const lastByte = (): number => readFileSync(cache).at(-1)!;
    await execa(process.execPath, [path.join(root, 'bin', 'probe.js'), '--version']);
    expect(lastByte()).toBe(0); // provisional
    const provisional = statSync(cache);
    const working = await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    expect(working.stdout).toBe('twin true true');
    const full = statSync(cache);
    expect(lastByte()).toBe(1);
    expect(full.ino === provisional.ino && full.mtimeMs === provisional.mtimeMs).toBe(false); // written again
    await execa(process.execPath, [path.join(root, 'bin', 'probe.js')]);
    await execa(process.execPath, [path.join(root, 'bin', 'probe.js'), '--version']);
    expect(statSync(cache).mtimeMs).toBe(full.mtimeMs); // a full cache stays
  });

  it('the built bundles and twins are written as that function', () => {
    for (const file of [path.join(repoRoot, 'dist/main/tsrun.cjs'), path.join(repoRoot, 'dist/plugins/mpi_none.cjs')]) {
      expect(readFileSync(file, 'utf8').startsWith(bundleHead), file).toBe(true);
    }
  });

  it("keeps a daemon's cache while it runs", async () => {
    const root = packageTree();
    const cache = path.join(root, 'dist/main/probe.cjs.v8cache');
    const daemon = execa(process.execPath, [path.join(root, 'bin', 'probe.js'), 'serve', '60000']);
    try {
      for (let waited = 0; !existsSync(cache) && waited < 20_000; waited += 50) await sleep(50);
      expect(existsSync(cache)).toBe(true);
      expect(daemon.exitCode).toBeNull(); // still running
    } finally {
      daemon.kill('SIGKILL');
      await daemon.catch(() => {});
    }
  });
});
