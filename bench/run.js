// `npm run bench`: every benchmark in this directory, one after another.
await import('./startup.js');
await import('./tsrun.js');
await import('./targets.js');
await import('./mpi.js');
await import('./tsbatch.js');
await import('./tsqueue.js');
await import('./tsacct.js');
await import('./tsrestd.js');
await import('./tsstepd.js');
await import('./net-flood.js');
await import('./dashboard.js');
await import('./micro-hostlist-bitmap.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
});
