#!/usr/bin/env node
// The tsstepd doorway: the step daemon and the CLI boundary are one CommonJS file,
// dist/main/tsstepd.cjs, run with V8's code cache (command-loader.cjs) like the controller: the
// controller waits for an embedded step host's start before the first job runs there. Its
// code cache is kept a few seconds after the start, a daemon's exit being far away.
require('./command-loader.cjs').runCommand('tsstepd', 'tsstepd', process.argv.slice(2), { keepCacheAfterMs: 3000 });
