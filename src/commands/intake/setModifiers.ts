import { checkUpdateFields, runIntakeUpdate } from "../../change/intakeUpdate.js";
import type { Context } from "../../context.js";
import { rejectedError, usageError } from "../../errors.js";
import { intakePositions } from "../../intake/items.js";
import { buildModifierFields, itemModifierFields, modifierArgumentProblem, type ModifierLevels } from "../../intake/modifiers.js";
import { shellQuote } from "../../sanitize.js";
import { parseImageIdArg } from "../args.js";
import { openJournal } from "../journaled.js";
import { reportChange } from "../reportChange.js";
import type { ChangeFlags } from "../spec.js";
import { checkModifierFlags, uniquePositions, type ModifierFlags } from "./changeArgs.js";

export interface SetModifiersOptions extends ChangeFlags {
  imageId: string;
  positions: string[];
  levels: ModifierFlags;
  allItems: boolean;
}

export async function setModifiersCommand(ctx: Context, options: SetModifiersOptions): Promise<number> {
  const imageId = parseImageIdArg(options.imageId);
  const levels = checkModifierFlags(options.levels);
  const positions = uniquePositions(options.positions);
  // Named positions are judged as the fields they become on an itemized intake, before anything is read.
  if (positions.length) checkUpdateFields(imageId, itemModifierFields(levels, positions));
  const allItems = options.allItems;
  // What the arguments alone rule out is a usage error before any request (docs/cli.md, exit codes).
  const argumentProblem = modifierArgumentProblem(positions, allItems, levels, everyItemCommand(ctx, imageId, levels, options));
  if (argumentProblem) throw usageError(argumentProblem.message, { hint: argumentProblem.hint });

  const client = await ctx.client();
  if (!options.dryRun) client.refuseQuantityChangeByRole();
  const before = (await client.getIntake(imageId)).data.intake_info;
  // What only the intake shows (its kind, its positions) is a refusal: it was read, no change was sent.
  const built = buildModifierFields(before, intakePositions(before), levels, positions, allItems);
  if (built.problem) throw rejectedError(built.problem.message, { hint: built.problem.hint });
  const journal = await openJournal(ctx, "intake set-modifiers");
  const changeOptions = { dryRun: options.dryRun, verify: options.verify, precheck: true, before, journal };
  const outcome = await runIntakeUpdate(client, imageId, built.fields, changeOptions);
  return reportChange(ctx, outcome, { strict: options.strict, action: "modifier change", curl: options.curl });
}

/** The same change on every item, with the same change flags, profile and user: `foodctl intake set-modifiers 1002 --all-items --oil high`. */
function everyItemCommand(ctx: Context, imageId: number, levels: ModifierLevels, flags: ChangeFlags): string {
  const { profile, user } = ctx.globals;
  const given = (name: string, value: string | undefined) => (value === undefined ? [] : [`--${name} ${shellQuote(value)}`]);
  const words = [
    ...(["salt", "sugar", "oil", "measures"] as const).flatMap((name) => given(name, levels[name])),
    ...(flags.strict ? ["--strict"] : []),
    ...(flags.dryRun ? ["--dry-run"] : []),
    ...(flags.curl ? ["--curl"] : []),
    ...(flags.verify ? [] : ["--no-verify"]),
    ...given("profile", profile),
    ...given("user", user),
  ];
  return ["foodctl intake set-modifiers", imageId, "--all-items", ...words].join(" ");
}
