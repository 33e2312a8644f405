// tsrun's output files: a write that fails (a full disk) is reported once, as srun reports it,
// also when it fails as the step ends, in the writes close() waits for; tsrun exits right
// after close(), so a report that came later (after the stream's fd was closed) was lost.
import { describe, expect, it } from 'vitest';
import { IoRouting } from '../../../../src/commands/tsrun/io-routing.js';
import { createStepLayout } from '../../../../src/core/step-layout.js';
import type { StepFacts } from '../../../../src/stepd/launch-spec.js';

function routing(output: string, reported: string[]): IoRouting {
  const facts = { ntasks: 2, jobId: 1, stepId: 0, jobName: 'io' } as StepFacts;
  const layout = createStepLayout({ nodes: ['n1'], cpus: [2], ntasks: 2 });
  return new IoRouting(facts, layout, '/', { output, onWriteError: (message) => reported.push(message) });
}

describe('tsrun output files that cannot be written', () => {
  it('a write still in flight when the step ends is reported before close() resolves, once', async () => {
    const reported: string[] = [];
    const io = routing('/dev/full', reported);
    io.openFiles();
    io.destination('out', 0)!.write('hi\n');
    io.destination('err', 1)!.write('there\n');
    await io.close();
    expect(reported).toEqual(['/dev/full: ENOSPC: no space left on device, write']);
  });

  it('a failed write whose stream is being torn down when close() is called: its own error', async () => {
    const reported: string[] = [];
    const io = routing('/dev/full', reported);
    io.openFiles();
    const out = io.destination('out', 0)!;
    out.write('hi\n');
    // Destroyed by the failed write, its 'error' still to come (after its fd has closed).
    while (!out.destroyed) await new Promise((resolve) => setImmediate(resolve));
    await io.close();
    expect(reported).toEqual(['/dev/full: ENOSPC: no space left on device, write']);
  });

  it('a write that failed earlier is reported once, not again at close()', async () => {
    const reported: string[] = [];
    const io = routing('/dev/full', reported);
    io.openFiles();
    const out = io.destination('out', 0)!;
    out.write('hi\n');
    await new Promise((resolve) => out.once('close', resolve));
    expect(reported).toHaveLength(1);
    await io.close();
    expect(reported).toEqual(['/dev/full: ENOSPC: no space left on device, write']);
  });
});
