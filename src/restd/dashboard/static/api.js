// How the page talks to tsrestd: the credentials, the live feed and the job actions. The
// credentials come once in the address's fragment (which browsers never send to a server, so it
// stays out of logs and Referer headers), move to sessionStorage (this tab only, gone when it
// closes) and leave the address bar; every request then carries them as slurmrestd's
// X-SLURM-USER-NAME / X-SLURM-USER-TOKEN headers.

const API = '/slurm/v0.0.38';
const KEY = 'tslurm-dashboard-credentials';

/**
 * Takes what the fragment carries into sessionStorage, then clears it from the address bar:
 * `#login=CODE` (tsrestd's printed address) is exchanged once for a token at /dashboard/login;
 * `#user=NAME&token=JWT` (a token from `tscontrol token`) is kept as it is.
 */
export async function signInFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has('login') && !fragment.has('token')) return;
  history.replaceState(null, '', location.pathname + location.search);
  if (fragment.has('token')) return saveCredentials(fragment.get('user') ?? '', fragment.get('token'));
  const response = await fetch('/dashboard/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: fragment.get('login') }),
  });
  if (!response.ok) throw await failure(response);
  const session = await response.json();
  saveCredentials(session.user, session.token);
}

/** The stored credentials, or null. */
export function credentials() {
  const stored = sessionStorage.getItem(KEY);
  return stored ? JSON.parse(stored) : null;
}

export function saveCredentials(user, token) {
  sessionStorage.setItem(KEY, JSON.stringify({ user, token }));
}

export function forgetCredentials() {
  sessionStorage.removeItem(KEY);
}

function headers(extra = {}) {
  const creds = credentials();
  const h = { ...extra };
  if (creds) {
    if (creds.user) h['X-SLURM-USER-NAME'] = creds.user;
    h['X-SLURM-USER-TOKEN'] = creds.token;
  }
  return h;
}

/** An authentication failure: the page asks for credentials again. */
export class AuthError extends Error {}

/** The errors array of a slurmrestd answer as one line, or the HTTP status. */
async function failure(response) {
  let text = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    const errors = (body.errors ?? []).map((e) => e.description || e.error).filter(Boolean);
    if (errors.length > 0) text = errors.join('; ');
  } catch {
    // not JSON: the status says enough
  }
  return response.status === 401 || response.status === 403 ? new AuthError(text) : new Error(text);
}

async function call(method, path, body) {
  const init = { method, headers: headers(body ? { 'content-type': 'application/json' } : {}) };
  if (body) init.body = JSON.stringify(body);
  const response = await fetch(`${API}${path}`, init);
  if (!response.ok) throw await failure(response);
  const answer = await response.json().catch(() => ({}));
  const errors = answer.errors ?? [];
  if (errors.length > 0) throw new Error(errors.map((e) => e.description || e.error).join('; '));
  return answer;
}

/** scancel: DELETE /job/{id}. */
export const cancelJob = (jobId) => call('DELETE', `/job/${jobId}`);
/** scontrol hold / release: POST /job/{id} with slurmrestd's `hold` property. */
export const holdJob = (jobId) => call('POST', `/job/${jobId}`, { hold: true });
export const releaseJob = (jobId) => call('POST', `/job/${jobId}`, { hold: false });

/**
 * Follows /dashboard/events until stopped, reconnecting after a drop. `onEvent(name, data)` gets
 * each event, `onStatus(text, kind)` the connection's state ('live', 'retrying', 'auth').
 */
export function followEvents(onEvent, onStatus) {
  let stopped = false;
  let controller;
  const run = async () => {
    for (let delay = 1000; !stopped; delay = Math.min(delay * 2, 15000)) {
      controller = new AbortController();
      try {
        const response = await fetch('/dashboard/events', { headers: headers(), signal: controller.signal, cache: 'no-store' });
        if (!response.ok) throw await failure(response);
        onStatus('live', 'live');
        delay = 1000;
        await readEvents(response.body, onEvent);
        if (!stopped) onStatus('connection closed; reconnecting', 'retrying');
      } catch (error) {
        if (stopped) return;
        if (error instanceof AuthError) {
          onStatus(error.message, 'auth');
          return;
        }
        onStatus(`${error.message}; reconnecting`, 'retrying');
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

// text/event-stream framing: `event:` and `data:` lines, a blank line ends an event.
async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) onEvent(name, JSON.parse(data.join('\n')));
    }
  }
}
