// The last hour of load as an SVG chart drawn here from the server's samples: CPUs in use and
// memory in use (per cent of the cluster) and the number of pending jobs (scaled to the hour's
// highest, written in the legend). The three lines differ in dash as well as colour.
import { percent } from './format.js';

const SPAN_MS = 60 * 60 * 1000;
// Until an hour has been sampled the chart spans what there is (at least a minute), so a
// freshly started tsrestd shows its first minutes across the width rather than as a sliver.
const MIN_SPAN_MS = 60 * 1000;
const W = 600;
const H = 200;

// Samples further apart than this are not joined: the server polls only while a page watches,
// and the time between is a gap, not a straight line from the last sample to the next.
function path(samples, now, span, value, gapMs) {
  let d = '';
  let previous;
  for (const s of samples) {
    const x = W - ((now - s.t) / span) * W;
    const y = H - Math.max(0, Math.min(1, value(s))) * H;
    const joined = previous !== undefined && s.t - previous.t <= gapMs;
    d += `${joined ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`;
    previous = s;
  }
  return d;
}

export class LoadChart {
  constructor(svg, legend, axis) {
    this.svg = svg;
    this.legend = legend;
    this.axis = axis;
    this.samples = [];
    this.gapMs = Infinity;
  }

  /** The hour so far (on connect), and the server's interval between samples. */
  reset(samples, intervalMs) {
    this.samples = samples.slice();
    this.gapMs = 3 * intervalMs;
  }

  /** One new sample; samples older than an hour fall off. */
  add(sample) {
    this.samples.push(sample);
    const oldest = sample.t - SPAN_MS;
    while (this.samples.length > 0 && this.samples[0].t < oldest) this.samples.shift();
  }

  draw(now) {
    const s = this.samples;
    const span = Math.min(SPAN_MS, Math.max(MIN_SPAN_MS, s.length > 0 ? now - s[0].t : 0));
    const maxPending = s.reduce((max, x) => Math.max(max, x.pending), 1);
    this.svg.querySelector('.cpu').setAttribute('d', path(s, now, span, (x) => (x.cpus > 0 ? x.allocCpus / x.cpus : 0), this.gapMs));
    this.svg.querySelector('.mem').setAttribute('d', path(s, now, span, (x) => (x.memory > 0 ? x.allocMemory / x.memory : 0), this.gapMs));
    this.svg.querySelector('.pending').setAttribute('d', path(s, now, span, (x) => x.pending / maxPending, this.gapMs));
    const minutes = (ms) => `−${+(ms / 60000).toFixed(1)} min`;
    this.axis.innerHTML = `<span>${minutes(span)}</span><span>${minutes(span / 2)}</span><span>now</span>`;
    const last = s[s.length - 1];
    this.legend.innerHTML = last
      ? `<li><span class="key cpu" aria-hidden="true"></span>CPUs in use <b>${percent(last.allocCpus, last.cpus)}%</b></li>` +
        `<li><span class="key mem" aria-hidden="true"></span>memory in use <b>${percent(last.allocMemory, last.memory)}%</b></li>` +
        `<li><span class="key pending" aria-hidden="true"></span>pending jobs <b>${last.pending}</b> (top of chart: ${maxPending})</li>` +
        `<li>running jobs <b>${last.running}</b></li>`
      : '<li>no samples yet</li>';
  }
}
