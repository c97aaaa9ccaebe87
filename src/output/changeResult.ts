/** Printing a change: the dry-run request, and the before → after of a verified change. */
import { formatAmount } from "../intake/amounts.js";
import type { OutputStream } from "../io.js";
import type { IgnoredModifier, IntakeDiff, Pair } from "../intake/diff.js";
import { jsonDocument } from "../sanitize.js";
import { styler } from "./style.js";
import { cutToWidth, joinToWidth, oneLine, renderTable, renderTsv, type Cell } from "./table.js";

export interface DryRunRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export function renderDryRun(request: DryRunRequest, json: boolean): string {
  if (json) return jsonDocument({ dry_run: true, request });
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const head = `${request.method} ${request.url}\n${headers.join("\n")}\n`;
  if (request.body === null || request.body === undefined) return head; // a DELETE has no body
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body, null, 2);
  return `${head}\n${body}\n`;
}

const formatAmountChange = (pair: Pair<number | null>) =>
  pair.before === pair.after || formatAmount(pair.before) === formatAmount(pair.after)
    ? formatAmount(pair.after)
    : `${formatAmount(pair.before)} → ${formatAmount(pair.after)}`;
const formatTextChange = (pair: Pair<string | null>) =>
  pair.before === pair.after ? (pair.after ?? "-") : `${pair.before ?? "-"} → ${pair.after ?? "-"}`;

export function renderDiff(diff: IntakeDiff, stream: OutputStream, color: boolean): string {
  const s = styler(color);
  const out: string[] = [];
  const changedItems = diff.items.filter((item) => item.changed);
  if (changedItems.length) {
    const rows: Cell[][] = changedItems.map((item) => [
      item.position ?? "-",
      item.food,
      formatAmountChange(item.grams),
      formatTextChange(item.salt),
      formatTextChange(item.sugar),
      formatTextChange(item.oil),
      formatTextChange(item.measures),
      formatAmountChange(item.kcal),
    ]);
    // Piped, each row is tagged like `intake show`'s rows, so a script can pick lines by kind.
    const head = ["position", "food", "grams", "salt", "sugar", "oil", "measures", "kcal"];
    out.push(
      stream.isTTY
        ? renderTable(stream, { head, rows, alignRight: [2, 7], flexible: [1], color })
        : renderTsv(rows.map((row) => ["item", ...row])),
    );
  }
  const image = diff.displayImage;
  if (JSON.stringify(image.before) !== JSON.stringify(image.after)) {
    const describe = (state: typeof image.before) =>
      `${state.attached ? "display image" : "normal image"} ${state.url ?? "-"}${state.width !== null ? ` (${state.width}×${state.height})` : ""}`;
    if (stream.isTTY) {
      // Before and after on a line each, cut to the terminal's width like `intake show`'s (`--wide` shows them whole).
      const width = stream.columns === undefined ? undefined : stream.columns - "image  → ".length;
      const cut = (state: typeof image.before) => cutToWidth(oneLine(describe(state)), width);
      out.push(`${s.bold("image")}  ${cut(image.before)}\n     → ${cut(image.after)}\n`);
    } else out.push(`image\t${describe(image.before)} → ${describe(image.after)}\n`);
  }
  const totals = diff.totals.filter((total) => formatAmount(total.before) !== formatAmount(total.after));
  if (totals.length) {
    const text = totals.map((total) => `${total.label} ${formatAmountChange(total)} ${total.unit}`);
    out.push(
      stream.isTTY
        ? `${s.bold("totals")}  ${joinToWidth(text, " · ", stream.columns, "totals  ".length)}\n`
        : totals
            .map((total) => `total\t${total.label}\t${formatAmount(total.before)}\t${formatAmount(total.after)}\t${total.unit}\n`)
            .join(""),
    );
  }
  // Nothing changed: a terminal says so here; piped output stays empty (the caller notes it on stderr).
  if (!out.length && stream.isTTY) out.push(`intake ${diff.imageId}: no change\n`);
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
