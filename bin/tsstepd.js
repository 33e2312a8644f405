#!/usr/bin/env node
// The tsstepd doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsstepd', () => import('../dist/commands/tsstepd.js'));
