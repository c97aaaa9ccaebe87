/** Presenters for intakes: data in, text out. Only the io decides terminal and colour. */
import type { UnreadableRecord } from "../api/client.js";
import type { Intake, PeriodTotals } from "../records/intake.js";
import { formatAmount } from "../intake/amounts.js";
import type { OutputStream } from "../io.js";
import { foodNames, KIND_LABELS, readIntakeKind } from "../intake/kinds.js";
import { readItems, readTotals } from "../intake/items.js";
import { styler } from "./style.js";
import {
  COLUMN_GAP,
  fitColumnWidths,
  joinToWidth,
  wrapWords,
  naturalWidths,
  oneLine,
  printedText,
  renderTable,
  renderTsv,
  type Cell,
} from "./table.js";
import { formatInstant, formatMinute, formatTime } from "./time.js";

export function displayImageText(intake: Intake): string {
  const size = intake.processed_image_size;
  const dims = size ? ` (${size.width}×${size.height})` : "";
  if (intake.has_display_image) return `attached: ${intake.image_url ?? "-"}${dims}`;
  const editable = intake.can_edit_display_image ? "none (can attach)" : "not editable (not a manual intake)";
  return `${editable}; image: ${intake.image_url ?? "-"}${dims}`;
}

export function itemRows(intake: Intake): Cell[][] {
  return readItems(intake).map((item) => [
    item.position ?? "-",
    item.food,
    formatAmount(item.grams),
    item.salt ?? "-",
    item.sugar ?? "-",
    item.oil ?? "-",
    item.measures ?? "-",
    formatAmount(item.kcal),
  ]);
}

export const ITEM_HEAD = ["position", "food", "grams", "salt", "sugar", "oil", "measures", "kcal"];

/**
 * `intake show` for people: summary, items, totals. Piped: key\tvalue lines, then item and total
 * rows. The time is in `zone` (the user's, from --tz) when named, else UTC.
 */
export function renderIntake(intake: Intake, stream: OutputStream, color: boolean, clock: { zone: string | null; now: number }): string {
  const tty = stream.isTTY === true;
  const s = styler(color);
  const kind = KIND_LABELS[readIntakeKind(intake)];
  const summary: Array<[string, string]> = [
    ["image_id", String(intake.image_id)],
    ["kind", kind],
    ["time", formatTime(intake.timestamp, tty, clock.now, clock.zone)],
    ["occasion", intake.occasion ?? "-"],
    ["comment", intake.user_comment ?? "-"],
    ["display image", displayImageText(intake)],
  ];
  const totals = readTotals(intake);
  if (!tty) {
    return (
      renderTsv(summary) +
      renderTsv(itemRows(intake).map((row) => ["item", ...row])) +
      renderTsv(totals.map((total) => ["total", total.label, formatAmount(total.value), total.unit]))
    );
  }
  const width = Math.max(...summary.map(([key]) => key.length));
  // Long values (URLs, comments) wrap between words under their key, never cut (`wrapWords`).
  const lines = summary.map(([key, value]) =>
    `${s.bold(key.padEnd(width))}  ${wrapWords(oneLine(value), stream.columns, width + 2)}`.trimEnd(),
  );
  const items = renderTable(stream, { head: ITEM_HEAD, rows: itemRows(intake), alignRight: [2, 7], flexible: [1], whole: [0], color });
  const totalParts = totals.map((total) => `${total.label} ${formatAmount(total.value)} ${total.unit}`);
  const totalLine = joinToWidth(totalParts, " · ", stream.columns, "totals  ".length);
  return `${lines.join("\n")}\n\n${items}${s.bold("totals")}  ${totalLine}\n`;
}

/**
 * The list's header: narrow cells on a terminal (times to the minute in the zone the header
 * names, short kinds) leave the room to the foods.
 */
export function listHead(zone: string | null): string[] {
  return ["id", `time (${zone ?? "UTC"})`, "occasion", "kind", "foods", "kcal", "display"];
}
const FOODS_COLUMN = 4;

/** A list's entries in its order: the records read, and those that failed their check where they stood. */
export type ListEntry = { intake: Intake } | { unreadable: UnreadableRecord };

function listEntries(intakes: Intake[], unreadable: UnreadableRecord[] = []): ListEntry[] {
  const entries: ListEntry[] = intakes.map((intake) => ({ intake }));
  for (const record of [...unreadable].sort((a, b) => a.index - b.index)) entries.splice(record.index, 0, { unreadable: record });
  return entries;
}

export function listRows(entries: ListEntry[], tty: boolean, zone: string | null = null): Cell[][] {
  return entries.map((entry) => {
    if ("unreadable" in entry) {
      const { imageId, problem } = entry.unreadable;
      return [imageId ?? "?", "-", "-", "unreadable", `(unreadable: ${problem})`, "-", "-"];
    }
    const { intake } = entry;
    return [
      intake.image_id,
      tty ? formatMinute(intake.timestamp, zone) : formatInstant(intake.timestamp, zone),
      intake.occasion ?? "-",
      tty ? readIntakeKind(intake) : KIND_LABELS[readIntakeKind(intake)],
      foodsText(intake),
      formatAmount(readTotals(intake)[0]?.value ?? null),
      intake.has_display_image ? "yes" : "no",
    ];
  });
}

const foodsText = (intake: Intake) => foodNames(intake).join(", ") || "-";

/** The period's totals under the list's table, on a terminal: what the answer gives, in the order calories, carbs, fat, protein. */
export function renderPeriodTotals(totals: PeriodTotals, stream: OutputStream, color: boolean): string {
  const parts = [
    ["calories", totals.calories, "kcal"],
    ["carbs", totals.carbohydrates, "g"],
    ["fat", totals.fat, "g"],
    ["protein", totals.protein, "g"],
  ] as const;
  const given = parts
    .filter(([, value]) => typeof value === "number")
    .map(([name, value, unit]) => `${name} ${formatAmount(value ?? null)} ${unit}`);
  if (given.length === 0) return "";
  return `${styler(color).bold("totals")}  ${joinToWidth(given, " · ", stream.columns, "totals  ".length)}\n`;
}

/**
 * One row per intake. On a terminal too narrow for the whole row, the foods move to a line of
 * their own under it, wrapped between foods: every name stays whole at 80 columns.
 */
export function renderIntakeList(
  intakes: Intake[],
  stream: OutputStream,
  color: boolean,
  options: { zone?: string | null; unreadable?: UnreadableRecord[] } = {},
): string {
  const zone = options.zone ?? null;
  const entries = listEntries(intakes, options.unreadable);
  const tty = stream.isTTY === true;
  const rows = listRows(entries, tty, zone);
  const LIST_HEAD = listHead(zone);
  const widths = naturalWidths(LIST_HEAD, rows);
  const rowWidth = widths.reduce((sum, width) => sum + width, COLUMN_GAP * (LIST_HEAD.length - 1));
  // The id, the time and kcal are never cut (without the foods, kcal is the fifth column).
  const whole = [1];
  const withoutFoods = <T>(row: T[]) => row.filter((_, index) => index !== FOODS_COLUMN);
  const rest = { head: withoutFoods(LIST_HEAD), rows: rows.map(withoutFoods), alignRight: [0, 4], whole, color };
  // Too narrow even with the foods apart: one intake per block (renderTable), foods and all.
  const apart = fitColumnWidths(rest.head, rest.rows, stream.columns, [], [...rest.whole, ...rest.alignRight]) !== null;
  if (!tty || stream.columns === undefined || rowWidth <= stream.columns || !apart) {
    return renderTable(stream, { head: LIST_HEAD, rows, alignRight: [0, 5], whole, flexible: [FOODS_COLUMN], color });
  }
  const table = renderTable(stream, rest);
  // The table's lines: its header, the rule, one line per intake.
  const [head = "", rule = "", ...rowLines] = table.trimEnd().split("\n");
  const indent = " ".repeat((widths[0] ?? 0) + COLUMN_GAP);
  const foodLines = entries.map((entry) => {
    if ("unreadable" in entry) return indent + printedText(`(unreadable: ${entry.unreadable.problem})`);
    const foods = foodNames(entry.intake).map(printedText);
    return indent + joinToWidth(foods.length ? foods : ["-"], ", ", stream.columns, indent.length);
  });
  const lines = [head, indent + styler(color).bold("foods"), rule, ...rowLines.flatMap((line, index) => [line, foodLines[index] ?? ""])];
  return `${lines.join("\n")}\n`;
}
