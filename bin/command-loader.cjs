// Runs a command's bundle (dist/main/<command>.cjs, see scripts/build.js) with V8's code
// cache: the compiled code of the bundle is kept beside it (<command>.cjs.v8cache) the first
// time it runs, and later runs skip most of the compile. A cache V8 rejects (another Node
// version) is written again; one that cannot be written (a read-only install) is simply not
// used. Node 20's ES modules have no code cache, hence CommonJS here.
//
// A cache holds what the run that wrote it compiled (it is written at that run's exit). One
// written by a run that did little (`--version`, `--help`, a refused option, a failure) leaves
// the command's main path to be compiled at every later run, so such a cache is provisional:
// the next run that does its work (exits 0, no such option) writes it again, holding both.
// The file's last byte says which it is (1: full, 0: provisional); V8's data is what precedes it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// The CommonJS loader's own class: require('node:module') would load the ES module loader's
// parts too, which nothing here uses (half a millisecond of every start).
const Module = module.constructor;

const builtinPlugins = path.join(__dirname, '..', 'dist', 'plugins');

/**
 * How a bundle of scripts/build.js begins: the CommonJS wrapper's head (its tail is `\n})`),
 * so that the file is the function this loader compiles, as it is.
 */
const bundleHead = '(function (exports, require, module, __filename, __dirname) {';
exports.bundleHead = bundleHead;

/**
 * Runs `command`'s bundle as `bin` (the name it prints); resolves when the command is done.
 * `keepCacheAfterMs`: a daemon's cache is kept that long after its start (it may run for days
 * before its exit, when a command's cache is kept).
 */
exports.runCommand = (command, bin, argv, { keepCacheAfterMs } = {}) => {
  infoOnly = (argv ?? process.argv.slice(2)).some((word) => INFO_WORDS.has(word));
  const bundle = runCached(path.join(__dirname, '..', 'dist', 'main', `${command}.cjs`));
  // The bundle's plugins are ES modules found at run time (plugin-host/load.ts); a built-in one
  // runs as its CommonJS twin (scripts/build.js), from the code cache like the bundle, with the
  // bundle's own plugin API.
  globalThis.__tslurmImport = (url) => importPlugin(url, bundle);
  // A third-party plugin's `tslurm/plugin-api` (dist/plugin-api/index.js) takes it from here too.
  globalThis.__tslurmPluginApi = bundle.pluginApi;
  if (keepCacheAfterMs !== undefined) setTimeout(() => keepCaches(true), keepCacheAfterMs).unref();
  return bundle.run(bin, argv);
};

function importPlugin(url, bundle) {
  const file = url.startsWith('file:') ? require('node:url').fileURLToPath(url) : url;
  if (path.dirname(file) === builtinPlugins && file.endsWith('.js')) {
    const twin = `${file.slice(0, -3)}.cjs`;
    if (fs.existsSync(twin)) return bundle.pluginApi().then((api) => runCached(twin, { 'tslurm/plugin-api': api }));
  }
  return import(url);
}

/** A CommonJS file's exports, compiled with the code cache kept beside it; `lent`: modules it requires from the caller. */
function runCached(file, lent = {}) {
  const cacheFile = `${file}.v8cache`;
  let kept;
  try {
    kept = fs.readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const cachedData = kept !== undefined && kept.length > 1 ? kept.subarray(0, kept.length - 1) : undefined;
  const provisional = cachedData !== undefined && kept[kept.length - 1] !== FULL;
  const source = fs.readFileSync(file, 'utf8');
  // scripts/build.js writes its bundles wrapped already, which spares a second copy of a large
  // file's text (the wrapped one) and the work of making it.
  const script = new vm.Script(source.startsWith(bundleHead) ? source : Module.wrap(source), { filename: file, cachedData });
  const module = { exports: {} };
  const requireHere = Module.createRequire(file);
  const require = (id) => (Object.hasOwn(lent, id) ? lent[id] : requireHere(id));
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
  // At exit, so the cache holds the functions this run compiled too, not only the top level.
  const usable = cachedData !== undefined && !script.cachedDataRejected;
  if (!usable || provisional) cachesToKeep(script, cacheFile, usable);
  return module.exports;
}

const FULL = 1;
const PROVISIONAL = 0;
/** Words after which a command only prints something: its run leaves a provisional cache. */
const INFO_WORDS = new Set(['--version', '-V', '--help', '-h', '--usage']);
let infoOnly = false;

// One exit listener for every cache to write (tsrun --mpi=list loads every built-in plugin).
// `upgrade`: the file holds a provisional cache V8 took, replaced only by a full one.
const toKeep = [];
function cachesToKeep(script, cacheFile, upgrade) {
  if (toKeep.length === 0) process.once('exit', (code) => keepCaches(code === 0 && !infoOnly));
  toKeep.push([script, cacheFile, upgrade]);
}

/** `full`: this run did the command's work (a daemon's cache is kept while it does). */
function keepCaches(full) {
  toKeep.splice(0).forEach(([s, f, upgrade]) => (full || !upgrade) && keepCache(s, f, full));
}

function keepCache(script, cacheFile, full) {
  const temporary = `${cacheFile}.${process.pid}`;
  try {
    const data = script.createCachedData();
    const file = Buffer.allocUnsafe(data.length + 1);
    data.copy(file);
    file[data.length] = full ? FULL : PROVISIONAL;
    fs.writeFileSync(temporary, file, { mode: 0o644 });
    fs.renameSync(temporary, cacheFile); // whole or not at all, whoever else writes it at once
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // a read-only install: no cache, the bundle is compiled each time
    }
  }
}
