#!/usr/bin/env node
// The tsstepd doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
// (A CommonJS file, bin/package.json: it imports the ES modules.)
import('../dist/cli/run-cli.js').then(({ runCli }) => runCli('tsstepd', () => import('../dist/commands/tsstepd.js')));
