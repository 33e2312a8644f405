// The simulation entry (dist/ctld/simulate.js): what `tsctld --simulate` runs, and the in-process
// controller harness bench/schedule.js drives.
export { startSimHost, SimLauncher, addSimJob, endSimJob, simDescriptor, withPlugins, type SimHost } from './sim-host.js';
export { schedulePass } from '../schedule.js';
export { SchedFacade } from '../../interfaces/sched.js';
export { loadCluster } from '../../config/load.js';
export { createLogger } from '../../core/log.js';
