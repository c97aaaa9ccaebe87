/** Numbers as the printers show them. */

/** Rounds for display: whole numbers stay whole, others keep one decimal. */
export function formatAmount(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined) return "-";
  const rounded = Number(value.toFixed(digits));
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(digits);
}

/** 100000 → "100,000", the same in every locale, without Intl (whose first use in a process costs a batch tens of milliseconds). */
export function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
