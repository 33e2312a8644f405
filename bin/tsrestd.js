#!/usr/bin/env node
// The tsrestd doorway: everything lives in dist/, loaded lazily through the one CLI boundary.
import { runCli } from '../dist/cli/run-cli.js';

await runCli('tsrestd', () => import('../dist/commands/tsrestd.js'));
