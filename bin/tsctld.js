#!/usr/bin/env node
// The tsctld doorway: the controller and the CLI boundary are one CommonJS file,
// dist/main/tsctld.cjs, run with V8's code cache (command-loader.cjs) like the client commands:
// the first command on a state directory waits for this start. Its code cache is kept a few
// seconds after the start, a daemon's exit being far away.
require('./command-loader.cjs').runCommand('tsctld', 'tsctld', process.argv.slice(2), { keepCacheAfterMs: 3000 });
