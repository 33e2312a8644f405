#!/usr/bin/env node
// Builds dist/: one esbuild pass with code splitting, so each command loads only the
// chunks its path needs (start-up cost is dominated by module loading; see bench/startup.js),
// a second pass with one self-contained CommonJS file per client command (dist/main/), then the native helpers (build-native.js), then the public .d.ts files for
// `tslurm/plugin-api` with tsc.
import { build } from 'esbuild';
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildNative } from './build-native.js';
import { builtInClusterPlugin } from './built-in-cluster.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// The CommonJS files below are written as the function bin/command-loader.cjs compiles: no
// wrapping of the text at each start (a second copy of half a megabyte, ~1.4 ms of CPU).
const { bundleHead } = createRequire(import.meta.url)('../bin/command-loader.cjs');
const wrapped = (head) => ({ banner: { js: `${bundleHead}${head}` }, footer: { js: '})' } });
const src = (p) => path.join(root, p);
const ts = (dir) => readdirSync(src(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));

const entryPoints = {
  'cli/run-cli': src('src/cli/run-cli.ts'),
  // The API itself; dist/plugin-api/index.js, written below, is what `tslurm/plugin-api` names.
  'plugin-api/sdk': src('src/plugin-api/index.ts'),
  index: src('src/index.ts'),
  'stepd/reaper': src('src/stepd/reaper-main.ts'),
  'stepd/bcast-writer': src('src/stepd/bcast-writer-main.ts'),
  // tsctld --simulate, and the in-process harness bench/schedule.js imports.
  'ctld/simulate': src('src/ctld/simulate/index.ts'),
  // The accounting store's read API (tsrestd) and the store benchmark (bench/tsacct.js).
  'acct/index': src('src/acct/index.ts'),
};
for (const dir of readdirSync(src('src/commands'))) {
  entryPoints[`commands/${dir}`] = src(`src/commands/${dir}/index.ts`);
}
// Built-in plugins are separate modules found at run time through the search path,
// exactly like third-party ones; the core never imports them.
for (const file of ts('plugins')) entryPoints[`plugins/${file.slice(0, -3)}`] = src(`plugins/${file}`);

rmSync(src('dist'), { recursive: true, force: true });
const common = {
  outdir: src('dist'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Smaller files parse faster at start-up; names are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // A native module: loaded from node_modules at run time, by the accounting store only.
  external: ['better-sqlite3'],
  define: { __TSLURM_VERSION__: JSON.stringify(JSON.parse(readFileSync(src('package.json'), 'utf8')).version) },
  // The built-in cluster as a value, not built through the schemas at each start.
  plugins: [await builtInClusterPlugin(root)],
  // Bundled CommonJS dependencies (cli-table3) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __tsCreateRequire } from 'node:module'; const require = __tsCreateRequire(import.meta.url);" },
};
await build({ ...common, entryPoints, splitting: true });
// `tslurm/plugin-api` for a third-party plugin: the API of the command or daemon that loads it
// when that one runs from a CommonJS bundle (bin/command-loader.cjs lends it), so that plugin and
// host share one Bitstr, Buf and error classes there too; otherwise the ES modules (sdk.js),
// which the split build's daemons share. The names are the API's, read from the built module.
{
  const names = Object.keys(await import(pathToFileURL(src('dist/plugin-api/sdk.js')).href));
  writeFileSync(
    src('dist/plugin-api/index.js'),
    '// tslurm/plugin-api: the loading host\'s own API when it lends one (scripts/build.js), else ./sdk.js.\n' +
      'const lent = globalThis.__tslurmPluginApi;\n' +
      "const api = lent ? await lent() : await import('./sdk.js');\n" +
      `export const { ${names.join(', ')} } = api;\n`,
  );
}
// tsrestd's dashboard page, served as it is (restd/dashboard/assets.ts finds it next to the chunks).
cpSync(src('src/restd/dashboard/static'), src('dist/dashboard'), { recursive: true });

// The short-lived client commands again, each as one self-contained CommonJS file in dist/main/
// (the CLI boundary and the command; shared code copied into each), which bin/<command>.js
// runs through bin/command-loader.cjs with V8's code cache. Measured interleaved against the
// split ES modules: the ESM loader's per-module work, compiling 30-60 chunks and then the
// compile of one big file are what a short command's start-up spends beyond `node -e 0`; one
// CommonJS file with a code cache cuts tsqueue's CPU from ~1.6x to ~1.3x `node -e 0`. The
// daemons keep the split build: they start rarely, and their built-in plugins share the
// core's classes (Bitstr's fast paths) through it.
const clientCommands = ['tsrun', 'tsbatch', 'tsalloc', 'tsqueue', 'tsinfo', 'tscontrol', 'tscancel', 'tsbcast', 'tsacct'];
clientCommands.push('tssstat');
// The controller too: started on demand by the first command, its start is on that command's path.
clientCommands.push('tsctld');
// And the step daemon: the controller waits for an embedded step host's start.
clientCommands.push('tsstepd');
await build({
  ...common,
  entryPoints: clientCommands.map((name) => ({ in: `tslurm-main:${name}`, out: `main/${name}` })),
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  splitting: false,
  // The code finds its neighbours (dist/native, dist/plugins) from its own URL.
  define: { ...common.define, 'import.meta.url': '__tsImportMetaUrl' },
  ...wrapped("const __tsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;"),
  plugins: [
    ...common.plugins,
    // A vm script run from the code cache has no import() of its own (command-loader.cjs), so
    // `await import('node:path')` in a bundle becomes a require of the built-in.
    {
      name: 'builtins-by-require',
      setup(b) {
        b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-by-require' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
      },
    },
    {
      name: 'tslurm-main',
      setup(b) {
        b.onResolve({ filter: /^tslurm-main:/ }, (args) => ({ path: args.path.slice('tslurm-main:'.length), namespace: 'tslurm-main' }));
        b.onLoad({ filter: /.*/, namespace: 'tslurm-main' }, (args) => ({
          resolveDir: root,
          loader: 'ts',
          contents:
            `import { runCli } from './src/cli/run-cli.ts';\n` +
            `import * as command from './src/commands/${args.path}/index.ts';\n` +
            `export const run = (bin: string, argv?: string[]) => runCli(bin, async () => command, argv);\n` +
            // The plugin API this bundle's classes come from, lent to the built-in plugins' twins
            // (below) so that plugin and host share Bitstr, Buf and the errors; loaded on first use.
            `export const pluginApi = () => import('./src/plugin-api/index.ts');\n`,
        }));
      },
    },
  ],
});

// The built-in plugins again, each as one self-contained CommonJS twin beside its ES module
// (dist/plugins/<name>.cjs): a client command finds a plugin through the search path as ever,
// and its loader (bin/command-loader.cjs) then runs the twin of a built-in one with V8's code
// cache instead of importing the module and its shared chunks one by one (measured: the three
// plugins of `tsrun -n1 true` in 5-15 ms against 42-145 ms on the loaded build machine). The
// daemons import the ES modules, which share the core's classes. `.cjs` is no module name the
// search path scans (plugin-host/search-path.ts), so a twin is never a plugin of its own.
// A twin carries the plugin and its plugins/lib files but not the plugin API: it requires
// `tslurm/plugin-api`, which its loader answers with the running bundle's own (pluginApi above),
// so the classes the host tells apart (Bitstr's fast paths, BufUnpackError, PluginError) are one.
const pluginApiIndex = src('src/plugin-api/index.ts');
await build({
  ...common,
  entryPoints: ts('plugins').map((file) => ({ in: src(`plugins/${file}`), out: `plugins/${file.slice(0, -3)}` })),
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  splitting: false,
  sourcemap: false,
  // Beside the ES module, so what the plugin finds from its own URL (dist/native) is the same.
  define: { ...common.define, 'import.meta.url': '__tsImportMetaUrl' },
  ...wrapped("const __tsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;"),
  plugins: [
    ...common.plugins,
    {
      name: 'tslurm-plugin-api-from-host',
      setup(b) {
        b.onResolve({ filter: /plugin-api\/index\.js$/ }, (args) => {
          const file = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
          return file === pluginApiIndex ? { path: 'tslurm/plugin-api', external: true } : undefined;
        });
      },
    },
  ],
});

// After esbuild, which empties dist/. A missing toolchain only prints a line.
const nativeNote = buildNative(root);
if (nativeNote) console.warn(nativeNote);

if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, [src('node_modules/typescript/bin/tsc'), '-p', src('tsconfig.build.json')], {
    stdio: 'inherit',
  });
}
