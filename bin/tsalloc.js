#!/usr/bin/env node
// The tsalloc doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsalloc', () => import('../dist/commands/tsalloc.js'));
