// Small text helpers shared by the page's parts.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put inside HTML, attributes included. */
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Seconds as Slurm prints a duration: `M:SS`, `H:MM:SS`, `D-HH:MM:SS` (squeue's TIME). */
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (days > 0) return `${days}-${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec}`;
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${sec}`;
  return `${m}:${sec}`;
}

/** Megabytes in the largest unit that keeps a whole number in front: `512M`, `1.5G`, `2T`. */
export function megabytes(mb) {
  if (mb >= 1024 * 1024) return `${+(mb / 1024 / 1024).toFixed(1)}T`;
  if (mb >= 1024) return `${+(mb / 1024).toFixed(1)}G`;
  return `${mb}M`;
}

/** A percentage of a part in a whole, 0 when the whole is empty. */
export function percent(part, whole) {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

/** Unix seconds as a local time of day (the log of ends). */
export function clock(unixSeconds) {
  return new Date(unixSeconds * 1000).toLocaleTimeString([], { hour12: false });
}
