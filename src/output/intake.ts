/** Presenters for intakes: data in, text out. Only the io decides terminal and colour. */
import type { Intake } from "../records/intake.js";
import { formatAmount } from "../intake/amounts.js";
import type { OutputStream } from "../io.js";
import { foodNames, KIND_LABELS } from "../intake/kinds.js";
import { intakeKind, readItems, readTotals } from "../intake/items.js";
import { styler } from "./style.js";
import { COLUMN_GAP, cutToWidth, joinToWidth, naturalWidths, oneLine, printedText, renderTable, renderTsv, type Cell } from "./table.js";
import { formatTime, formatUtcMinute } from "./time.js";

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

/** `intake show` for people: summary, items, totals. Piped: key\tvalue lines, then item and total rows. */
export function renderIntake(intake: Intake, stream: OutputStream, color: boolean): string {
  const tty = stream.isTTY === true;
  const s = styler(color);
  const kind = KIND_LABELS[intakeKind(intake)];
  const summary: Array<[string, string]> = [
    ["image_id", String(intake.image_id)],
    ["kind", kind],
    ["time", formatTime(intake.timestamp, tty)],
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
  // Long values (URLs, comments) are cut to the terminal's width; `--wide` shows them whole.
  const valueWidth = stream.columns === undefined ? undefined : stream.columns - width - 2;
  const lines = summary.map(([key, value]) => `${s.bold(key.padEnd(width))}  ${cutToWidth(oneLine(value), valueWidth)}`);
  const items = renderTable(stream, { head: ITEM_HEAD, rows: itemRows(intake), alignRight: [2, 7], flexible: [1], color });
  const totalParts = totals.map((total) => `${total.label} ${formatAmount(total.value)} ${total.unit}`);
  const totalLine = joinToWidth(totalParts, " · ", stream.columns, "totals  ".length);
  return `${lines.join("\n")}\n\n${items}${s.bold("totals")}  ${totalLine}\n`;
}

/** The list's header on a terminal: narrow cells (times in UTC to the minute, short kinds) leave the room to the foods. */
export const LIST_HEAD = ["id", "time (UTC)", "occasion", "kind", "foods", "kcal", "display"];
const FOODS_COLUMN = 4;

export function listRows(intakes: Intake[], tty: boolean): Cell[][] {
  return intakes.map((intake) => [
    intake.image_id,
    tty ? formatUtcMinute(intake.timestamp) : formatTime(intake.timestamp, false),
    intake.occasion ?? "-",
    tty ? intakeKind(intake) : KIND_LABELS[intakeKind(intake)],
    foodsText(intake),
    formatAmount(readTotals(intake)[0]?.value ?? null),
    intake.has_display_image ? "yes" : "no",
  ]);
}

const foodsText = (intake: Intake) => foodNames(intake).join(", ") || "-";

/**
 * One row per intake. On a terminal too narrow for the whole row, the foods move to a line of
 * their own under it, wrapped between foods: every name stays whole at 80 columns.
 */
export function renderIntakeList(intakes: Intake[], stream: OutputStream, color: boolean): string {
  const tty = stream.isTTY === true;
  const rows = listRows(intakes, tty);
  const widths = naturalWidths(LIST_HEAD, rows);
  const rowWidth = widths.reduce((sum, width) => sum + width, COLUMN_GAP * (LIST_HEAD.length - 1));
  if (!tty || stream.columns === undefined || rowWidth <= stream.columns) {
    return renderTable(stream, { head: LIST_HEAD, rows, alignRight: [0, 5], color });
  }
  const withoutFoods = <T>(row: T[]) => row.filter((_, index) => index !== FOODS_COLUMN);
  const table = renderTable(stream, { head: withoutFoods(LIST_HEAD), rows: rows.map(withoutFoods), alignRight: [0, 4], color });
  // The table's lines: its header, the rule, one line per intake.
  const [head = "", rule = "", ...rowLines] = table.trimEnd().split("\n");
  const indent = " ".repeat((widths[0] ?? 0) + COLUMN_GAP);
  const foodLines = intakes.map((intake) => {
    const foods = foodNames(intake).map(printedText);
    return indent + joinToWidth(foods.length ? foods : ["-"], ", ", stream.columns, indent.length);
  });
  const lines = [head, indent + styler(color).bold("foods"), rule, ...rowLines.flatMap((line, index) => [line, foodLines[index] ?? ""])];
  return `${lines.join("\n")}\n`;
}
