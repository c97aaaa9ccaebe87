/** `foodctl help exit-codes`: when each code of src/errors.ts comes. */
import { EXIT, EXIT_MEANINGS } from "../errors.js";
import { HELP_TOPIC_SUMMARIES } from "../help.js";
import { para, type HelpTopic } from "./topic.js";

/** When each exit code comes (its number and name are src/errors.ts's). */
const EXIT_DETAILS: Record<keyof typeof EXIT, string> = {
  ok: "Success.",
  failure: para(`
An unexpected failure: a bug, an unreadable response; intake apply when stdout closed during the
run.
`),
  usage: "Bad flags, arguments, input file or config. Nothing was sent.",
  cancelled: "The answer at a prompt was no; intake edit whose editor failed or whose file was emptied.",
  auth: "No token, a malformed or expired token, or HTTP 401.",
  forbidden: "HTTP 403.",
  notFound: "HTTP 404; sandbox stop with no sandbox recorded, or of one already stopped.",
  rejected: para(`
The operation does not apply to this intake (known after reading it; no change sent), undo of an
intake that changed since, or another HTTP 4xx.
`),
  unavailable: para(`
Network error, timeout, 429 or 5xx after retries; a sandbox that cannot listen (port in use).
`),
  partial: "A batch in which some changes failed (intake apply, undo --batch).",
  interrupted: para(`
Ctrl-C (SIGINT) or SIGTERM, also at a prompt: both stop the run the same way, and a second signal
ends it at once.
`),
};

export const exitCodes: HelpTopic = {
  name: "exit-codes",
  summary: HELP_TOPIC_SUMMARIES["exit-codes"],
  sections: [
    {
      paragraphs: [
        para(`
Every command ends with one of these codes; scripts can rely on them. The HTTP status decides the
code, never the service's own error number. Under --json an error is one JSON line on stderr with
its exit_code.
`),
      ],
      items: (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((name) => ({
        term: `${EXIT[name]} ${EXIT_MEANINGS[name]}`,
        description: EXIT_DETAILS[name],
      })),
    },
    {
      heading: "Examples",
      examples: `
        foodctl intake show 9999 || echo "exit $?"
        foodctl intake show 9999 --json 2>&1 >/dev/null | jq .error.exit_code
      `,
    },
  ],
};
