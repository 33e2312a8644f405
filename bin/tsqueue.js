#!/usr/bin/env node
// The tsqueue doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsqueue', () => import('../dist/commands/tsqueue.js'));
