#!/usr/bin/env node
// The tsbatch doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsbatch', () => import('../dist/commands/tsbatch.js'));
