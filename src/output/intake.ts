/** Presenters for intakes: data in, text out. Only the io decides terminal and colour. */
import type { Intake } from "../records/intake.js";
import type { OutputStream } from "../io.js";
import { KIND_LABELS } from "../intake/kinds.js";
import { intakeKind, readItems, readTotals } from "../intake/items.js";
import { formatAmount } from "./format.js";
import { styler } from "./style.js";
import { cutToWidth, joinToWidth, oneLine, renderTable, renderTsv, type Cell } from "./table.js";
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

/** The list's header on a terminal: narrow cells (times in UTC to the minute, short kinds) so 80 columns hold a row. */
export const LIST_HEAD = ["id", "time (UTC)", "occasion", "kind", "foods", "kcal", "disp. img"];

export function listRows(intakes: Intake[], tty: boolean): Cell[][] {
  return intakes.map((intake) => [
    intake.image_id,
    tty ? formatUtcMinute(intake.timestamp) : formatTime(intake.timestamp, false),
    intake.occasion ?? "-",
    tty ? intakeKind(intake) : KIND_LABELS[intakeKind(intake)],
    (intake.foodName ?? []).join(", ") || "-",
    formatAmount(readTotals(intake)[0]?.value ?? null),
    intake.has_display_image ? "yes" : "no",
  ]);
}

export function renderIntakeList(intakes: Intake[], stream: OutputStream, color: boolean): string {
  const tty = stream.isTTY === true;
  return renderTable(stream, { head: LIST_HEAD, rows: listRows(intakes, tty), alignRight: [0, 5], flexible: [4], color });
}
