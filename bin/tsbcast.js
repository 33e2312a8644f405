#!/usr/bin/env node
// The tsbcast doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsbcast', () => import('../dist/commands/tsbcast.js'));
