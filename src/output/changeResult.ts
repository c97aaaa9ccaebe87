/** Printing a change: the dry-run request, and the before → after of a verified change. */
import type { RequestDescription } from "../api/client.js";
import { formatAmount } from "../intake/amounts.js";
import type { OutputStream } from "../io.js";
import type { IgnoredModifier, IntakeDiff, ItemChange, Pair } from "../intake/diff.js";
import type { HeldValue } from "../intake/unchanged.js";
import type { OthersChange, Overwritten } from "../records/journal.js";
import { jsonDocument } from "../sanitize.js";
import { styler } from "./style.js";
import {
  COLUMN_GAP,
  cutToWidth,
  joinToWidth,
  naturalWidths,
  padText,
  printedText,
  renderTable,
  renderTsv,
  textWidth,
  wrapWords,
  type Cell,
} from "./table.js";

export function renderDryRun(request: RequestDescription, json: boolean): string {
  if (json) return jsonDocument({ dry_run: true, request });
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const head = `${request.method} ${request.url}\n${headers.join("\n")}\n`;
  if (request.body === null || request.body === undefined) return head; // a DELETE has no body
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body, null, 2);
  return `${head}\n${body}\n`;
}

/** The fields of an item a change can move, in the order tables show them. */
const ITEM_FIELDS = ["grams", "salt", "sugar", "oil", "measures", "kcal"] as const;
type ItemField = (typeof ITEM_FIELDS)[number];
const FIELD_UNITS: Record<ItemField, string> = { grams: "g", salt: "-", sugar: "-", oil: "-", measures: "-", kcal: "kcal" };
/** Unchanged columns that give way first when the table is too wide: levels before amounts. */
const LEVEL_FIELDS: readonly ItemField[] = ["salt", "sugar", "oil", "measures"];
/** In a table the food keeps at least this many characters (`…` included); below that, one line per change. */
const FOOD_FLOOR = 12;
/** One line per change shows the food only when at least this much of it fits. */
const FOOD_MINIMUM = 4;

interface PrintedPair {
  before: string;
  after: string;
  changed: boolean;
}

/** A before and after as printed; a change is what the printed values show (150.01 → 150.02 is none). */
function printedPair(pair: Pair<number | string | null>): PrintedPair {
  const show = (value: number | string | null) => (typeof value === "string" ? value : formatAmount(value));
  const before = show(pair.before);
  const after = show(pair.after);
  return { before, after, changed: before !== after };
}

const shownValue = (pair: PrintedPair) => (pair.changed ? `${pair.before} → ${pair.after}` : pair.after);

/**
 * The fields another writer changed after this change set them, by position and field
 * (docs/journal.md, concurrent writers): the value read back is theirs, not this change's result.
 */
type Overwrites = ReadonlyMap<string, Overwritten>;
const overwriteKey = (position: string | null, field: string) => `${position ?? ""}\u0000${field}`;
const overwritesOf = (overwritten: readonly Overwritten[]): Overwrites =>
  new Map(overwritten.map((field) => [overwriteKey(field.position, field.field), field]));

/** What a table cell shows of an item's field: before → after, or before → what was sent, and another writer's value now. */
function itemCell(item: ItemChange, field: ItemField, overwrites: Overwrites): { text: string; changed: boolean } {
  const pair = printedPair(item[field]);
  const found = overwrites.get(overwriteKey(item.position, field));
  if (!found) return { text: shownValue(pair), changed: pair.changed };
  const sent = field === "grams" && !Number.isNaN(Number(found.sent)) ? formatAmount(Number(found.sent)) : found.sent;
  return { text: `${pair.before} → ${sent} sent; now ${pair.after} (another writer's)`, changed: true };
}

const describeImage = (state: IntakeDiff["displayImage"]["before"]) =>
  `${state.attached ? "display image" : "normal image"} ${state.url ?? "-"}${state.width !== null ? ` (${state.width}×${state.height})` : ""}`;

const imageChanged = (diff: IntakeDiff) => JSON.stringify(diff.displayImage.before) !== JSON.stringify(diff.displayImage.after);
const changedTotals = (diff: IntakeDiff) => diff.totals.filter((total) => printedPair(total).changed);

/** The header of the piped before → after (docs/cli.md, Output). */
export const DIFF_TSV_HEAD = ["row", "image_id", "position", "food", "field", "before", "after", "unit"];

/** The piped rows of a change, without the header: one per changed field of an item, the display image, each total. */
export function diffTsvRows(diff: IntakeDiff): Cell[][] {
  const rows: Cell[][] = [];
  for (const item of diff.items) {
    for (const field of ITEM_FIELDS) {
      const pair = printedPair(item[field]);
      if (pair.changed)
        rows.push(["item", diff.imageId, item.position ?? "-", item.food, field, pair.before, pair.after, FIELD_UNITS[field]]);
    }
  }
  const image = diff.displayImage;
  if (imageChanged(diff))
    rows.push(["image", diff.imageId, "-", "-", "display_image", describeImage(image.before), describeImage(image.after), "-"]);
  for (const total of changedTotals(diff)) {
    const pair = printedPair(total);
    rows.push(["total", diff.imageId, "-", "-", total.label, pair.before, pair.after, total.unit]);
  }
  return rows;
}

/**
 * Piped, one `overwritten` row per field another writer changed after this change set it:
 * `before` is the value this change sent, `after` the other writer's value found in its place.
 */
function overwrittenTsvRows(diff: IntakeDiff, overwritten: readonly Overwritten[]): Cell[][] {
  return overwritten.map((field) => {
    const item = diff.items.find((candidate) => candidate.position === field.position);
    const unit = field.field === "grams" ? "g" : "-";
    return [
      "overwritten",
      diff.imageId,
      field.position ?? "-",
      item?.food ?? "-",
      field.field.replace(" ", "_"),
      field.sent,
      field.now,
      unit,
    ];
  });
}

/**
 * The changed items on a terminal, every changed value whole: the whole table when it fits;
 * else without the unchanged levels, then with the food shortened, then without the unchanged
 * grams and kcal too; else one line per changed field.
 */
function renderChangedItems(items: ItemChange[], stream: OutputStream, color: boolean, overwrites: Overwrites): string {
  const changedFields = ITEM_FIELDS.filter((field) => items.some((item) => itemCell(item, field, overwrites).changed));
  const withoutLevels = ITEM_FIELDS.filter((field) => changedFields.includes(field) || !LEVEL_FIELDS.includes(field));
  const layouts: Array<{ fields: readonly ItemField[]; cutFood: boolean }> = [
    { fields: ITEM_FIELDS, cutFood: false },
    { fields: withoutLevels, cutFood: false },
    { fields: withoutLevels, cutFood: true },
    { fields: changedFields, cutFood: true },
  ];
  for (const { fields, cutFood } of layouts) {
    const head = ["position", "food", ...fields];
    const rows: Cell[][] = items.map((item) => [
      item.position ?? "-",
      item.food,
      ...fields.map((field) => itemCell(item, field, overwrites).text),
    ]);
    const widths = naturalWidths(head, rows);
    const tableWidth = widths.reduce((sum, width) => sum + width, COLUMN_GAP * (head.length - 1));
    const excess = stream.columns === undefined ? 0 : tableWidth - stream.columns;
    // renderTable cuts the food (its one flexible column) by the excess, never a value.
    if (excess <= 0 || (cutFood && (widths[1] ?? 0) - excess >= FOOD_FLOOR)) {
      const alignRight = fields.flatMap((field, index) => (field === "grams" || field === "kcal" ? [index + 2] : []));
      return renderTable(stream, { head, rows, alignRight, flexible: [1], color });
    }
  }
  return renderChangeLines(items, stream.columns, overwrites);
}

/** One line per changed field: position, food (shortened to the room left), field, before → after. */
function renderChangeLines(items: ItemChange[], columns: number | undefined, overwrites: Overwrites): string {
  const lines = items.flatMap((item) =>
    ITEM_FIELDS.map((field) => ({ item, field, cell: itemCell(item, field, overwrites) }))
      .filter(({ cell }) => cell.changed)
      .map(({ item, field, cell }) => ({
        position: printedText(item.position ?? "-"),
        food: printedText(item.food),
        field,
        value: printedText(cell.text),
      })),
  );
  const widest = (texts: string[]) => Math.max(0, ...texts.map(textWidth));
  const positionWidth = widest(lines.map((line) => line.position));
  const fieldWidth = widest(lines.map((line) => line.field));
  const valueWidth = widest(lines.map((line) => line.value));
  const room = columns === undefined ? Infinity : columns - positionWidth - fieldWidth - valueWidth - 3 * COLUMN_GAP;
  const foodWidth = Math.min(widest(lines.map((line) => line.food)), room);
  const gap = " ".repeat(COLUMN_GAP);
  return lines
    .map((line) => {
      // No room for even a shortened food: the position alone names the item.
      const food = foodWidth >= FOOD_MINIMUM ? `${padText(cutToWidth(line.food, foodWidth), foodWidth)}${gap}` : "";
      return `${padText(line.position, positionWidth)}${gap}${food}${padText(line.field, fieldWidth)}${gap}${line.value}\n`;
    })
    .join("");
}

/**
 * A verified change for people: the changed items (see renderChangedItems), the display image's
 * before and after on a line each, the changed totals wrapped between parts. Piped: a header
 * and one tab-separated row per changed field, before and after apart (docs/cli.md, Output).
 */
export function renderDiff(diff: IntakeDiff, stream: OutputStream, color: boolean, overwritten: readonly Overwritten[] = []): string {
  if (!stream.isTTY) {
    const rows = [...diffTsvRows(diff), ...overwrittenTsvRows(diff, overwritten)];
    // Nothing changed: no header either; the caller notes it on stderr.
    return rows.length ? renderTsv([DIFF_TSV_HEAD, ...rows]) : "";
  }
  const s = styler(color);
  const out: string[] = [];
  const overwrites = overwritesOf(overwritten);
  const changedItems = diff.items.filter((item) => ITEM_FIELDS.some((field) => itemCell(item, field, overwrites).changed));
  if (changedItems.length) out.push(renderChangedItems(changedItems, stream, color, overwrites));
  const image = diff.displayImage;
  const imageOverwrite = overwrites.get(overwriteKey(null, "display image"));
  if (imageChanged(diff) || imageOverwrite) {
    const sent = imageOverwrite?.sent === "attached" ? "attached one" : "removed it";
    const mark = imageOverwrite ? ` (another writer's; this change ${sent})` : "";
    // Wrapped between words: a URL too long for the line starts one of its own, whole.
    const shown = (text: string) => wrapWords(printedText(text), stream.columns, "image  ".length);
    out.push(`${s.bold("image")}  ${shown(describeImage(image.before))}\n     → ${shown(`${describeImage(image.after)}${mark}`)}\n`);
  }
  const totals = changedTotals(diff).map((total) => `${total.label} ${shownValue(printedPair(total))} ${total.unit}`);
  // The totals read back hold the other writer's values too.
  const indent = "totals  ".length;
  // Overwritten: a heading of its own line says the totals hold the other writer's values too.
  const heading = overwritten.length
    ? `${s.bold("totals (now, another writer's values included)")}\n${" ".repeat(indent)}`
    : `${s.bold("totals")}  `;
  if (totals.length) out.push(`${heading}${joinToWidth(totals, " · ", stream.columns, indent)}\n`);
  if (!out.length) out.push(`intake ${diff.imageId}: no change\n`);
  return out.join("");
}

/**
 * One line for the warning: which requested modifiers did not take effect, at which positions,
 * and the likely cause (docs/api.md, update rule 2: item-level modifiers need the Monitor plan or higher).
 */
export function describeIgnored(imageId: number, ignored: IgnoredModifier[]): string {
  const byField = new Map<string, IgnoredModifier[]>();
  for (const entry of ignored) byField.set(entry.field, [...(byField.get(entry.field) ?? []), entry]);
  const parts = [...byField].map(([field, entries]) => {
    const requested = [...new Set(entries.map((entry) => entry.requested))].join("/");
    const positioned = entries.filter((entry) => entry.position !== null);
    const where = positioned.length
      ? ` at position${positioned.length > 1 ? "s" : ""} ${positioned.map((entry) => entry.position).join(", ")}`
      : "";
    const actual = [...new Set(entries.map((entry) => entry.actual ?? "unset"))].join("/");
    return `${field} ${requested}${where} (still ${actual})`;
  });
  const itemLevel = ignored.some((entry) => entry.position !== null);
  const cause = itemLevel
    ? "the user's plan is probably below Monitor, which item-level salt, sugar, oil and measures need"
    : "the server did not apply them";
  return `intake ${imageId}: ${parts.join("; ")} did not take effect: ${cause}`;
}

/** A field with its position: "manual1 grams", "grams" (a recognition-only intake), "display image". */
function fieldAt(position: string | null, field: string): string {
  return position === null ? field : `${position} ${field}`;
}

/** "intake 1004: another writer changed what this change set meanwhile: manual1 grams sent 60, now 90". */
export function describeOverwritten(imageId: number, overwritten: readonly Overwritten[]): string {
  const fields = overwritten.map((field) => `${fieldAt(field.position, field.field)} sent ${field.sent}, now ${field.now}`);
  return `intake ${imageId}: another writer changed what this change set meanwhile: ${fields.join("; ")}`;
}

/** "intake 1004: changed by someone else meanwhile: manual2 grams 80 → 95". */
export function describeOthersChanged(imageId: number, changes: readonly OthersChange[]): string {
  const fields = changes.map((change) => `${fieldAt(change.position, change.field)} ${change.was} → ${change.now}`);
  return `intake ${imageId}: changed by someone else meanwhile (not by this change): ${fields.join("; ")}`;
}

/** "intake 1002 already has 150 g at position 1 and salt low at positions 1, 2": the values a change did not send. */
export function describeUnchanged(imageId: number, held: readonly HeldValue[]): string {
  return `intake ${imageId} already has ${describeHeld(held)}`;
}

/** "150 g at position 1 and salt low at positions 1, 2". */
export function describeHeld(held: ReadonlyArray<Pick<HeldValue, "position" | "value"> & { field: string }>): string {
  const byValue = new Map<string, Array<string | null>>();
  for (const { position, field, value } of held) {
    const what = field === "quantity" ? `${position === null ? "a total of " : ""}${formatAmount(Number(value))} g` : `${field} ${value}`;
    byValue.set(what, [...(byValue.get(what) ?? []), position]);
  }
  const parts = [...byValue].map(([what, positions]) => {
    const named = positions.filter((position) => position !== null);
    return named.length ? `${what} at position${named.length > 1 ? "s" : ""} ${named.join(", ")}` : what;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
}
