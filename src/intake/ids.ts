/** image_id and user_id: positive integers, written in plain decimal. */
export function parsePositiveId(text: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}
