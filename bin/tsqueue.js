#!/usr/bin/env node
// The tsqueue doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsqueue.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsqueue.js';

await run('tsqueue');
