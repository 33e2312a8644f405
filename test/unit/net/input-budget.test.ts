// The unauthenticated budget cuts the connection holding the most once the total passes it,
// and the knobs are read from the environment with a clear refusal of a bad value.
import { describe, expect, it } from 'vitest';
import { InputBudget, type BudgetHolder } from '../../../src/net/input-budget.js';
import { inputLimits } from '../../../src/net/input-limits.js';

describe('InputBudget', () => {
  it('cuts the largest holders until the total fits again', () => {
    const budget = new InputBudget(100);
    const cut: string[] = [];
    const holder = (name: string): BudgetHolder => {
      const h: BudgetHolder = { cut: () => (cut.push(name), budget.release(h)) };
      return h;
    };
    const [a, b, c] = [holder('a'), holder('b'), holder('c')];
    budget.add(a, 30);
    budget.add(b, 50);
    budget.add(c, 20);
    expect([budget.held, cut]).toEqual([100, []]);
    budget.add(c, 15); // 115: b holds the most
    expect([budget.held, cut]).toEqual([65, ['b']]);
    budget.add(a, -30);
    budget.release(c);
    expect(budget.held).toBe(0);
  });

  it('does not loop on a holder that keeps its bytes', () => {
    const budget = new InputBudget(10);
    const stubborn: BudgetHolder = { cut: () => {} };
    budget.add(stubborn, 50);
    expect(budget.held).toBe(0);
  });
});

describe('inputLimits', () => {
  it('has the documented defaults', () => {
    expect(inputLimits({})).toEqual({
      maxMessageBytes: 256 * 2 ** 20,
      maxFirstMessageBytes: 16 * 2 ** 20,
      unauthBufferBytes: 32 * 2 ** 20,
      maxConnections: 4096,
      maxUnauthConnections: 128,
      unauthTimeoutMs: 10_000,
    });
  });

  it('reads sizes with K/M/G suffixes, keeps lines under V8\'s longest string, and refuses nonsense by name', () => {
    const limits = inputLimits({ TSLURM_MAX_UNAUTH_MESSAGE_SIZE: '64K', TSLURM_MAX_MESSAGE_SIZE: '4G', TSLURM_UNAUTH_TIMEOUT: '0.5' });
    expect(limits.maxFirstMessageBytes).toBe(65536);
    expect(limits.maxMessageBytes).toBeLessThan(2 ** 29);
    expect(limits.unauthTimeoutMs).toBe(500);
    expect(() => inputLimits({ TSLURM_MAX_UNAUTH_CONNECTIONS: 'lots' })).toThrow('TSLURM_MAX_UNAUTH_CONNECTIONS=lots: expected a whole number above 0');
    expect(() => inputLimits({ TSLURM_UNAUTH_BUFFER_SIZE: '-1' })).toThrow('TSLURM_UNAUTH_BUFFER_SIZE=-1: expected a size in bytes (K, M, G suffixes allowed)');
  });
});
