// Compile-only: each built-in plugin module conforms to its type's interface (checked by
// `tsc --noEmit -p tsconfig.json`; nothing here runs). A missing or mistyped required
// function, or a wrong header, fails the type check.
import type {
  AuthPlugin,
  JobContainerPlugin,
  MpiPlugin,
  ProctrackPlugin,
  SchedPlugin,
  SelectPlugin,
} from '../../src/plugin-api/index.js';
import type * as auth_hmac from '../../plugins/auth_hmac.js';
import type * as auth_none from '../../plugins/auth_none.js';
import type * as job_container_cncu from '../../plugins/job_container_cncu.js';
import type * as job_container_none from '../../plugins/job_container_none.js';
import type * as job_container_tmpfs from '../../plugins/job_container_tmpfs.js';
import type * as mpi_none from '../../plugins/mpi_none.js';
import type * as mpi_pmi2 from '../../plugins/mpi_pmi2.js';
import type * as mpi_pmix from '../../plugins/mpi_pmix.js';
import type * as mpi_pmix_v4 from '../../plugins/mpi_pmix_v4.js';
import type * as proctrack_linuxproc from '../../plugins/proctrack_linuxproc.js';
import type * as proctrack_pgid from '../../plugins/proctrack_pgid.js';
import type * as sched_builtin from '../../plugins/sched_builtin.js';
import type * as select_cons_res from '../../plugins/select_cons_res.js';
import type * as select_cray_aries from '../../plugins/select_cray_aries.js';
import type * as select_cons_tres from '../../plugins/select_cons_tres.js';
import type * as select_linear from '../../plugins/select_linear.js';

type Conforms<Module extends Plugin, Plugin> = Module;

export type Checks = [
  Conforms<typeof auth_hmac, AuthPlugin<auth_hmac.HmacCred>>,
  Conforms<typeof auth_none, AuthPlugin<auth_none.NoneCred>>,
  Conforms<typeof job_container_cncu, JobContainerPlugin>,
  Conforms<typeof job_container_none, JobContainerPlugin>,
  Conforms<typeof job_container_tmpfs, JobContainerPlugin>,
  Conforms<typeof mpi_none, MpiPlugin>,
  Conforms<typeof mpi_pmi2, MpiPlugin<mpi_pmi2.Pmi2ClientState>>,
  Conforms<typeof mpi_pmix, MpiPlugin<mpi_pmix.PmixClientState>>,
  Conforms<typeof mpi_pmix_v4, MpiPlugin<mpi_pmix.PmixClientState>>,
  Conforms<typeof proctrack_linuxproc, ProctrackPlugin>,
  Conforms<typeof proctrack_pgid, ProctrackPlugin>,
  Conforms<typeof sched_builtin, SchedPlugin>,
  Conforms<typeof select_cons_res, SelectPlugin>,
  Conforms<typeof select_cons_tres, SelectPlugin>,
  Conforms<typeof select_cray_aries, SelectPlugin<unknown, select_cray_aries.CrayJobinfo>>,
  Conforms<typeof select_linear, SelectPlugin>,
];
