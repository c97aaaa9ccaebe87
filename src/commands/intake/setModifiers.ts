import type { Intake } from "../../api/schemas.js";
import type { Context } from "../../context.js";
import { rejectedError, usageError } from "../../errors.js";
import { intakePositions } from "../../intake/items.js";
import { readIntakeKind } from "../../intake/kinds.js";
import { parseImageIdArg } from "../args.js";
import { runIntakeUpdate } from "./change.js";
import type { ChangeFlags } from "../spec.js";
import { checkModifierFlags, checkPositionArgs, type ModifierFlags, type ModifierLevels } from "./changeArgs.js";
import { reportChange } from "./report.js";

const FIELDS = ["salt", "sugar", "oil", "measures"] as const;

export interface SetModifiersOptions extends ChangeFlags {
  imageId: string;
  positions: string[];
  levels: ModifierFlags;
  allItems: boolean;
}

export async function setModifiersCommand(ctx: Context, options: SetModifiersOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const levels = checkModifierFlags(options.levels);
  const positions = checkPositionArgs(options.positions);
  const allItems = options.allItems;
  if (allItems && positions.length) throw usageError("give positions or --all-items, not both");

  const client = await ctx.client();
  const before = (await client.getIntake(imageId)).data.intake_info;
  const fields = buildModifierFields(before, levels, positions, allItems);
  const outcome = await runIntakeUpdate(client, imageId, fields, { dryRun: options.dryRun, verify: options.verify, precheck: true, before });
  return reportChange(ctx, outcome, { strict: options.strict, action: "modifier change" });
}

/** The update body for these levels on this intake; refuses what its kind cannot take. */
export function buildModifierFields(intake: Intake, levels: ModifierLevels, positions: string[], allItems: boolean): Record<string, unknown> {
  const kind = readIntakeKind(intake);
  const known = intakePositions(intake);
  if (kind === "unknown" && (allItems || !positions.length)) {
    throw rejectedError(`intake ${intake.image_id} does not tell its kind yet (no recipe, no per-item nutrition): whole-intake levels are not guessed`, {
      hint: "name the positions to change (e.g. `1 --salt low`); nothing was sent",
    });
  }
  if (allItems && known.length === 0) {
    throw rejectedError(`intake ${intake.image_id} lists no items for --all-items`, { hint: "name the positions; nothing was sent" });
  }
  if (kind === "recognition") {
    if (positions.length) {
      const hint = "drop the positions; salt and sugar apply to the whole intake";
      throw rejectedError(`intake ${intake.image_id} is recognition-only: it has no item positions`, { hint });
    }
    for (const name of ["oil", "measures"] as const) {
      if (levels[name] === undefined) continue;
      throw rejectedError(`intake ${intake.image_id} is recognition-only: --${name} applies only to itemized intakes`, { hint: "nothing was sent" });
    }
    const fields: Record<string, unknown> = {};
    if (levels.salt !== undefined) fields.salt = levels.salt;
    if (levels.sugar !== undefined) fields.sugar = levels.sugar;
    return fields;
  }
  if (!positions.length && !allItems) {
    throw usageError(`intake ${intake.image_id} is itemized: name the positions (${known.join(", ")}) or use --all-items`);
  }
  const targets = allItems ? known : positions;
  const fields: Record<string, unknown> = {};
  for (const name of FIELDS) {
    const level = levels[name];
    if (level !== undefined) fields[name] = Object.fromEntries(targets.map((position) => [position, level]));
  }
  return fields;
}
