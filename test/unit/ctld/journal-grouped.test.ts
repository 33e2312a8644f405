// The starts of one scheduling pass share one journal flush: a start record waits for the
// others the pass announced (their launches answer one by one), while any other record is
// flushed at once and takes the waiting starts with it.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Journal } from '../../../src/ctld/state/journal.js';

const progress = (id: number) => ({ t: 'purge' as const, id });
const ids = (file: string): number[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);
const settled = (p: Promise<void>): Promise<boolean> => Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50))]);

describe('Journal: grouped records', () => {
  it('holds a grouped record until the others announced are appended, then flushes them together', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-journal-')), 'journal');
    const journal = new Journal(file, 0);
    const second = journal.expect();
    const third = journal.expect();
    const a = journal.append(progress(1), true);
    expect(await settled(a)).toBe(false);
    expect(ids(file)).toEqual([]);
    const b = journal.append(progress(2), true);
    second();
    expect(await settled(b)).toBe(false);
    // The last announced launch failed: nothing more comes, the two go.
    third();
    await Promise.all([a, b]);
    expect(ids(file)).toEqual([1, 2]);
    journal.close();
  });

  it('flushes any other record at once, with the grouped ones that wait', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-journal-')), 'journal');
    const journal = new Journal(file, 0);
    const pending = journal.expect();
    const start = journal.append(progress(1), true);
    expect(await settled(start)).toBe(false);
    await journal.append(progress(2));
    await start;
    expect(ids(file)).toEqual([1, 2]);
    pending();
    journal.close();
  });
});
