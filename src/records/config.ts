/**
 * The config file's one definition: `{ profiles: { <name>: Profile } }`. Unknown keys are dropped.
 * Every run reads the file through the plain check in `src/config/check.ts` instead (zod costs start-up
 * time); test/unit/configCheck.test.ts pins the two together.
 */
import * as z from "zod/mini";

const positiveInt = () => z.number().check(z.int(), z.positive());

export const ProfileSchema = z.object({
  "api-url": z.optional(z.string()),
  user: z.optional(positiveInt()),
  timeout: z.optional(z.number().check(z.positive())),
  token: z.optional(z.string()),
  journal: z.optional(z.boolean()),
  "journal-days": z.optional(positiveInt()),
});

export const ConfigFileSchema = z.object({ profiles: z.optional(z.record(z.string(), ProfileSchema)) });

export type Profile = z.infer<typeof ProfileSchema>;
