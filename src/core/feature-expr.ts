// Slurm's -C/--constraint expressions (sbatch(1) "--constraint", slurmctld's
// build_feature_list): parsed once at submit, then tested against each node's features.
//
//   a            nodes with feature a
//   a&b, a,b     both (`,` is accepted as AND)
//   a|b          either
//   (a|b)&c      grouping
//   a*4          at least 4 of the job's nodes have a (other nodes are unconstrained)
//   [a|b|c]      matching OR: every node has the same one of a, b, c
//   [a*2&b*4]    multiple counts: 2 nodes with a and 4 with b; `(a|b)*2` inside works too
//
// Operators evaluate left to right with equal precedence, as Slurm folds its feature list
// (`a|b&c` is `(a|b)&c`). Like Slurm: a count may not be combined with OR outside brackets,
// brackets do not nest and must hold a whole `|` list or a whole `&` list of counted terms.
import { UserError } from './errors.js';

/** A parsed constraint. */
export type FeatureExpr =
  | { readonly kind: 'feature'; readonly name: string; readonly count?: number }
  | { readonly kind: 'group'; readonly expr: FeatureExpr; readonly count?: number }
  | { readonly kind: 'op'; readonly op: '&' | '|'; readonly left: FeatureExpr; readonly right: FeatureExpr }
  | { readonly kind: 'match-or'; readonly alternatives: readonly FeatureExpr[] }
  | { readonly kind: 'counts'; readonly terms: readonly FeatureExpr[] };

/** A count constraint: at least `count` of the job's nodes satisfy `test`. */
export interface FeatureCount {
  readonly test: (features: ReadonlySet<string>) => boolean;
  readonly count: number;
  /** The term as written, for messages. */
  readonly text: string;
}

/**
 * One way to satisfy a constraint: every node satisfies `filter`, and the node set includes
 * `counts[i].count` distinct nodes for each count (a node counts towards one term only).
 */
export interface FeatureOption {
  readonly filter: (features: ReadonlySet<string>) => boolean;
  readonly counts: readonly FeatureCount[];
}

export const INVALID_FEATURE_TEXT = 'Invalid feature specification';

/** Parses a constraint; bad syntax throws UserError ESLURM_INVALID_FEATURE. */
export function parseFeatureExpr(text: string): FeatureExpr {
  return new Parser(text).parse();
}

/** Does a node with `features` satisfy the expression, counts ignored, matching OR as OR? */
export function nodeMatches(expr: FeatureExpr, features: ReadonlySet<string>): boolean {
  switch (expr.kind) {
    case 'feature':
      return features.has(expr.name);
    case 'group':
      return nodeMatches(expr.expr, features);
    case 'op':
      return expr.op === '&'
        ? nodeMatches(expr.left, features) && nodeMatches(expr.right, features)
        : nodeMatches(expr.left, features) || nodeMatches(expr.right, features);
    case 'match-or':
      return expr.alternatives.some((alt) => nodeMatches(alt, features));
    case 'counts':
      return expr.terms.some((term) => nodeMatches(term, features));
  }
}

/** Every feature name the expression mentions (to check them against the cluster's). */
export function featureNames(expr: FeatureExpr): string[] {
  switch (expr.kind) {
    case 'feature':
      return [expr.name];
    case 'group':
      return featureNames(expr.expr);
    case 'op':
      return [...featureNames(expr.left), ...featureNames(expr.right)];
    case 'match-or':
      return expr.alternatives.flatMap(featureNames);
    case 'counts':
      return expr.terms.flatMap(featureNames);
  }
}

/**
 * Slurm refuses a constraint naming a feature no node has ("Invalid feature specification",
 * as `srun -C foo` on a cluster without foo). Throws UserError ESLURM_INVALID_FEATURE.
 */
export function checkFeaturesKnown(expr: FeatureExpr, known: ReadonlySet<string>): void {
  if (featureNames(expr).some((name) => !known.has(name))) throw invalidFeature();
}

/**
 * The ways the expression can be satisfied, tried in order by select. The expression is read
 * as an AND chain of terms: counted terms (`a*2`, `[a*2&b*4]`) become counts, a matching OR
 * (`[a|b]`) gives one option per alternative (left to right), every other term filters
 * every node. A second matching OR in the same chain is tested as a plain OR.
 */
export function featureOptions(expr: FeatureExpr): FeatureOption[] {
  const counts: FeatureCount[] = [];
  const plain: FeatureExpr[] = [];
  let matching: FeatureExpr[] | undefined;
  for (const term of andTerms(expr)) {
    if (term.kind === 'counts') counts.push(...term.terms.map(countOf));
    else if (termCount(term) !== undefined) counts.push(countOf(term));
    else if (term.kind === 'match-or' && matching === undefined) matching = [...term.alternatives];
    else plain.push(term);
  }
  // [a*2&b*4] alone: every node must have one of the counted features.
  if (plain.length === 0 && matching === undefined && expr.kind === 'counts') plain.push(expr);
  const filterWith = (extra: FeatureExpr | undefined) => (f: ReadonlySet<string>) =>
    (extra === undefined || nodeMatches(extra, f)) && plain.every((term) => nodeMatches(term, f));
  if (matching === undefined) return [{ filter: filterWith(undefined), counts }];
  return matching.map((alt) => ({ filter: filterWith(alt), counts }));
}

function andTerms(expr: FeatureExpr): FeatureExpr[] {
  return expr.kind === 'op' && expr.op === '&' ? [...andTerms(expr.left), ...andTerms(expr.right)] : [expr];
}

function termCount(expr: FeatureExpr): number | undefined {
  return expr.kind === 'feature' || expr.kind === 'group' ? expr.count : undefined;
}

function countOf(term: FeatureExpr): FeatureCount {
  return { test: (f) => nodeMatches(term, f), count: termCount(term) ?? 1, text: formatFeatureExpr(term) };
}

/** The expression written back in Slurm syntax (normalised: `,` becomes `&`). */
export function formatFeatureExpr(expr: FeatureExpr): string {
  switch (expr.kind) {
    case 'feature':
      return expr.count === undefined ? expr.name : `${expr.name}*${expr.count}`;
    case 'group':
      return `(${formatFeatureExpr(expr.expr)})${expr.count === undefined ? '' : `*${expr.count}`}`;
    case 'op':
      return `${formatFeatureExpr(expr.left)}${expr.op}${formatFeatureExpr(expr.right)}`;
    case 'match-or':
      return `[${expr.alternatives.map(formatFeatureExpr).join('|')}]`;
    case 'counts':
      return `[${expr.terms.map(formatFeatureExpr).join('&')}]`;
  }
}

function invalidFeature(): UserError {
  return new UserError(INVALID_FEATURE_TEXT, { code: 'ESLURM_INVALID_FEATURE' });
}

// Feature names as slurm.conf allows them: no operators, brackets, blanks or '*'.
const NAME = /^[^&|,()[\]*\s]+/;
const COUNT = /^\*(\d+)/;

class Parser {
  private pos = 0;
  private depth = 0;
  private inBracket = false;
  private sawCount = false;
  private sawOr = false;

  constructor(private readonly text: string) {}

  parse(): FeatureExpr {
    if (this.text.trim() === '') throw invalidFeature();
    const expr = this.sequence();
    if (this.pos !== this.text.length) throw invalidFeature();
    // build_feature_list: "invalid constraint (OR with feature count)".
    if (this.sawCount && this.sawOr) throw invalidFeature();
    return expr;
  }

  // term (op term)*, folded left to right.
  private sequence(): FeatureExpr {
    let left = this.term();
    for (;;) {
      const ch = this.text[this.pos];
      if (ch !== '&' && ch !== ',' && ch !== '|') return left;
      this.pos++;
      if (ch === '|') this.sawOr = true;
      left = { kind: 'op', op: ch === '|' ? '|' : '&', left, right: this.term() };
    }
  }

  private term(): FeatureExpr {
    const ch = this.text[this.pos];
    if (ch === '[') return this.bracket();
    if (ch === '(') {
      this.pos++;
      this.depth++;
      const expr = this.sequence();
      if (this.text[this.pos] !== ')') throw invalidFeature();
      this.pos++;
      this.depth--;
      const count = this.count();
      return count === undefined ? { kind: 'group', expr } : { kind: 'group', expr, count };
    }
    const name = NAME.exec(this.text.slice(this.pos))?.[0];
    if (name === undefined) throw invalidFeature();
    this.pos += name.length;
    const count = this.count();
    return count === undefined ? { kind: 'feature', name } : { kind: 'feature', name, count };
  }

  private count(): number | undefined {
    const match = COUNT.exec(this.text.slice(this.pos));
    if (!match) return undefined;
    this.pos += match[0].length;
    const count = Number(match[1]);
    if (!Number.isSafeInteger(count) || count < 1) throw invalidFeature();
    if (!this.inBracket) this.sawCount = true;
    return count;
  }

  // [a|b|c] or [a*2&b*3]: a flat list, one kind of operator, no nesting.
  private bracket(): FeatureExpr {
    if (this.inBracket || this.depth > 0) throw invalidFeature();
    this.pos++;
    this.inBracket = true;
    const terms = [this.term()];
    let op: string | undefined;
    while (this.text[this.pos] !== ']') {
      const ch = this.text[this.pos];
      if (ch === ',') throw invalidFeature();
      if (ch !== '&' && ch !== '|') throw invalidFeature();
      if (op !== undefined && op !== ch) throw invalidFeature();
      op = ch;
      this.pos++;
      terms.push(this.term());
    }
    this.pos++;
    this.inBracket = false;
    if (op === '&' || (op === undefined && termCount(terms[0]!) !== undefined)) {
      // "AND operators require a count for each feature inside square brackets".
      if (terms.some((t) => termCount(t) === undefined)) throw invalidFeature();
      return { kind: 'counts', terms };
    }
    if (terms.some((t) => termCount(t) !== undefined)) throw invalidFeature();
    return { kind: 'match-or', alternatives: terms };
  }
}
