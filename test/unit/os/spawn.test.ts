// The house rules of src/os/spawn.ts, with real processes: a program that cannot be started is
// an outcome (never a throw or an unhandled 'error'), exits and signals are told apart, a child
// that never reads its input does not fail us with EPIPE, and a timeout ends a hung program.
import { describe, expect, it } from 'vitest';
import { runToEnd, runToEndSync, startChild } from '../../../src/os/spawn.js';

describe('os/spawn', () => {
  it('reports a program that cannot be started as exec-failed', async () => {
    const { ended, closed } = startChild(['/nonexistent/program']);
    expect(await ended).toMatchObject({ kind: 'exec-failed', errno: 'ENOENT' });
    await closed;
    expect(runToEndSync(['/nonexistent/program'])).toMatchObject({ kind: 'exec-failed', errno: 'ENOENT' });
  });

  it('tells an exit code from a signal', async () => {
    expect(await startChild(['/bin/sh', '-c', 'exit 3']).ended).toEqual({ kind: 'exited', code: 3 });
    expect(await startChild(['/bin/sh', '-c', 'kill -TERM $$']).ended).toEqual({ kind: 'signaled', signal: 'SIGTERM' });
    expect(runToEndSync(['/bin/sh', '-c', 'exit 4'])).toEqual({ kind: 'exited', code: 4 });
  });

  it('survives writing to a child that exited without reading', async () => {
    const { child, ended } = startChild(['/bin/sh', '-c', 'exit 0'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await ended;
    child.stdin!.write('x'.repeat(1 << 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(child.exitCode).toBe(0);
  });

  it('collects stderr and ends a program past its timeout', async () => {
    expect(await runToEnd(['/bin/sh', '-c', 'echo why >&2; exit 2'])).toEqual({ end: { kind: 'exited', code: 2 }, stderr: 'why\n', timedOut: false });
    expect((await runToEnd(['/bin/sh', '-c', 'exit 0'], { timeoutMs: 10_000 })).timedOut).toBe(false);
    const hung = await runToEnd(['/bin/sh', '-c', 'exec sleep 30'], { timeoutMs: 200 });
    expect(hung).toMatchObject({ end: { kind: 'signaled', signal: 'SIGTERM' }, timedOut: true });
  });
});
