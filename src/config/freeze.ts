// Fastify's habit (STYLE.md §3.6): the loaded config is frozen all the way down, so no
// plugin can change what every other part of the system reads.

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
