// The dashboard page: follows the server's feed and redraws once per poll (one animation frame
// however many events arrived), and sends Cancel / Hold / Release through the REST API.
import { AuthError, cancelJob, credentials, followEvents, forgetCredentials, holdJob, releaseJob, saveCredentials, signInFromFragment } from './api.js';
import { LoadChart } from './chart.js';
import { endRows } from './ends.js';
import { NodeGrid } from './grid.js';
import { pendingRow, runningRow } from './queue.js';
import { RowWindow } from './rows.js';

const $ = (id) => document.getElementById(id);
const grid = new NodeGrid($('nodes'), $('node-legend'));
const chart = new LoadChart($('chart'), $('chart-legend'), $('chart-axis'));
// The running rows' elapsed times are measured against the server's clock of the last poll.
let nowSeconds = 0;
const byJob = (job) => job.jobId;
const runningTable = new RowWindow($('running'), {
  rowHtml: (job) => runningRow(job, nowSeconds),
  keyOf: byJob,
  emptyHtml: '<tr class="empty"><td colspan="9">no running jobs</td></tr>',
});
const pendingTable = new RowWindow($('pending'), {
  rowHtml: pendingRow,
  keyOf: byJob,
  emptyHtml: '<tr class="empty"><td colspan="8">no pending jobs</td></tr>',
});
let ends = [];
let latest = null;
let frame = 0;
let drawn = false;

function draw() {
  frame = 0;
  const state = latest;
  if (!state) return;
  const started = performance.now();
  nowSeconds = Math.floor(state.now / 1000);
  grid.render(state.nodes);
  const running = state.jobs.filter((job) => job.state !== 'PENDING');
  const pending = state.jobs.filter((job) => job.state === 'PENDING');
  runningTable.set(running);
  pendingTable.set(pending);
  $('running-count').textContent = String(running.length);
  $('pending-count').textContent = String(pending.length);
  $('node-count').textContent = String(state.nodes.length);
  $('ends').innerHTML = ends.length > 0 ? endRows(ends) : '<li class="empty">no job end seen yet</li>';
  chart.draw(state.now);
  $('controller-error').hidden = state.error === null;
  $('controller-error').textContent = state.error ? `The controller could not be read: ${state.error}` : '';
  // One entry per redraw: bench/dashboard.js reads how long an update of its size takes.
  if (performance.getEntriesByName('dashboard-draw').length >= 100) performance.clearMeasures('dashboard-draw');
  performance.measure('dashboard-draw', { start: started });
  if (!drawn && state.nodes.length > 0) {
    drawn = true;
    // What bench/dashboard.js measures: navigation to the first full picture.
    performance.mark('dashboard-drawn');
  }
}

// A scroll draws the rows that came on screen (long tables draw only those), once per frame.
let scrollFrame = 0;
function onScroll() {
  if (scrollFrame !== 0) return;
  scrollFrame = requestAnimationFrame(() => {
    scrollFrame = 0;
    runningTable.scrolled();
    pendingTable.scrolled();
  });
}
window.addEventListener('scroll', onScroll, { passive: true });
window.addEventListener('resize', onScroll);

function show(state) {
  latest = state;
  if (frame === 0) frame = requestAnimationFrame(draw);
}

function onEvent(name, data) {
  if (name === 'welcome') {
    chart.reset(data.history, data.intervalMs);
    ends = data.ends.slice();
    if (data.state) show(data.state);
  } else if (name === 'state') {
    chart.add(data.sample);
    ends = [...data.ends, ...ends].slice(0, 200);
    show(data);
  }
}

function onStatus(text, kind) {
  const status = $('status');
  status.textContent = kind === 'live' ? 'live' : text;
  status.dataset.kind = kind;
  $('signin').hidden = kind !== 'auth';
}

let stop = () => {};

/** Signs in from the address's fragment (if it carries credentials) and follows the feed anew. */
function start() {
  signInFromFragment().then(
    () => {
      stop();
      if (!credentials()) $('status').textContent = 'connecting (no token given)';
      stop = followEvents(onEvent, onStatus);
    },
    (error) => onStatus(`the login in this address did not work (${error.message}); sign in with a token`, 'auth'),
  );
}

start();
// A new link pasted into this tab changes the fragment only: no reload, so sign in from it here.
window.addEventListener('hashchange', () => {
  if (location.hash.length > 1) start();
});

$('signin').addEventListener('submit', (event) => {
  event.preventDefault();
  saveCredentials($('signin-user').value.trim(), $('signin-token').value.trim());
  stop();
  stop = followEvents(onEvent, onStatus);
});

$('signout').addEventListener('click', () => {
  forgetCredentials();
  stop();
  onStatus('signed out', 'auth');
});

const ACTIONS = {
  cancel: { run: cancelJob, done: 'cancelled', ask: true },
  hold: { run: holdJob, done: 'held' },
  release: { run: releaseJob, done: 'released' },
};

async function onAction(event) {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const action = ACTIONS[button.dataset.action];
  const jobId = button.dataset.job;
  if (action.ask && !confirm(`Cancel job ${jobId}?`)) return;
  button.disabled = true;
  const notice = $('notice');
  try {
    await action.run(jobId);
    notice.textContent = `Job ${jobId} ${action.done}.`;
  } catch (error) {
    notice.textContent = `Job ${jobId}: ${error.message}`;
    if (error instanceof AuthError) onStatus(error.message, 'auth');
    button.disabled = false;
  }
}

$('running').addEventListener('click', onAction);
$('pending').addEventListener('click', onAction);
