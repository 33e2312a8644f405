// The select engines' shortcuts on big clusters: runs of nodes alike seen as one item, an
// index of free CPUs for the plain requests, and WILL_RUN's ladder of kept usages. They change how fast a placement is found, never
// which nodes it gets; turned off, every node is visited on its own, which is what the
// property tests compare them with.
export const fitShortcuts = { enabled: true };
