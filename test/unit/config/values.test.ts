// The value converters and hints on their own.
import { describe, expect, it } from 'vitest';
import { BadValue } from '../../../src/config/schema-kit.js';
import { pluginType } from '../../../src/config/plugin-names.js';
import { closest } from '../../../src/config/suggest.js';
import { address, gres, oneOf } from '../../../src/config/values.js';

describe('gres', () => {
  it.each([
    ['gpu', { name: 'gpu', count: 1 }],
    ['gpu:2', { name: 'gpu', count: 2 }],
    ['gpu:a100', { name: 'gpu', type: 'a100', count: 1 }],
    ['gpu:a100:2', { name: 'gpu', type: 'a100', count: 2 }],
    ['gpu:0', { name: 'gpu', count: 0 }],
    ['bandwidth:2K', { name: 'bandwidth', count: 2048 }],
  ])('%s', (text, spec) => expect(gres(text)).toEqual(spec));

  it.each(['', 'gpu:', ':2', 'gpu:a100:two', 'gpu:1:2:3', '2gpu', 'gpu:2x'])('rejects %j', (text) => {
    expect(() => gres(text)).toThrow(BadValue);
  });
});

describe('address', () => {
  it.each([
    ['127.0.0.1', { host: '127.0.0.1' }],
    ['127.0.0.1:6818', { host: '127.0.0.1', port: 6818 }],
    ['host-a:1', { host: 'host-a', port: 1 }],
    ['::1', { host: '::1' }],
    ['[::1]:65535', { host: '::1', port: 65535 }],
  ])('%s', (text, parsed) => expect(address(text)).toEqual(parsed));

  it('port range', () => {
    expect(() => address('h:0')).toThrow('port 0 out of range (1-65535)');
    expect(() => address('h:65536')).toThrow('port 65536 out of range (1-65535)');
    expect(() => address('h:http')).toThrow('invalid address "h:http" (expected host or host:port)');
    expect(() => address('')).toThrow(BadValue);
  });
});

describe('pluginType', () => {
  const select = pluginType('select');
  it('accepts both forms', () => {
    expect(select('cons_tres')).toBe('select/cons_tres');
    expect(select('select/linear')).toBe('select/linear');
  });
  it('refuses another major, or a malformed name', () => {
    expect(() => select('mpi/pmi2')).toThrow('"mpi/pmi2" is not a select plugin (expected select/<name> or <name>)');
    expect(() => select('select/')).toThrow('invalid plugin name "select/" (expected select/<name> or <name>)');
    expect(() => select('a b')).toThrow(BadValue);
  });
});

describe('hints', () => {
  it('suggests close words only', () => {
    expect(closest('memroy', ['memory', 'features'])).toBe('memory');
    expect(closest('Cpus', ['cpus'])).toBe('cpus');
    expect(closest('colour', ['nodes', 'cluster'])).toBeUndefined();
  });
  it('oneOf lists the choices and hints', () => {
    expect(() => oneOf('node state', ['IDLE', 'DOWN'] as const)('idel')).toThrow(
      'unknown node state "idel" (expected IDLE or DOWN); did you mean "IDLE"?',
    );
  });
});
