/**
 * Why a change is made (docs/journal.md, who and why): a ticket number or a sentence, from
 * --reason or a batch line's reason. Pure.
 */

/** A reason is a ticket number or a sentence or two: longer text is not one. */
export const MAX_REASON_CHARACTERS = 500;

/** What is wrong with a reason's text (trimmed first), or null when it can be recorded. */
export function reasonProblem(text: string): string | null {
  if (text.trim() === "") return "is empty: give a ticket number or a sentence";
  if (/[\u0000-\u001f\u007f]/.test(text)) return "must be one line of text, without control characters";
  if ([...text.trim()].length > MAX_REASON_CHARACTERS) return `is longer than ${MAX_REASON_CHARACTERS} characters: name the ticket`;
  return null;
}
