import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportError } from '../../../src/cli/run-cli.js';
import { countVerbose, wantsStack } from '../../../src/cli/debug.js';
import { PluginError, UserError, UserErrorList, UserErrorReport } from '../../../src/core/errors.js';

function captureStderr(): { text: () => string } {
  let text = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  return { text: () => text };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the CLI boundary', () => {
  it('prints a user error as one line and returns its exit status', () => {
    const err = captureStderr();
    expect(reportError('tsrun', new UserError('Invalid --time specification', { exitCode: 255 }))).toBe(255);
    expect(err.text()).toBe('tsrun: error: Invalid --time specification\n');
  });

  it("prints a report's error() lines with the command's prefix and its plain lines as they are", () => {
    const err = captureStderr();
    const report = new UserErrorReport([{ error: 'Invalid input: State=X' }, { plain: '' }, { plain: 'slurm_update error: No error' }]);
    expect(reportError('scontrol', report)).toBe(1);
    expect(err.text()).toBe('scontrol: error: Invalid input: State=X\n\nslurm_update error: No error\n');
  });

  it('prints every problem of a list on its own line', () => {
    const err = captureStderr();
    expect(reportError('tsctld', new UserErrorList(['a.yaml:1:1: one', 'a.yaml:2:3: two']))).toBe(1);
    expect(err.text()).toBe('tsctld: error: a.yaml:1:1: one\ntsctld: error: a.yaml:2:3: two\n');
  });

  it('names the plugin and hook of a plugin error', () => {
    const err = captureStderr();
    reportError('tsrun', new PluginError('mpi/x', 'crashed: boom', { hook: 'p_mpi_hook_client_fini' }));
    expect(err.text()).toBe('tsrun: error: mpi/x: p_mpi_hook_client_fini: crashed: boom\n');
  });

  it('shows an internal error with a hint, and its stack only when asked', () => {
    vi.stubEnv('TSLURM_DEBUG', '');
    const quiet = captureStderr();
    expect(reportError('tsrun', new TypeError('x is undefined'), [])).toBe(1);
    expect(quiet.text()).toBe('tsrun: internal error: x is undefined\ntsrun: rerun with TSLURM_DEBUG=1 for the stack trace\n');
    vi.restoreAllMocks();
    const loud = captureStderr();
    reportError('tsrun', new TypeError('x is undefined'), ['-vvv']);
    expect(loud.text()).toMatch(/^tsrun: internal error: x is undefined\nTypeError: x is undefined\n\s+at /);
  });
});

describe('verbosity', () => {
  it('counts -v forms before the user command only', () => {
    expect(countVerbose(['-v', '-vv', '--verbose', '-n2'])).toBe(4);
    expect(countVerbose(['-n2', 'prog', '-vvv'])).toBe(0);
    expect(countVerbose(['--', '-vvv'])).toBe(0);
  });

  it('wants a stack for -vvv or TSLURM_DEBUG', () => {
    expect(wantsStack(['-vvv'], {})).toBe(true);
    expect(wantsStack(['-vv'], {})).toBe(false);
    expect(wantsStack([], { TSLURM_DEBUG: '1' })).toBe(true);
    expect(wantsStack([], { TSLURM_DEBUG: '0' })).toBe(false);
  });
});
