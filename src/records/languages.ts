/**
 * The languages the service answers in (docs/api.md, language): ISO 639-2/T codes, as its
 * reference pages list them and `GET /v2/info/languages` serves them. The CLI checks
 * `--language` against this list; the sandbox answers 400 for any other code.
 */
export const LANGUAGES = [
  { code: "spa", name: "Spanish" },
  { code: "eng", name: "English" },
  { code: "fre", name: "French" },
  { code: "ita", name: "Italian" },
  { code: "nld", name: "Dutch" },
  { code: "ger", name: "German" },
  { code: "gre", name: "Greek" },
  { code: "tur", name: "Turkish" },
  { code: "heb", name: "Hebrew" },
  { code: "cat", name: "Catalan" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];

export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((language) => language.code);

export function isLanguageCode(value: string): value is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(value);
}

/** A code the service does not list, in one line naming the ten. */
export function languageProblem(value: string): string | null {
  return isLanguageCode(value) ? null : `"${value}" is not a language the service answers in: use one of ${LANGUAGE_CODES.join(", ")}`;
}

/** Where the service serves this list (its reference pages). */
export const LANGUAGES_ROUTE = "/v2/info/languages";
