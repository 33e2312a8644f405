#!/usr/bin/env node
// The tscontrol doorway: the command and the CLI boundary (src/cli/run-cli.ts) are one file,
// dist/main/tscontrol.js, which starts faster than loading them as separate chunks.
import { run } from '../dist/main/tscontrol.js';

await run('tscontrol');
