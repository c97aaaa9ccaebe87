/**
 * The config file's one definition: `{ profiles: { <name>: Profile } }`. A profile keeps keys it
 * does not know (a newer foodctl's settings survive an older one's write). Every run checks the
 * file with the validator compiled from this schema (./compiled.ts); a refusal quotes the
 * description of the wrong value's place: what it must be, never the value (it may be a token).
 */
import * as z from "zod/mini";

const positiveInt = () => z.number().check(z.int(), z.positive(), z.describe("a positive whole number"));

export const ProfileSchema = z
  .looseObject({
    "api-url": z.optional(z.string().check(z.describe("a URL in quotes"))),
    user: z.optional(positiveInt()),
    timeout: z.optional(z.number().check(z.positive(), z.describe("a positive number of seconds"))),
    token: z.optional(z.string().check(z.describe("a token in quotes"))),
    journal: z.optional(z.boolean().check(z.describe("true or false"))),
    "journal-days": z.optional(positiveInt()),
    timezone: z.optional(z.string().check(z.describe("an IANA time zone name in quotes"))),
    language: z.optional(z.string().check(z.describe('a language code in quotes, such as "spa"'))),
  })
  .check(z.describe("an object of settings"));

export const ConfigFileSchema = z.object({
  profiles: z.optional(z.record(z.string(), ProfileSchema).check(z.describe("an object of profiles"))),
});

export type Profile = z.infer<typeof ProfileSchema>;
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
