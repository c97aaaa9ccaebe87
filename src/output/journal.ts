/** Printing the journal: one row per entry, and one entry with its before → after. */
import type { OutputStream } from "../io.js";
import { READ_BACK_FAILED, type JournalEntry } from "../journal/entry.js";
import { requestKind } from "../journal/query.js";
import { STATE_FIELDS, stateDifferences, type IntakeState, type StateDifference } from "../journal/state.js";
import { isPlainRecord } from "../intake/records.js";
import { fitColumnWidths, printedText, renderTable, renderTsv, type Cell } from "./table.js";
import { formatInstant, formatMinute, formatTime } from "./time.js";

/** The clock journal times are shown on: the user's zone (null: UTC, and said so), and now. */
export interface JournalClock {
  zone: string | null;
  now: number;
}

const FIELD_NAMES: Record<string, string> = { quantity: "g", salt: "salt", sugar: "sugar", oil: "oil", measures: "measures" };

function describeDifference(difference: StateDifference): string {
  if (difference.field === "display image") {
    // Short words, so the journal's table fits 80 columns.
    const short = (text: string) => text.replace(/^attached .*/, "attached");
    if (short(difference.was) === short(difference.now)) return "image replaced";
    return difference.now === "none" ? "image removed" : "image attached";
  }
  const where = difference.position === null ? "" : `${difference.position} `;
  return `${where}${difference.field === "grams" ? "g" : difference.field} ${difference.was}→${difference.now}`;
}

/** "1 g 180→150; display image none→attached": a difference list on one line. */
export function describeDifferences(differences: readonly StateDifference[]): string {
  return differences.map(describeDifference).join("; ");
}

/** What the request asked for, when the before and after are not both known. */
function describeRequest(entry: JournalEntry): string {
  const kind = requestKind(entry);
  if (kind === "attach") return "attach image";
  if (kind === "remove") return "remove image";
  const body = isPlainRecord(entry.request.body) ? entry.request.body : {};
  const parts = Object.entries(FIELD_NAMES).flatMap(([field, name]) => {
    const value = body[field];
    if (value === undefined) return [];
    if (!isPlainRecord(value)) return [`${name} ${String(value)}`];
    return Object.entries(value).map(([position, level]) => `${position} ${name} ${String(level)}`);
  });
  return parts.join(", ") || "-";
}

/** "1 g 180→150, 2 salt low→high"; the request when the after state is unknown. */
export function describeEntryChange(entry: JournalEntry): string {
  if (entry.overwritten.length) {
    const fields = entry.overwritten.map(
      (field) =>
        `${field.position === null ? "" : `${field.position} `}${field.field === "grams" ? "g" : field.field} ${field.sent}, now ${field.now}`,
    );
    return `overwritten: ${fields.join(", ")}`;
  }
  if (!entry.before || !entry.after) return describeRequest(entry);
  const differences = stateDifferences(entry.before, entry.after);
  return differences.length ? differences.map(describeDifference).join(", ") : "no change";
}

/** "11-23 16:54" on the zone's clock: the year only when it is not this one there. */
function shortTime(iso: string, clock: JournalClock): string {
  const time = formatMinute(iso, clock.zone);
  const thisYear = formatMinute(new Date(clock.now).toISOString(), clock.zone).slice(0, 4);
  return time.startsWith(`${thisYear}-`) ? time.slice(5) : time;
}

/**
 * One row per entry. On a terminal the profile column shows only when the entries are of several
 * profiles, and the reason only when one has a reason: as a column where the table still fits,
 * else on a line under its entry; piped, both always end the row, so the columns before them keep
 * their place.
 */
export function renderJournalRows(entries: readonly JournalEntry[], stream: OutputStream, color: boolean, clock: JournalClock): string {
  const piped = !stream.isTTY;
  const withProfile = piped || new Set(entries.map((entry) => entry.profile)).size > 1;
  const withReason = piped || entries.some((entry) => entry.reason !== null);
  const head = ["id", `time (${clock.zone ?? "UTC"})`, "intake", "user", "command", "what changed", "outcome"];
  const rows: Cell[][] = entries.map((entry) => [
    entry.id,
    stream.isTTY ? shortTime(entry.time, clock) : formatInstant(entry.time, clock.zone),
    entry.image_id,
    entry.user_id ?? "-",
    // An undo names the entry it undid (a word of its own, so the column stays narrow).
    entry.undo_of ? `undo ${entry.undo_of}` : entry.command.replace(/^(intake|display-image) /, ""),
    describeEntryChange(entry),
    entry.outcome,
    ...(withProfile ? [entry.profile] : []),
  ]);
  if (withProfile) head.push("profile");
  // The id is what `journal show` and `undo` take, and the time says when: neither is cut. The command (an undo names
  // an id), what changed, the profile and the reason wrap between words instead.
  const table = {
    alignRight: [2, 3],
    whole: [0, 1],
    wrap: head
      .map((_, index) => index)
      .slice(4)
      .filter((index) => index !== 6),
    color,
  };
  const reasons = entries.map((entry) => entry.reason ?? "-");
  const withReasonColumn = [...head, "reason"];
  const reasonRows = rows.map((row, index) => [...row, reasons[index]]);
  const wrapWithReason = [...table.wrap, head.length];
  if (withReason && (piped || fitColumnWidths(withReasonColumn, reasonRows, stream.columns, [], [0, 1, 2, 3], wrapWithReason) !== null))
    return renderTable(stream, { ...table, head: withReasonColumn, rows: reasonRows, wrap: wrapWithReason });
  const notes = withReason ? entries.map((entry) => (entry.reason === null ? null : { label: "reason", text: entry.reason })) : undefined;
  return renderTable(stream, { ...table, head, rows, notes });
}

export function renderJournalEntry(entry: JournalEntry, stream: OutputStream, color: boolean, clock: JournalClock): string {
  const facts: Array<[string, string]> = [
    ["id", entry.id],
    ["time", formatTime(entry.time, stream.isTTY === true, clock.now, clock.zone)],
    ["command", entry.command],
    ["intake", String(entry.image_id)],
    ["user", entry.user_id === null ? "-" : String(entry.user_id)],
    ["token of", describeActor(entry)],
    ["profile", entry.profile],
    ["reason", entry.reason ?? "-"],
    ["api", entry.api_url],
    ["outcome", entry.outcome],
  ];
  if (entry.batch_id) facts.push(["batch", entry.batch_id]);
  if (entry.undo_of) facts.push(["undoes", entry.undo_of]);
  facts.push(["request", `${entry.request.method} ${entry.request.url}`]);
  if (entry.request.body !== null && entry.request.body !== undefined) facts.push(["body", JSON.stringify(entry.request.body)]);
  if (entry.image_copy) facts.push(["image copy", `${entry.image_copy.file} (${entry.image_copy.bytes} bytes)`]);
  for (const field of entry.overwritten)
    facts.push(["conflict", `${field.position ?? "-"} ${field.field}: sent ${field.sent}, another writer's ${field.now} found`]);
  for (const change of entry.others_changed)
    facts.push([
      "by others",
      `${change.position ?? "-"} ${change.field}: ${change.was} → ${change.now} (changed meanwhile, not by this change)`,
    ]);
  if (entry.error) facts.push(["error", entry.error]);
  for (const note of entry.notes) facts.push(["note", note]);
  const head = facts.map(([name, value]) => `${`${name}:`.padEnd(12)}${value}`).join("\n");
  return `${head}\n\n${renderEntryDiff(entry, stream, color)}`;
}

/** Before → after, field by field; what is unknown is said. */
function renderEntryDiff(entry: JournalEntry, stream: OutputStream, color: boolean): string {
  if (!entry.before) return "before → after: unknown (the intake was not read before the change)\n";
  if (entry.found)
    return `before → found (another writer's values, not this change's result):\n${renderChanges(entry.before, entry.found, stream, color)}`;
  if (!entry.after) {
    const why = entry.notes.includes(READ_BACK_FAILED) ? "reading it back failed or was cut short" : "not read after the change";
    return `before → after: after state unknown (${why}); undo needs --force\nbefore:\n${renderState(entry.before, stream, color)}`;
  }
  return renderChanges(entry.before, entry.after, stream, color);
}

/** Who acted: the token's subject and role, "102 (APIUserManager)"; an opaque token tells neither. */
export function describeActor(entry: JournalEntry): string {
  if (!entry.actor) return "not recorded";
  if (entry.actor.subject === null && entry.actor.role === null) return "unknown (an opaque token)";
  return `${entry.actor.subject ?? "?"}${entry.actor.role === null ? "" : ` (${entry.actor.role})`}`;
}

function renderChanges(before: IntakeState, after: IntakeState, stream: OutputStream, color: boolean): string {
  const differences = stateDifferences(before, after);
  if (!differences.length) return "before → after: no change\n";
  const rows: Cell[][] = differences.map((difference) => [difference.position ?? "-", difference.field, difference.was, difference.now]);
  if (!stream.isTTY) return renderTsv(rows.map((row) => ["change", ...row]));
  return renderTable(stream, { head: ["position", "field", "before", "after"], rows, color });
}

/** An intake state whole: one row per position (piped: one row per field), then the display image. */
function renderState(state: IntakeState, stream: OutputStream, color: boolean): string {
  const image = state.display_image.attached ? `attached ${state.display_image.url ?? "-"}` : "none";
  if (!stream.isTTY) {
    const rows: Cell[][] = state.items.flatMap((item) =>
      STATE_FIELDS.map((field) => ["before", item.position ?? "-", field, item[field] ?? "-"]),
    );
    return renderTsv([...rows, ["before", "-", "display image", image]]);
  }
  const rows: Cell[][] = state.items.map((item) => [item.position ?? "-", ...STATE_FIELDS.map((field) => item[field] ?? "-")]);
  return `${renderTable(stream, { head: ["position", ...STATE_FIELDS], rows, alignRight: [1], color })}display image: ${printedText(image)}\n`;
}
