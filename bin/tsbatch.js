#!/usr/bin/env node
// The tsbatch doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsbatch.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsbatch.js';

await run('tsbatch');
