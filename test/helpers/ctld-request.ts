// One request to a test controller over its Unix socket, as any local process could send it:
// for what no command prints (the controller's records of a job's step usage).
import net from 'node:net';
import path from 'node:path';
import { TSLURM_PROTOCOL_VERSION } from '../../src/core/protocol-version.js';

export function ctldRequest<T>(stateDir: string, op: string, body: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(stateDir, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: TSLURM_PROTOCOL_VERSION, id: 1, op, body })}\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      socket.destroy();
      const reply = JSON.parse(text.slice(0, newline)) as { ok: boolean; body?: T; error?: { message: string } };
      if (reply.ok) resolve(reply.body as T);
      else reject(new Error(reply.error?.message ?? 'refused'));
    });
    socket.on('error', reject);
  });
}
