#!/usr/bin/env node
// The tsqueue doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one CommonJS file,
// dist/main/tsqueue.cjs, run with V8's code cache (command-loader.cjs): the fastest start measured.
// CommonJS (bin/package.json), as an ES module entry costs the module loader's start first.
require('./command-loader.cjs').runCommand('tsqueue', 'tsqueue');
