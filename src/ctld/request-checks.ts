// Checks the controller makes on every new job before select sees it: features and gres
// that no node of the cluster has are refused with Slurm's messages.
import { checkFeaturesKnown, parseFeatureExpr } from '../core/feature-expr.js';
import { checkGresKnown } from './gres-request.js';
import type { NodeTable } from './node-table.js';
import type { job_record_t } from '../plugin-api/records.js';

export function checkKnownToCluster(job: job_record_t, table: NodeTable): void {
  if (job.details.features) {
    checkFeaturesKnown(parseFeatureExpr(job.details.features), new Set(table.nodes.flatMap((n) => n.features)));
  }
  checkGresKnown({ perNode: job.gres_list, perJob: job.gres_per_job ?? [], perTask: [] }, table.nodes);
}
