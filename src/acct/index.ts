// The accounting store's API for its other readers (tsrestd's /slurmdb/v0.0.38/jobs) and the
// benchmark: open, query, and (for the controller and tests) write.
export { accountingStorePath } from './store-path.js';
export { openStoreForReading, openStoreForWriting, type StoreDb } from './open-store.js';
export { queryJobs } from './query.js';
export { StoreWriter } from './store-writer.js';
export { SCHEMA_VERSION } from './migrations.js';
export * from './records.js';
