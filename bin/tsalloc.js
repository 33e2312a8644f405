#!/usr/bin/env node
// The tsalloc doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsalloc.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsalloc.js';

await run('tsalloc');
