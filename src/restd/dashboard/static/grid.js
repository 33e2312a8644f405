// The node grid: one cell per node, coloured by its state, with the state's name written in
// the cell and its title (colour is never the only sign), and bars for CPUs and memory in use.
// A poll that keeps the same nodes changes only the cells that changed.
import { esc, megabytes, percent } from './format.js';

// Large clusters get small cells: the colour and a letter (dashboard.css), the rest in the title.
const COMPACT_ABOVE = 128;
// Past this many changed cells, rebuilding the list is cheaper than replacing them one by one.
const REBUILD_ABOVE = 64;
const LETTER = { idle: 'I', mixed: 'M', allocated: 'A', drained: 'D', down: 'X', other: '?' };

function title(n) {
  const reason = n.reason ? ` — ${n.reason}` : '';
  return `${n.name}: ${n.state}, CPUs ${n.allocCpus}/${n.cpus}, memory ${megabytes(n.allocMemory)}/${megabytes(n.memory)}${reason}`;
}

function cellHtml(n, compact) {
  const cpu = percent(n.allocCpus, n.cpus);
  const mem = percent(n.allocMemory, n.memory);
  // A compact cell's letter is the stylesheet's (part of its background): no text to lay out.
  const body = compact
    ? ''
    : `<span class="name">${esc(n.name)}</span><span class="state">${esc(n.state)}</span>` +
      `<span class="bar cpu" style="--fill:${cpu}%"></span><span class="bar mem" style="--fill:${mem}%"></span>`;
  return `<li class="node s-${n.category}" data-node="${esc(n.name)}" data-state="${esc(n.state)}" title="${esc(title(n))}">${body}</li>`;
}

// A signature of what a cell shows, to skip the ones that did not change.
const look = (n) => `${n.state}|${n.allocCpus}|${n.allocMemory}|${n.reason ?? ''}`;

// The letters of compact cells, drawn once on a canvas as small bitmaps the stylesheet puts in
// each cell's background (--letter-<category>): a bitmap paints a thousand times for little,
// where text in each cell costs layout and an SVG letter costs a text raster per cell.
const INK = { mixed: '#111' };
function letterImages(list) {
  const scale = Math.max(1, Math.ceil(window.devicePixelRatio || 1));
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 16 * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.font = `600 ${10 * scale}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const [category, letter] of Object.entries(LETTER)) {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = INK[category] ?? '#fff';
    ctx.fillText(letter, 8 * scale, 8.5 * scale);
    list.style.setProperty(`--letter-${category}`, `url(${canvas.toDataURL()})`);
  }
}

export class NodeGrid {
  constructor(list, legend) {
    this.list = list;
    this.legend = legend;
    this.names = '';
    this.looks = [];
    this.lettered = false;
  }

  render(nodes) {
    const compact = nodes.length > COMPACT_ABOVE;
    const names = nodes.map((n) => n.name).join(',');
    const looks = nodes.map(look);
    const changed = [];
    if (names === this.names) looks.forEach((l, i) => l !== this.looks[i] && changed.push(i));
    if (names !== this.names || changed.length > REBUILD_ABOVE) {
      // New set of nodes (first poll, reconfigure) or many changes: one innerHTML for the lot.
      this.list.classList.toggle('compact', compact);
      if (compact && !this.lettered) {
        this.lettered = true;
        letterImages(this.list);
      }
      this.list.innerHTML = nodes.map((n) => cellHtml(n, compact)).join('');
      this.names = names;
    } else {
      // A few cells: replace those alone (all in this one task, so the browser lays out once).
      const cells = this.list.children;
      for (const i of changed) cells[i].outerHTML = cellHtml(nodes[i], compact);
    }
    this.looks = looks;
    this.renderLegend(nodes);
  }

  renderLegend(nodes) {
    const counts = { idle: 0, mixed: 0, allocated: 0, drained: 0, down: 0, other: 0 };
    let cpus = 0;
    let alloc = 0;
    for (const n of nodes) {
      counts[n.category] += 1;
      cpus += n.cpus;
      alloc += n.allocCpus;
    }
    const items = Object.entries(counts)
      .filter(([category, count]) => count > 0 || category !== 'other')
      .map(([category, count]) => `<li><span class="swatch s-${category}" aria-hidden="true">${LETTER[category]}</span>${category} <b>${count}</b></li>`);
    items.push(`<li>CPUs in use <b>${alloc}/${cpus}</b> (${percent(alloc, cpus)}%)</li>`);
    this.legend.innerHTML = items.join('');
  }
}
