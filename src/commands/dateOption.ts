/**
 * A date option (`intake list --from/--to`, `journal --since/--until`) read by the one grammar
 * of dates, refused in one line (exit 2) before anything is sent.
 */
import { usageError } from "../errors.js";
import { readDate, type DateReading, type Edge } from "../intake/dateInput.js";

// The grammar's other readers, for the commands that load this module on first use (a cold file of its own: start-up).
export { instantOf, wallOf } from "../intake/dateInput.js";

export const DATE_FORMS_HINT = "the forms foodctl reads: `foodctl help dates`";

/** `zone` is the clock the date is read on (UTC when the user's is not known); `now` the instant of the run. */
export function readDateOption(flag: string, text: string, edge: Edge, zone: string, now: number): DateReading {
  const answer = readDate(text, edge, zone, now);
  if ("problem" in answer) {
    const joined = answer.problem.startsWith("must ") ? `${flag} ${answer.problem}` : `${flag}: ${answer.problem}`;
    throw usageError(joined, { hint: answer.hint ?? DATE_FORMS_HINT });
  }
  return answer;
}
