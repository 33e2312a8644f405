// A record's `written` callback (how the controller answers tsrun's `complete`) comes once the
// record is in the journal file, so that a controller killed after the answer finds it there,
// and the append itself still resolves only after the flush to the disk.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Journal } from '../../../src/ctld/state/journal.js';
import { StateStore } from '../../../src/ctld/state/state-store.js';

const ids = (file: string): number[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);

describe('Journal: written before flushed', () => {
  it('calls `written` with the record in the file, before the append resolves', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-journal-')), 'journal');
    const journal = new Journal(file, 0);
    const order: string[] = [];
    let inFile: number[] = [];
    const synced = journal
      .append({ t: 'purge', id: 7 }, false, () => {
        order.push('written');
        inFile = ids(file);
      })
      .then(() => order.push('synced'));
    await synced;
    expect(order).toEqual(['written', 'synced']);
    expect(inFile).toEqual([7]);
    journal.close();
  });

  it('calls `written` at once where nothing is journaled (a volatile store)', async () => {
    const store = new StateStore(mkdtempSync(path.join(tmpdir(), 'tslurm-state-')), true);
    let written = false;
    await store.append({ t: 'purge', id: 1 }, false, () => (written = true));
    expect(written).toBe(true);
  });
});
