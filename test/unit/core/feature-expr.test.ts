import { describe, expect, it } from 'vitest';
import {
  checkFeaturesKnown,
  featureOptions,
  formatFeatureExpr,
  nodeMatches,
  parseFeatureExpr,
} from '../../../src/core/feature-expr.js';
import { UserError } from '../../../src/core/errors.js';

const has = (...names: string[]) => new Set(names);
const matches = (expr: string, ...features: string[]) => nodeMatches(parseFeatureExpr(expr), has(...features));

function invalid(expr: string): UserError {
  try {
    parseFeatureExpr(expr);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error(`${expr} parsed`);
}

describe('parseFeatureExpr / nodeMatches', () => {
  it('tests single features, AND (& and ,), OR', () => {
    expect(matches('avx2', 'avx2', 'ib')).toBe(true);
    expect(matches('avx2', 'ib')).toBe(false);
    expect(matches('avx2&ib', 'avx2', 'ib')).toBe(true);
    expect(matches('avx2&ib', 'avx2')).toBe(false);
    expect(matches('avx2,ib', 'avx2')).toBe(false);
    expect(matches('avx2,ib', 'ib', 'avx2')).toBe(true);
    expect(matches('a|b', 'b')).toBe(true);
    expect(matches('a|b', 'c')).toBe(false);
  });

  it('folds left to right with equal precedence, as Slurm does', () => {
    // (a|b)&c, not a|(b&c)
    expect(matches('a|b&c', 'a')).toBe(false);
    expect(matches('a|b&c', 'a', 'c')).toBe(true);
    expect(matches('a&(b|c)', 'a', 'c')).toBe(true);
    expect(matches('(a|b)&c', 'b', 'c')).toBe(true);
  });

  it('allows names with dots, dashes, digits', () => {
    expect(matches('rack-01.x', 'rack-01.x')).toBe(true);
  });

  it.each(['', '&a', 'a&', 'a&&b', 'a||b', '(a', 'a)', '()', '[a', 'a]', '[[a]]', '[a|b]]', 'a*', 'a*0', 'a*x',
    '[a&b]', '[a*2|b*2]', '[a,b]', 'a*2|b', '(a|b)*2', 'a b', '([a|b])'])('refuses %j', (expr) => {
    const error = invalid(expr);
    expect(error.message).toBe('Invalid feature specification');
    expect(error.code).toBe('ESLURM_INVALID_FEATURE');
  });

  it('round-trips through formatFeatureExpr', () => {
    for (const text of ['a', 'a&b|c', '(a|b)&c', '[a|b|c]', '[a*2&b*4]', 'a*4&b', '[(a|b)*1&c*2]']) {
      expect(formatFeatureExpr(parseFeatureExpr(text))).toBe(text);
    }
    expect(formatFeatureExpr(parseFeatureExpr('a,b'))).toBe('a&b');
  });
});

describe('featureOptions', () => {
  it('plain expressions: one option, no counts', () => {
    const [option, ...rest] = featureOptions(parseFeatureExpr('a&b'));
    expect(rest).toHaveLength(0);
    expect(option!.counts).toHaveLength(0);
    expect(option!.filter(has('a', 'b'))).toBe(true);
    expect(option!.filter(has('a'))).toBe(false);
  });

  it('matching OR: one option per alternative, in order, combined with the other terms', () => {
    const options = featureOptions(parseFeatureExpr('[r1|r2]&ib'));
    expect(options).toHaveLength(2);
    expect(options[0]!.filter(has('r1', 'ib'))).toBe(true);
    expect(options[0]!.filter(has('r2', 'ib'))).toBe(false);
    expect(options[1]!.filter(has('r2', 'ib'))).toBe(true);
    expect(options[1]!.filter(has('r2'))).toBe(false);
  });

  it('multiple counts: every node has one of the features, counts reported', () => {
    const [option] = featureOptions(parseFeatureExpr('[a*2&b*4]'));
    expect(option!.counts.map((c) => [c.text, c.count])).toEqual([['a*2', 2], ['b*4', 4]]);
    expect(option!.filter(has('b'))).toBe(true);
    expect(option!.filter(has('c'))).toBe(false);
    expect(option!.counts[1]!.test(has('b'))).toBe(true);
  });

  it('an unbracketed count constrains only that many nodes', () => {
    const [option] = featureOptions(parseFeatureExpr('gpu*2&ib'));
    expect(option!.counts.map((c) => [c.text, c.count])).toEqual([['gpu*2', 2]]);
    expect(option!.filter(has('ib'))).toBe(true);
    expect(option!.filter(has('gpu'))).toBe(false);
  });
});

describe('checkFeaturesKnown', () => {
  it('refuses a feature no node has, with Slurm text', () => {
    expect(() => checkFeaturesKnown(parseFeatureExpr('a|foo'), new Set(['a']))).toThrow('Invalid feature specification');
    expect(() => checkFeaturesKnown(parseFeatureExpr('[a*1&b*2]'), new Set(['a', 'b']))).not.toThrow();
  });
});
