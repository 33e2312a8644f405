// The queue's rows: running jobs with a bar of elapsed time against their limit, and pending
// jobs with their reasons, each with its Cancel and Hold/Release buttons. The tables draw them
// through rows.js; the buttons are handled by one listener on each table (main.js).
import { duration, esc } from './format.js';

function actions(job, pending) {
  const hold = pending
    ? job.held
      ? `<button type="button" data-action="release" data-job="${job.jobId}">Release</button>`
      : `<button type="button" data-action="hold" data-job="${job.jobId}">Hold</button>`
    : '';
  return `<td role="cell" class="actions">${hold}<button type="button" data-action="cancel" data-job="${job.jobId}">Cancel</button></td>`;
}

function elapsedCell(job, nowSeconds) {
  const elapsed = Math.max(0, nowSeconds - job.startTime);
  if (job.timeLimit === null) return `<td role="cell" class="elapsed"><span class="time">${duration(elapsed)} / UNLIMITED</span></td>`;
  const limit = job.timeLimit * 60;
  const fill = Math.min(100, Math.round((elapsed / Math.max(1, limit)) * 100));
  const late = fill >= 90 ? ' late' : '';
  return (
    `<td role="cell" class="elapsed"><span class="time">${duration(elapsed)} / ${duration(limit)}</span>` +
    `<span class="bar${late}" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${fill}" style="--fill:${fill}%"></span></td>`
  );
}

// Roles spelled out: CSS lays the rows out as grids, and a table shown so loses its implicit roles.
const cell = (text, cls = '') => `<td role="cell"${cls ? ` class="${cls}"` : ''}>${text}</td>`;
const common = (job) => cell(esc(job.id), 'id') + cell(esc(job.name)) + cell(esc(job.user)) + cell(esc(job.partition));

/** A running (or suspended, completing) job's row. */
export function runningRow(job, nowSeconds) {
  return (
    `<tr role="row" data-job="${job.jobId}" data-state="${esc(job.state)}">${common(job)}${cell(esc(job.state), 'state')}` +
    `${cell(esc(job.nodes ?? ''))}${cell(job.numCpus, 'num')}${elapsedCell(job, nowSeconds)}${actions(job, false)}</tr>`
  );
}

/** A pending job's row, with the reason squeue gives (whole in its title when cut short). */
export function pendingRow(job) {
  const reason = esc(job.reason);
  return (
    `<tr role="row" data-job="${job.jobId}" data-state="${esc(job.state)}">${common(job)}<td role="cell" class="reason" title="${reason}">${reason}</td>` +
    `${cell(job.numNodes, 'num')}${cell(job.numCpus, 'num')}${actions(job, true)}</tr>`
  );
}
