/** What is wrong with a batch's input: one problem per fault, by line, the first few kept. */

export interface BatchProblem {
  line: number;
  /** The key or column at fault; null when the line as a whole is (bad JSON, an empty change). */
  field: string | null;
  message: string;
}

/** docs/batch.md, checked before anything is sent: problems are listed up to 20, then counted. */
export const MAX_REPORTED_PROBLEMS = 20;

/** Keeps the first `cap` problems by line number and counts the rest. */
export class ProblemList {
  private readonly kept: BatchProblem[] = [];
  count = 0;

  constructor(private readonly cap: number = MAX_REPORTED_PROBLEMS) {}

  add(problem: BatchProblem): void {
    this.count++;
    const last = this.kept[this.kept.length - 1];
    if (this.kept.length >= this.cap && last && last.line <= problem.line) return;
    // Stable insert by line: problems of one line stay in the order they were found.
    let index = this.kept.length;
    while (index > 0 && this.kept[index - 1]!.line > problem.line) index--;
    this.kept.splice(index, 0, problem);
    if (this.kept.length > this.cap) this.kept.pop();
  }

  get list(): BatchProblem[] {
    return this.kept;
  }
}

/** Characters that would drive a terminal or reorder text: C0, DEL, C1 and bidirectional controls. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX_QUOTED = 40;

/**
 * A value from the input as a problem shows it: in double quotes, cut to 40 characters, with
 * every control character written as an escape (`\u001b`), so a cell never reaches the terminal raw.
 */
export function quoteValue(text: string): string {
  const cut = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED - 1)}…` : text;
  return `"${cut.replace(/["\\]/g, (char) => `\\${char}`).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

/** A JSON value from the input for a message: strings quoted as above, the rest as JSON, cut short. */
export function showValue(value: unknown): string {
  if (typeof value === "string") return quoteValue(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_QUOTED ? `${json.slice(0, MAX_QUOTED - 1)}…` : json;
}
