#!/usr/bin/env node
// The tscontrol doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tscontrol', () => import('../dist/commands/tscontrol.js'));
