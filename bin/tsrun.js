#!/usr/bin/env node
// The tsrun doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsrun.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsrun.js';

await run('tsrun');
