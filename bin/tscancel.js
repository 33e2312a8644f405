#!/usr/bin/env node
// The tscancel doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tscancel.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tscancel.js';

await run('tscancel');
