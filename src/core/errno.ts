// Slurm's errno values and their slurm_strerror() texts (slurm/slurm_errno.h and
// src/common/slurm_errno.c). One table: name → [number, message]. Only the codes
// tslurm can produce are listed; the unit test checks every code used in src/ is here.
import { getSystemErrorMap } from 'node:util';

const table = {
  SLURM_SUCCESS: [0, 'No error'],
  SLURM_ERROR: [-1, 'Unspecified error'],

  SLURM_UNEXPECTED_MSG_ERROR: [1000, 'Unexpected message received'],
  SLURM_COMMUNICATIONS_CONNECTION_ERROR: [1001, 'Communication connection failure'],
  SLURM_COMMUNICATIONS_SEND_ERROR: [1002, 'Message send failure'],
  SLURM_COMMUNICATIONS_RECEIVE_ERROR: [1003, 'Message receive failure'],
  SLURM_PROTOCOL_VERSION_ERROR: [1005, 'Incompatible versions of client and server code'],
  SLURM_PROTOCOL_AUTHENTICATION_ERROR: [1007, 'Protocol authentication error'],
  SLURM_PROTOCOL_INSANE_MSG_LENGTH: [1008, 'Insane message length'],
  SLURM_MPI_PLUGIN_NAME_INVALID: [1009, 'Invalid MPI plugin name'],
  SLURM_MPI_PLUGIN_PRELAUNCH_SETUP_FAILED: [1010, "MPI plugin's pre-launch setup failed"],
  SLURM_PLUGIN_NAME_INVALID: [1011, 'Plugin initialization failed'],
  SLURM_COMMUNICATIONS_CONNECT_TIMEOUT: [1021, 'Connection timed out establishing'],
  SLURM_COMMUNICATIONS_READ_TIMEOUT: [1023, 'Connection timed out reading'],
  SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR: [1800, 'Unable to contact slurm controller (connect failure)'],

  ESLURM_INVALID_PARTITION_NAME: [2000, 'Invalid partition name specified'],
  ESLURM_DEFAULT_PARTITION_NOT_SET: [2001, 'No partition specified or system default partition'],
  ESLURM_ACCESS_DENIED: [2002, 'Access/permission denied'],
  ESLURM_REQUESTED_NODES_NOT_IN_PARTITION: [2004, 'Requested nodes not in this partition'],
  ESLURM_TOO_MANY_REQUESTED_CPUS: [2005, 'More processors requested than permitted'],
  ESLURM_INVALID_NODE_COUNT: [2006, 'Node count specification invalid'],
  ESLURM_JOB_SCRIPT_MISSING: [2009, 'Job script not specified'],
  ESLURM_USER_ID_MISSING: [2010, 'Invalid user id'],
  ESLURM_DUPLICATE_JOB_ID: [2011, 'Duplicate job id'],
  ESLURM_PATHNAME_TOO_LONG: [2012, 'Pathname of a file, directory or other parameter too long'],
  ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE: [2014, 'Requested node configuration is not available'],
  ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE: [2015, 'Requested partition configuration not available now'],
  ESLURM_NODES_BUSY: [2016, 'Requested nodes are busy'],
  ESLURM_INVALID_JOB_ID: [2017, 'Invalid job id specified'],
  ESLURM_INVALID_NODE_NAME: [2018, 'Invalid node name specified'],
  ESLURM_TRANSITION_STATE_NO_UPDATE: [2020, 'Job can not be altered now, try again later'],
  ESLURM_ALREADY_DONE: [2021, 'Job/step already completing or completed'],
  ESLURM_BAD_DIST: [2023, 'Task distribution specification invalid'],
  ESLURM_JOB_PENDING: [2024, 'Job is pending execution'],
  ESLURM_BAD_TASK_COUNT: [2025, 'Task count specification invalid'],
  ESLURM_INVALID_NODE_STATE: [2028, 'Invalid node state specified'],
  ESLURM_INVALID_FEATURE: [2029, 'Invalid feature specification'],
  ESLURM_NOT_SUPPORTED: [2036, 'Requested operation not supported on this system'],
  ESLURM_DISABLED: [2037, 'Requested operation is presently disabled'],
  ESLURM_DEPENDENCY: [2038, 'Job dependency problem'],
  ESLURM_JOB_HELD: [2042, 'Job is in held state, pending scheduler release'],
  ESLURM_INVALID_TASK_MEMORY: [2044, 'Memory required by task is not available'],
  ESLURM_INVALID_TIME_LIMIT: [2051, 'Requested time limit is invalid (missing or exceeds some limit)'],
  ESLURM_RESERVATION_ACCESS: [2052, 'Access denied to requested reservation'],
  ESLURM_RESERVATION_INVALID: [2053, 'Requested reservation is invalid'],
  ESLURM_INVALID_TIME_VALUE: [2054, 'Invalid time specified'],
  ESLURM_RESERVATION_BUSY: [2055, 'Requested reservation is in use'],
  ESLURM_RESERVATION_NOT_USABLE: [2056, 'Requested reservation not usable now'],
  ESLURM_RESERVATION_OVERLAP: [2058, 'Requested reservation overlaps with another reservation'],
  ESLURM_NODE_NOT_AVAIL: [2068, 'Required node not available (down, drained or reserved)'],
  ESLURM_INVALID_CPU_COUNT: [2069, 'CPU count specification invalid'],
  ESLURM_PARTITION_NOT_AVAIL: [2070, 'Required partition not available (inactive or drain)'],
  ESLURM_CIRCULAR_DEPENDENCY: [2071, 'Circular job dependency'],
  ESLURM_INVALID_GRES: [2072, 'Invalid generic resource (gres) specification'],
  ESLURM_JOB_NOT_PENDING: [2073, 'Job is no longer pending execution'],
  ESLURM_JOB_SUSPENDED: [2077, 'Job is current suspended, requested operation disabled'],
  ESLURM_CAN_NOT_START_IMMEDIATELY: [2078, 'Job can not start immediately'],
  ESLURM_INVALID_ARRAY: [2081, 'Invalid job array specification'],
  ESLURM_RESERVATION_NAME_DUP: [2082, 'Duplicate reservation name'],
  ESLURM_JOB_FINISHED: [2084, 'Job has already finished'],
  ESLURM_JOB_NOT_RUNNING: [2085, 'Job is not running'],
  ESLURM_JOB_NOT_SUSPENDED: [2087, 'Job is not suspended'],
  ESLURM_INTERNAL: [2090, 'Slurm internal error, contact system administrator'],
  ESLURM_PARTITION_DOWN: [2101, 'Partition in DOWN state'],
  ESLURM_INVALID_NICE: [2123, 'Invalid --nice value'],
  ESLURM_INVALID_TIME_MIN_LIMIT: [2124, "Invalid time-min specification (exceeds job's time or other limits)"],
  // slurmrestd's refusal of a job without `environment` carries this number with its own text.
  ESLURM_ENVIRONMENT_MISSING: [2127, 'Environment is missing in job'],

  // auth/hmac's replay refusal: Slurm has no auth errno for it (auth/munge folds munge's
  // "Replayed credential" into ESLURM_AUTH_CRED_INVALID); this is its nearest code.
  ESLURMD_CREDENTIAL_REPLAYED: [4009, 'Job credential replayed'],
  ESLURMD_EXECVE_FAILED: [4020, 'Slurmd could not execve job'],
  ESLURMD_IO_ERROR: [4021, 'Slurmd could not connect IO'],

  ESLURM_AUTH_CRED_INVALID: [6000, 'Invalid authentication credential'],
  // Newer Slurm's code and number; 22.05 had ESLURM_AUTH_FOPEN_ERROR at 6001.
  ESLURM_AUTH_EXPIRED: [6001, 'Authentication credential expired'],
  ESLURM_AUTH_BADARG: [6004, 'Bad argument to plugin function'],
  ESLURM_AUTH_UNPACK: [6007, 'Cannot unpack credential'],

  // The accounting store cannot be read (slurmrestd: slurmdbd cannot be reached).
  ESLURM_DB_CONNECTION: [7000, 'Unable to connect to database'],

  ESLURM_PLUGIN_INVALID: [8002, 'Plugin has invalid format or unable to be loaded'],
  ESLURM_PLUGIN_INCOMPLETE: [8003, 'Plugin missing required symbol or function'],
  ESLURM_PLUGIN_NOT_LOADED: [8004, 'Required plugin type not loaded or initialized'],
  ESLURM_PLUGIN_NOTFOUND: [8005, 'Plugin file not found'],
  ESLURM_PLUGIN_ACCESS_ERROR: [8006, 'Plugin access denied'],
  ESLURM_PLUGIN_DLOPEN_FAILED: [8007, 'Dlopen of plugin file failed'],
  ESLURM_PLUGIN_INIT_FAILED: [8008, 'Plugin init() callback failed'],
  ESLURM_PLUGIN_MISSING_NAME: [8009, 'Plugin name/type/version symbol missing'],
  ESLURM_PLUGIN_BAD_VERSION: [8010, 'Incompatible plugin version'],

  // slurmrestd's (tsrestd).
  ESLURM_REST_INVALID_QUERY: [9000, 'Query empty or not RFC7320 compliant'],
  ESLURM_REST_FAIL_PARSING: [9001, 'Failure during parsing'],
  ESLURM_REST_INVALID_JOBS_DESC: [9002, 'Jobs description entry not found, empty or not dictionary or list'],
  ESLURM_REST_EMPTY_RESULT: [9003, 'Nothing found with query'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrnoName = keyof typeof table;

export const SLURM_SUCCESS = 0;
export const SLURM_ERROR = -1;

const byNumber = new Map<number, string>(Object.values(table).map(([n, text]) => [n, text]));

/** Numeric value of a Slurm errno name. */
export function errnoValue(name: ErrnoName): number {
  return table[name][0];
}

/** Whether `name` is one of the Slurm errno names in the table (codes arrive as text over the wire). */
export function isErrnoName(name: string): name is ErrnoName {
  return Object.hasOwn(table, name);
}

/** The name of a Slurm errno number, or undefined for system errnos. */
export function errnoName(errnum: number): ErrnoName | undefined {
  for (const [name, [n]] of Object.entries(table)) if (n === errnum) return name as ErrnoName;
  return undefined;
}

/** slurm_strerror(): Slurm's text for a Slurm errno; the system's text for a system errno. */
export function slurm_strerror(errnum: number | ErrnoName): string {
  if (typeof errnum === 'string') return table[errnum][1];
  const text = byNumber.get(errnum);
  if (text !== undefined) return text;
  if (errnum > 0) return systemErrorText(errnum);
  return 'Unknown negative error number';
}

// Where libuv words an errno differently from glibc's strerror(), which Slurm prints.
const glibcTexts: Readonly<Record<string, string>> = {
  EEXIST: 'File exists',
  EISDIR: 'Is a directory',
  EBUSY: 'Device or resource busy',
  EXDEV: 'Invalid cross-device link',
  ETXTBSY: 'Text file busy',
};

let systemErrors: Map<number, [string, string]> | undefined;

function systemErrorText(errnum: number): string {
  // Node has no strerror(); libuv's error map carries the C library's texts, keyed by -errno.
  // Node builds the map anew at each call (a hundred entries from libuv): kept once made.
  const entry = (systemErrors ??= getSystemErrorMap()).get(-errnum);
  if (!entry) return `Unknown error ${errnum}`;
  return glibcTexts[entry[0]] ?? entry[1].charAt(0).toUpperCase() + entry[1].slice(1);
}

/** Every known errno name, for tests and `--help` listings. */
export const errnoNames = Object.keys(table) as ErrnoName[];
