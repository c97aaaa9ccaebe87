/** The known value a mistyped one most likely meant, for "did you mean …?" wherever a value is read. Pure. */

/** Edits (insert, delete, replace, swap two neighbours) that turn one text into the other. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The one known value a mistyped one most likely meant: another case, a prefix (`lo`), or at most two edits away. */
export function closestValue(typed: string, known: readonly string[]): string | undefined {
  const text = typed.trim().toLowerCase();
  if (text === "") return undefined;
  const prefixed = known.filter((value) => value.startsWith(text));
  if (prefixed.length === 1) return prefixed[0];
  const distances = known.map((value) => ({ value, distance: editDistance(text, value) }));
  const nearest = Math.min(...distances.map((entry) => entry.distance));
  const best = distances.filter((entry) => entry.distance === nearest);
  return nearest <= 2 && best.length === 1 ? best[0]!.value : undefined;
}

/** "did you mean low?" when one known value is close to what was typed; undefined otherwise. */
export const didYouMean = (typed: string, known: readonly string[]) => {
  const suggestion = closestValue(typed, known);
  return suggestion === undefined ? undefined : `did you mean ${suggestion}?`;
};
