#!/usr/bin/env node
// The tsbcast doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tsbcast.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tsbcast.js';

await run('tsbcast');
