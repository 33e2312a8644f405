#!/usr/bin/env node
// The tsctld doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsctld', () => import('../dist/commands/tsctld.js'));
