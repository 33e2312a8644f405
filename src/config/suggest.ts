// "did you mean" hints for misspelt keys and values.

/** The closest candidate to `word` when it is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** `; did you mean "memory"?` or nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const hint = closest(word, candidates);
  return hint === undefined ? '' : `; did you mean "${hint}"?`;
}

// Damerau–Levenshtein (optimal string alignment): a swapped pair of letters counts as one edit.
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
