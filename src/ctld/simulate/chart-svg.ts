// The simulation's chart: utilisation (busy CPUs / CPUs) and queue length over virtual time,
// two stacked panels of step lines, written as plain SVG by hand.
import type { Sample } from './metrics.js';

const WIDTH = 900;
const PANEL = 220;
const LEFT = 70;
const TOP = 40;
const GAP = 60;
const PLOT_W = WIDTH - LEFT - 30;
/** Points per line at most: samples are thinned to one per pixel column. */
const MAX_POINTS = PLOT_W * 2;

export function chartSvg(samples: readonly Sample[], totalCpus: number, title: string): string {
  const thin = thinned(samples);
  const t0 = thin[0]?.time ?? 0;
  const t1 = Math.max(thin.at(-1)?.time ?? 0, t0 + 1);
  const maxQueue = Math.max(1, ...thin.map((s) => s.queued));
  const x = (t: number) => LEFT + ((t - t0) / (t1 - t0)) * PLOT_W;
  const height = TOP + 2 * PANEL + GAP + 40;
  const util = stepPath(thin, x, (s) => TOP + PANEL - (totalCpus > 0 ? s.busyCpus / totalCpus : 0) * PANEL);
  const queueTop = TOP + PANEL + GAP;
  const queue = stepPath(thin, x, (s) => queueTop + PANEL - (s.queued / maxQueue) * PANEL);
  const hours = (t1 - t0) / 3600;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${LEFT}" y="22" font-size="14">${escapeXml(title)}</text>`,
    panel(TOP, 'utilisation', '100 %', '0 %'),
    `<path d="${util}" fill="none" stroke="#1f77b4" stroke-width="1.2"/>`,
    panel(queueTop, 'queued jobs', String(maxQueue), '0'),
    `<path d="${queue}" fill="none" stroke="#d62728" stroke-width="1.2"/>`,
    `<text x="${LEFT}" y="${height - 12}">0 h</text>`,
    `<text x="${LEFT + PLOT_W}" y="${height - 12}" text-anchor="end">${hours.toFixed(1)} h (virtual time)</text>`,
    `</svg>`,
    '',
  ].join('\n');
}

function panel(top: number, label: string, max: string, min: string): string {
  return [
    `<g>`,
    `<rect x="${LEFT}" y="${top}" width="${PLOT_W}" height="${PANEL}" fill="none" stroke="#999"/>`,
    `<text x="${LEFT - 6}" y="${top + 10}" text-anchor="end">${escapeXml(max)}</text>`,
    `<text x="${LEFT - 6}" y="${top + PANEL}" text-anchor="end">${escapeXml(min)}</text>`,
    `<text x="${LEFT + 6}" y="${top + 16}" fill="#444">${escapeXml(label)}</text>`,
    `</g>`,
  ].join('\n');
}

// A step line: each value holds until the next sample.
function stepPath(samples: readonly Sample[], x: (t: number) => number, y: (s: Sample) => number): string {
  if (samples.length === 0) return '';
  const parts = [`M${x(samples[0]!.time).toFixed(1)},${y(samples[0]!).toFixed(1)}`];
  for (let k = 1; k < samples.length; k++) {
    parts.push(`H${x(samples[k]!.time).toFixed(1)}`, `V${y(samples[k]!).toFixed(1)}`);
  }
  return parts.join('');
}

// At most MAX_POINTS samples: the last of each time bucket (what the state was then).
function thinned(samples: readonly Sample[]): Sample[] {
  if (samples.length <= MAX_POINTS) return [...samples];
  const t0 = samples[0]!.time;
  const span = Math.max(samples.at(-1)!.time - t0, 1);
  const out: Sample[] = [];
  let bucket = -1;
  for (const s of samples) {
    const b = Math.floor(((s.time - t0) / span) * (MAX_POINTS - 1));
    if (b === bucket) out[out.length - 1] = s;
    else out.push(s);
    bucket = b;
  }
  return out;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}
