/** `intake show --nutrients all`: every nutrient code, per intake and per item. Data in, text out. */
import type { Intake } from "../records/intake.js";
import { formatAmount } from "../intake/amounts.js";
import type { OutputStream } from "../io.js";
import { readNutrientGroups } from "../intake/items.js";
import { renderTable, renderTsv, type Cell } from "./table.js";

export const NUTRIENT_HEAD = ["scope", "code", "label", "quantity", "unit"];

/** On a terminal a table (scope `total` or the item's position); piped, `nutrient` rows: scope, code, label, quantity, unit. */
export function renderAllNutrients(intake: Intake, stream: OutputStream, color: boolean): string {
  const rows: Cell[][] = readNutrientGroups(intake).flatMap((group) =>
    group.nutrients.map((nutrient) => [group.scope, nutrient.code, nutrient.label, formatAmount(nutrient.quantity, 2), nutrient.unit]),
  );
  if (!stream.isTTY) return renderTsv(rows.map((row) => ["nutrient", ...row]));
  if (rows.length === 0) return "nutrients  none in the answer\n";
  return `\n${renderTable(stream, { head: NUTRIENT_HEAD, rows, alignRight: [3], color })}`;
}
