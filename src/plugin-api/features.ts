/**
 * Node feature expressions, as `--constraint` takes them (sbatch(1); slurmctld's
 * build_feature_list): `a`, `a&b`, `a|b`, `(a|b)&c`, counts `a*4`, matching OR `[a|b|c]`,
 * multiple counts `[a*2&b*4]`. A select plugin reads `job.details.features` with
 * `parseFeatureExpr`, tests a node with `nodeMatches`, and places a job by trying each of
 * `featureOptions(expr)` in order (a node filter plus counted terms). Bad syntax throws a
 * user error with Slurm's text, `Invalid feature specification`.
 */
export {
  parseFeatureExpr,
  nodeMatches,
  featureNames,
  featureOptions,
  formatFeatureExpr,
  INVALID_FEATURE_TEXT,
  type FeatureExpr,
  type FeatureCount,
  type FeatureOption,
} from '../core/feature-expr.js';
