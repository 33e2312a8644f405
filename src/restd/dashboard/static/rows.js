// A job table's body that draws only the rows near the screen once the list is long: every row
// has the same height (the stylesheet's --row), so the rows above and below are two spacer rows
// of the right height, the page scrolls as if all were there, and a queue of thousands costs a
// screenful of rows. Short lists are drawn whole. A redraw with the same jobs in the same places
// replaces only the rows whose text changed, so a button under the pointer stays put.

/** Rows drawn whole up to this many; past it, only those near the screen. */
export const WINDOW_ABOVE = 150;
/** Each row's height in CSS pixels (the stylesheet sets `tbody tr` to it through --row). */
export const ROW_PX = 38;
// Rows drawn beyond each edge of the screen, so a scroll shows drawn rows before the redraw.
const OVERSCAN = 20;

export class RowWindow {
  /**
   * `rowHtml(item)`: one `<tr>`; `keyOf(item)`: what identifies its row; `emptyHtml`: the body
   * when there is nothing to show.
   */
  constructor(tbody, { rowHtml, keyOf, emptyHtml }) {
    this.tbody = tbody;
    this.rowHtml = rowHtml;
    this.keyOf = keyOf;
    this.emptyHtml = emptyHtml;
    this.items = [];
    this.drawn = { first: 0, last: 0, keys: [], html: [], whole: null };
    tbody.style.setProperty('--row', `${ROW_PX}px`);
  }

  /** A new list (each poll). */
  set(items) {
    this.items = items;
    this.render(true);
  }

  /** After a scroll or a resize: draws other rows if the screen moved past those drawn. */
  scrolled() {
    if (this.items.length <= WINDOW_ABOVE) return;
    const { first, last } = this.range();
    const d = this.drawn;
    const needFirst = Math.max(0, first - OVERSCAN / 2);
    const needLast = Math.min(this.items.length, last + OVERSCAN / 2);
    if (needFirst >= d.first && needLast <= d.last) return;
    this.render(false);
  }

  // The rows on screen now: from where the body starts against the viewport.
  range() {
    const n = this.items.length;
    if (n <= WINDOW_ABOVE) return { first: 0, last: n };
    const top = this.tbody.getBoundingClientRect().top;
    const first = Math.min(n, Math.max(0, Math.floor(-top / ROW_PX)));
    const last = Math.min(n, Math.max(first, Math.ceil((window.innerHeight - top) / ROW_PX)));
    return { first, last };
  }

  render(dataChanged) {
    const n = this.items.length;
    if (n === 0) {
      if (this.drawn.whole !== 'empty') this.tbody.innerHTML = this.emptyHtml;
      this.drawn = { first: 0, last: 0, keys: [], html: [], whole: 'empty' };
      return;
    }
    const { first: onFirst, last: onLast } = this.range();
    const first = n <= WINDOW_ABOVE ? 0 : Math.max(0, onFirst - OVERSCAN);
    const last = n <= WINDOW_ABOVE ? n : Math.min(n, Math.max(onLast, first + 1) + OVERSCAN);
    const keys = [];
    const html = [];
    for (let i = first; i < last; i++) {
      keys.push(this.keyOf(this.items[i]));
      html.push(this.rowHtml(this.items[i]));
    }
    const d = this.drawn;
    const above = first * ROW_PX;
    const below = (n - last) * ROW_PX;
    if (dataChanged && d.whole === 'rows' && d.first === first && sameKeys(d.keys, keys)) {
      // The same jobs in the same places: only the rows whose text changed are replaced.
      const rows = this.tbody.querySelectorAll(':scope > tr[data-job]');
      for (let i = 0; i < html.length; i++) if (html[i] !== d.html[i]) rows[i].outerHTML = html[i];
      this.spacer('above', above);
      this.spacer('below', below);
    } else {
      this.tbody.innerHTML = spacerHtml('above', above) + html.join('') + spacerHtml('below', below);
    }
    this.drawn = { first, last, keys, html, whole: 'rows' };
  }

  spacer(where, px) {
    const row = this.tbody.querySelector(`:scope > tr.spacer-${where}`);
    if (row) row.style.height = `${px}px`;
  }
}

// A spacer row stands for the rows not drawn; it is there (at height 0) even when none are
// missing, so replacing rows in place never has to add or remove one.
const spacerHtml = (where, px) => `<tr class="spacer spacer-${where}" aria-hidden="true" style="height:${px}px"></tr>`;

function sameKeys(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
