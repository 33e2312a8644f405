#!/usr/bin/env node
// The tsacct doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one CommonJS file,
// dist/main/tsacct.cjs, run with V8's code cache (command-loader.cjs): the fastest start measured.
import { createRequire } from 'node:module';

await createRequire(import.meta.url)('./command-loader.cjs').runCommand('tsacct', 'tsacct');
