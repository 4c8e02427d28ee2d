// Typos caught before anything is sent: a value a couple of keystrokes from a known one is almost surely that one
// mistyped, and the service would answer it with an empty page or a refusal the operator has to decode. Values far
// from every known one pass, since the service's sets are not closed.

/** The most edits between a typed value and a known one for the typed value to count as its typo. */
const TYPO_DISTANCE = 2;

/**
 * Edits from one text to the other: an insertion, a deletion, a substitution, or two neighbours swapped each
 * count one (the optimal-string-alignment distance).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return d[rows - 1]?.[cols - 1] ?? 0;
}

/**
 * The known value a typed one is most likely a typo of: `value` is none of `accepted`, and the nearest of
 * `suggested` is at most TYPO_DISTANCE edits away (the first of equals). Undefined otherwise.
 */
export function likelyTypo(value: string, suggested: readonly string[], accepted: readonly string[] = suggested): string | undefined {
  if (accepted.includes(value)) return undefined;
  let best: { known: string; distance: number } | undefined;
  for (const known of suggested) {
    // Cheap bound first: lengths further apart than the limit cannot be within it.
    if (Math.abs(known.length - value.length) > TYPO_DISTANCE) continue;
    const distance = editDistance(value, known);
    if (distance <= TYPO_DISTANCE && (best === undefined || distance < best.distance)) best = { known, distance };
  }
  return best?.known;
}
