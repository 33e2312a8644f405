// The line protocol with the PMIx server helper: requests as the C side parses them, and its
// answers parsed back, binary data as hex.
import { describe, expect, it } from 'vitest';
import {
  fenceDoneRequest,
  fenceFailRequest,
  forkRequest,
  hexOf,
  jobRequest,
  parseHelperLine,
} from '../../../../plugins/lib/pmix/helper-protocol.js';

describe('requests to the helper', () => {
  it('job: namespace, node id, node names and the ranks of each node', () => {
    expect(jobRequest({ nspace: 'slurm.pmix.7.0', nodeid: 1, nodeNames: ['node1', 'node2'], tids: [[0, 2], [1]] })).toBe(
      'job slurm.pmix.7.0 1 node1,node2 0,2;1\n',
    );
  });

  it('fork, fence-done (blobs concatenated in node order) and fence-fail', () => {
    expect(forkRequest(3)).toBe('fork 3\n');
    expect(fenceDoneRequest(2, ['0a0b', '-', 'ff'])).toBe('fence-done 2 0a0bff\n');
    expect(fenceDoneRequest(0, ['-', '-'])).toBe('fence-done 0 -\n');
    expect(fenceFailRequest(4)).toBe('fence-fail 4\n');
  });
});

describe('lines from the helper', () => {
  it('ready and ok', () => {
    expect(parseHelperLine('ready OpenPMIx 4.2.2rc2 (PMIx Standard: 4.2)')).toEqual({
      kind: 'ready',
      version: 'OpenPMIx 4.2.2rc2 (PMIx Standard: 4.2)',
    });
    expect(parseHelperLine('ok job')).toEqual({ kind: 'ok', what: 'job' });
  });

  it("env: NUL-separated KEY=VALUE, values kept whole ('=' and ';' included)", () => {
    const line = `env 1 ${hexOf('PMIX_RANK=1\0PMIX_SERVER_URI4=pmix-server.1;tcp4://127.0.0.1:5\0EMPTY=\0X=a=b')}`;
    expect(parseHelperLine(line)).toEqual({
      kind: 'env',
      rank: 1,
      env: [
        ['PMIX_RANK', '1'],
        ['PMIX_SERVER_URI4', 'pmix-server.1;tcp4://127.0.0.1:5'],
        ['EMPTY', ''],
        ['X', 'a=b'],
      ],
    });
    expect(parseHelperLine('env 0 -')).toEqual({ kind: 'env', rank: 0, env: [] });
  });

  it('fence, connected, finalized, abort and error', () => {
    expect(parseHelperLine('fence 3 00ff')).toEqual({ kind: 'fence', seq: 3, hex: '00ff' });
    expect(parseHelperLine('fence 4 -')).toEqual({ kind: 'fence', seq: 4, hex: '-' });
    expect(parseHelperLine('connected 2')).toEqual({ kind: 'connected', rank: 2 });
    expect(parseHelperLine('finalized 2')).toEqual({ kind: 'finalized', rank: 2 });
    expect(parseHelperLine(`abort 1 3 ${hexOf('MPI_Abort 3')}`)).toEqual({ kind: 'abort', rank: 1, status: 3, message: 'MPI_Abort 3' });
    expect(parseHelperLine('abort 0 -1 -')).toEqual({ kind: 'abort', rank: 0, status: -1, message: '' });
    expect(parseHelperLine('error fork 9: PMIX_ERR_BAD_PARAM')).toEqual({ kind: 'error', message: 'fork 9: PMIX_ERR_BAD_PARAM' });
  });

  it('anything else is not understood', () => {
    expect(parseHelperLine('hello there')).toBeUndefined();
    expect(parseHelperLine('')).toBeUndefined();
  });
});
