// A vitest setup file: each test file's commands get a private $XDG_STATE_HOME. A command run
// without TSLURM_STATE_DIR (an execa call that does not go through runBin or testController)
// would otherwise use the account's ~/.local/state/tslurm/<cluster>, which every other test
// file, test run and user of the account shares, and leave a controller there for its default
// 300 s, which the next run's commands then talk to. A test about the default sets its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.XDG_STATE_HOME = mkdtempSync(path.join(tmpdir(), 'tslurm-xdg-'));
