// The log of recent job ends, newest first.
import { clock, esc } from './format.js';

const SHOWN = 100;

export function endRows(ends) {
  return ends
    .slice(0, SHOWN)
    .map(
      (end) =>
        `<li class="end e-${esc(end.state.toLowerCase())}" data-job="${end.jobId}"><time>${clock(end.endTime)}</time> ` +
        `<b>${esc(end.id)}</b> ${esc(end.name)} (${esc(end.user)}) <span class="state">${esc(end.state)}</span> ` +
        `exit ${esc(end.exitCode)}${end.nodes ? ` on ${esc(end.nodes)}` : ''}</li>`,
    )
    .join('');
}
