// The built plugins and the host share one copy of each class whose identity the host relies
// on: the select facade's answer checks take the fast path for the host's own Bitstr
// (src/interfaces/select-checks.ts), unpacking throws BufUnpackError, errors are told apart
// with instanceof. esbuild puts a module every entry point imports into one shared chunk; a
// change in the build (a plugin bundled on its own, say) that gave a plugin its own copy of
// one of them shows here as a second definition in dist/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-bin.js';

const dist = path.join(repoRoot, 'dist');
const CLASSES = ['Bitstr', 'Buf', 'BufUnpackError', 'HostlistError', 'UserError', 'PluginError'];

function jsFiles(): string[] {
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && !file.startsWith('types'))
    .map((file) => path.join(dist, file));
}

// Where each class is defined: `class X` as written, or `X=class` as esbuild's minifier leaves it.
function definitions(files: readonly string[]): Map<string, string[]> {
  const found = new Map(CLASSES.map((name) => [name, [] as string[]]));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const name of CLASSES) {
      if (new RegExp(`(?:\\bclass ${name}\\b|\\b${name}=class\\b)`).test(text)) found.get(name)!.push(path.relative(dist, file));
    }
  }
  return found;
}

describe('dist/: one class identity for plugins and host', () => {
  it('defines each shared class in exactly one module', () => {
    const found = definitions(jsFiles());
    for (const [name, files] of found) expect(files, name).toHaveLength(1);
  });

  it('the built-in plugins import the classes rather than carry them', () => {
    const plugins = jsFiles().filter((file) => file.startsWith(path.join(dist, 'plugins') + path.sep));
    expect(plugins.length).toBeGreaterThan(15);
    for (const files of definitions(plugins).values()) expect(files).toEqual([]);
  });

  // The twins a command's loader runs (bin/command-loader.cjs) take the plugin API from the
  // bundle that loads them, the controller's included, so they carry no class of their own.
  it("the built-in plugins' CommonJS twins require the plugin API rather than carry it", () => {
    const pluginsDir = path.join(dist, 'plugins');
    const twins = readdirSync(pluginsDir).filter((file) => file.endsWith('.cjs')).map((file) => path.join(pluginsDir, file));
    expect(twins.length).toBeGreaterThan(15);
    for (const files of definitions(twins).values()) expect(files).toEqual([]);
    for (const twin of twins) expect(readFileSync(twin, 'utf8'), twin).toContain('require("tslurm/plugin-api")');
  });

  // What a third-party plugin imports: the API of the host that loads it when the host lends
  // one (a command or the controller run from its CommonJS bundle), so that it shares the host's
  // classes there too; else the ES modules the split build's daemons share.
  it("tslurm/plugin-api is the loading host's own API when one is lent, else the ES modules", async () => {
    const lent = await execa(process.execPath, [
      '--input-type=module',
      '-e',
      "class Bitstr {}\nglobalThis.__tslurmPluginApi = async () => ({ Bitstr });\nconst api = await import('tslurm/plugin-api');\nconsole.log(api.Bitstr === Bitstr);",
    ], { cwd: repoRoot });
    expect(lent.stdout).toBe('true');
    const own = await execa(process.execPath, [
      '--input-type=module',
      '-e',
      "const api = await import('tslurm/plugin-api');\nconst sdk = await import('./dist/plugin-api/sdk.js');\nconsole.log(typeof api.Bitstr, api.Bitstr === sdk.Bitstr, Object.keys(api).length === Object.keys(sdk).length);",
    ], { cwd: repoRoot });
    expect(own.stdout).toBe('function true true');
  });
});
