// PurgeJobAfter's forms (slurmdbd.conf(5)): a number of months, or hours/days/months spelt out.
import { describe, expect, it } from 'vitest';
import { purgeAfter, purgeAfterText, purgeCutoff } from '../../../src/config/purge-after.js';

describe('purge_after / PurgeJobAfter', () => {
  it('reads months by default, and hours or days when named', () => {
    expect(purgeAfter(12)).toEqual({ amount: 12, unit: 'months' });
    expect(purgeAfter('48hours')).toEqual({ amount: 48, unit: 'hours' });
    expect(purgeAfter('1hour')).toEqual({ amount: 1, unit: 'hours' });
    expect(purgeAfter('30 days')).toEqual({ amount: 30, unit: 'days' });
    expect(purgeAfter('6MONTHS')).toEqual({ amount: 6, unit: 'months' });
    expect(purgeAfterText(purgeAfter('30days'))).toBe('30days');
  });

  it('refuses anything else', () => {
    for (const bad of ['0', '-1', '3weeks', 'soon', '1.5days']) expect(() => purgeAfter(bad)).toThrow(/expected a number of months/);
  });

  it('counts hours and days in seconds and months on the calendar', () => {
    const now = Date.UTC(2027, 2, 31, 12) / 1000;
    expect(purgeCutoff({ amount: 2, unit: 'hours' }, now)).toBe(now - 7200);
    expect(purgeCutoff({ amount: 3, unit: 'days' }, now)).toBe(now - 3 * 86400);
    const monthAgo = new Date(now * 1000);
    monthAgo.setMonth(monthAgo.getMonth() - 1);
    expect(purgeCutoff({ amount: 1, unit: 'months' }, now)).toBe(monthAgo.getTime() / 1000);
  });
});
