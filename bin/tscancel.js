#!/usr/bin/env node
// The tscancel doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tscancel', () => import('../dist/commands/tscancel.js'));
