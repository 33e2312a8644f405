import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import {
  envArrayAppend,
  envArrayCopy,
  envArrayCreate,
  envArrayFromObject,
  envArrayMerge,
  envArrayOverwrite,
  envArrayToObject,
  getenvp,
  unsetenvp,
} from '../../../src/core/env-array.js';

describe('envArrayOverwrite', () => {
  it('adds a new name at the end and replaces an existing one in place', () => {
    const env = envArrayCreate();
    expect(envArrayOverwrite(env, 'A', '1')).toBe(1);
    expect(envArrayOverwrite(env, 'B', '2')).toBe(1);
    expect(envArrayOverwrite(env, 'A', '3')).toBe(1);
    expect(env).toEqual(['A=3', 'B=2']);
  });

  it('keeps values with = and empty values as they are', () => {
    const env: string[] = [];
    envArrayOverwrite(env, 'OPTS', 'a=b=c');
    envArrayOverwrite(env, 'EMPTY', '');
    expect(env).toEqual(['OPTS=a=b=c', 'EMPTY=']);
    expect(getenvp(env, 'OPTS')).toBe('a=b=c');
    expect(getenvp(env, 'EMPTY')).toBe('');
  });

  it('rejects a name that is empty or contains =', () => {
    expect(() => envArrayOverwrite([], 'A=B', 'x')).toThrow(UserError);
    expect(() => envArrayOverwrite([], '', 'x')).toThrowErrorMatchingInlineSnapshot(
      `[UserError: invalid environment variable name ""]`,
    );
  });
});

describe('envArrayAppend', () => {
  it('adds only when the name is absent, returning 1/0 like env_array_append', () => {
    const env = ['SLURM_JOB_NAME=mine'];
    expect(envArrayAppend(env, 'SLURM_JOB_NAME', 'default')).toBe(0);
    expect(envArrayAppend(env, 'SLURM_NTASKS', '4')).toBe(1);
    expect(env).toEqual(['SLURM_JOB_NAME=mine', 'SLURM_NTASKS=4']);
  });

  it('rejects a name containing =', () => {
    expect(() => envArrayAppend([], 'A=B', 'x')).toThrow('invalid environment variable name "A=B"');
  });
});

describe('getenvp', () => {
  const env = ['PATHX=/x', 'PATH=/bin', 'P=1', 'NOEQUALS', 'PATH=/second'];

  it('matches the name exactly up to the =', () => {
    expect(getenvp(env, 'PATH')).toBe('/bin');
    expect(getenvp(env, 'PATHX')).toBe('/x');
    expect(getenvp(env, 'P')).toBe('1');
    expect(getenvp(env, 'PAT')).toBeNull();
  });

  it('never matches an entry without =, an empty name or a name with =', () => {
    expect(getenvp(env, 'NOEQUALS')).toBeNull();
    expect(getenvp(['=x'], '')).toBeNull();
    expect(getenvp(['A=B=C'], 'A=B')).toBeNull();
    expect(getenvp([], 'PATH')).toBeNull();
  });
});

describe('unsetenvp', () => {
  it('removes every entry of the name and nothing else', () => {
    const env = ['A=1', 'AB=2', 'A=3', 'A=4', 'B=5'];
    unsetenvp(env, 'A');
    expect(env).toEqual(['AB=2', 'B=5']);
  });

  it('does nothing for an absent name', () => {
    const env = ['A=1'];
    unsetenvp(env, 'B');
    expect(env).toEqual(['A=1']);
  });
});

describe('envArrayMerge / envArrayCopy', () => {
  it('overwrites dest with src, splitting at the first =', () => {
    const dest = ['A=1', 'B=2'];
    envArrayMerge(dest, ['B=x=y', 'C=3']);
    expect(dest).toEqual(['A=1', 'B=x=y', 'C=3']);
  });

  it('skips entries with no = or no name, as Slurm does', () => {
    const dest: string[] = [];
    envArrayMerge(dest, ['JUNK', '=value', 'OK=1']);
    expect(dest).toEqual(['OK=1']);
  });

  it('copies into a new array, collapsing duplicates to the last value', () => {
    const src = ['A=1', 'B=2', 'A=3'];
    const copy = envArrayCopy(src);
    expect(copy).toEqual(['A=3', 'B=2']);
    copy.push('C=4');
    expect(src).toEqual(['A=1', 'B=2', 'A=3']);
  });
});

describe('objects for spawning', () => {
  it('builds an array from process.env-like objects, leaving undefined out', () => {
    expect(envArrayFromObject({ HOME: '/root', UNSET: undefined, EMPTY: '' })).toEqual(['HOME=/root', 'EMPTY=']);
  });

  it('builds an object where the first entry of a name wins, as getenv() sees it', () => {
    const vars = envArrayToObject(['A=1', 'B=x=y', 'A=2', 'JUNK', '=z']);
    expect({ ...vars }).toEqual({ A: '1', B: 'x=y' });
  });

  it('keeps __proto__ as an ordinary variable', () => {
    const vars = envArrayToObject(['__proto__=polluted', 'X=1']);
    expect(Object.keys(vars)).toEqual(['__proto__', 'X']);
    expect(vars['__proto__']).toBe('polluted');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('round-trips an object', () => {
    const original = { PATH: '/usr/bin:/bin', SLURM_JOB_ID: '7', EQ: 'a=b' };
    expect({ ...envArrayToObject(envArrayFromObject(original)) }).toEqual(original);
  });
});
