// A tsrestd for a test, on a test controller's state directory: started as a user starts it,
// its start lines read for where it listens, and requests sent over its Unix socket or TCP.
import http from 'node:http';
import path from 'node:path';
import { repoRoot } from './run-bin.js';
import { execa, type ResultPromise } from 'execa';

export interface RestAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Over TCP instead of the Unix socket. */
  tcp?: boolean;
}

export interface TestRestd {
  socketPath: string;
  /** `http://host:port` of the TCP listener. */
  url: string;
  process: ResultPromise;
  request(path: string, options?: RequestOptions): Promise<RestAnswer>;
  stop(): Promise<void>;
}

/** Starts tsrestd (with one TCP listener on a free port) and waits for its start lines. */
export async function startRestd(ctl: { env: Record<string, string | undefined>; workDir: string }, extraArgs: readonly string[] = [], env: Record<string, string> = {}): Promise<TestRestd> {
  const child = execa(process.execPath, [path.join(repoRoot, 'bin', 'tsrestd.js'), '--listen', '127.0.0.1:0', ...extraArgs], {
    reject: false,
    cwd: ctl.workDir,
    stdin: 'ignore',
    env: { NO_COLOR: '1', TSLURM_CONF: undefined, SLURM_CONF: undefined, ...ctl.env, ...env },
  });
  const lines = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (/http:\/\/\S+/.test(out)) resolve(out);
    });
    void child.then((result) => reject(new Error(`tsrestd ended: ${String(result.stderr)}${out}`)));
  });
  const socketPath = /listening on unix:(\S+)/.exec(lines)![1]!;
  const url = /listening on (http:\/\/[^/\s]+)/.exec(lines)![1]!;
  return {
    socketPath,
    url,
    process: child,
    request: (target, options = {}) => send(options.tcp ? { url: `${url}${target}` } : { socketPath, url: `http://localhost${target}` }, options),
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

function send(where: { url: string; socketPath?: string }, options: RequestOptions): Promise<RestAnswer> {
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      where.url,
      {
        method: options.method ?? 'GET',
        ...(where.socketPath && { socketPath: where.socketPath }),
        headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...options.headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
