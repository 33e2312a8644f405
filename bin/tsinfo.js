#!/usr/bin/env node
// The tsinfo doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsinfo.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsinfo.js';

await run('tsinfo');
