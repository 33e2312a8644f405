#!/usr/bin/env node
// The tsrun doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsrun', () => import('../dist/commands/tsrun.js'));
