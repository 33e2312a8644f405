// The page's live feed as server-sent events (text/event-stream): `welcome` once with the hour
// so far, then `state` after every poll. The page reads it with fetch() rather than
// EventSource, because EventSource cannot send the X-SLURM-USER-* headers that authenticate it.
import type { FastifyReply } from 'fastify';
import type { DashboardSampler } from './sampler.js';

// A comment line now and then keeps proxies and idle timeouts from closing a quiet stream.
const KEEPALIVE_MS = 15_000;
// A page that stops reading (a suspended phone) is dropped rather than buffered for ever.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Takes over the reply and streams the sampler's polls to it until the page goes away. */
export function streamDashboard(reply: FastifyReply, sampler: DashboardSampler): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  raw.write(frame('welcome', sampler.welcome()));
  const close = (): void => {
    unsubscribe();
    clearInterval(keepalive);
    if (!raw.destroyed) raw.end();
  };
  const unsubscribe = sampler.subscribe((state) => {
    if (raw.writableLength > MAX_BUFFERED_BYTES) return close();
    raw.write(frame('state', state));
  });
  const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS).unref();
  raw.on('close', close);
}
