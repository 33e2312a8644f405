#!/usr/bin/env node
// The tsinfo doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsinfo', () => import('../dist/commands/tsinfo.js'));
