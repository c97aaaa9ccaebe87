/** `foodctl help formatting`: output on a terminal, piped and with --json. */
import { HELP_TOPIC_SUMMARIES } from "../help.js";
import { para, type HelpTopic } from "./topic.js";

export const formatting: HelpTopic = {
  name: "formatting",
  summary: HELP_TOPIC_SUMMARIES.formatting,
  sections: [
    {
      paragraphs: [
        para(`
Stdout carries only the result; messages, warnings, progress and errors go to stderr. What the
result looks like depends on where stdout goes.
`),
      ],
    },
    {
      heading: "On a terminal",
      paragraphs: [
        para(`
Tables with a header and colour, fitted to the terminal's width: long cells are cut with … first,
then the widest columns; --wide shows every cell whole. Times are in the user's zone (--tz) and name
it.
`),
      ],
    },
    {
      heading: "Piped",
      paragraphs: [
        para(`
The same rows tab-separated, without header, rule or colour; a tab or line break inside a cell
becomes a space. Times are RFC 3339, with the offset of the user's zone under --tz, else in UTC (Z).
Ready for cut, awk and sort.
`),
      ],
    },
    {
      heading: "--json",
      paragraphs: [
        para(`
          Exactly one JSON document on stdout (JSON Lines for intake apply); a server's answer is printed as
          received, with control characters escaped. Errors become one line on stderr:
          {"error": {"code", "exit_code", "status", "service_code", "message", "hint"}}.
        `),
      ],
    },
    {
      heading: "Colour",
      paragraphs: [
        para(`
Decided once per run: only on a terminal, and never with --no-color, a non-empty NO_COLOR or
TERM=dumb; FORCE_COLOR (other than 0 or false) turns it on anywhere.
`),
      ],
    },
    {
      heading: "Widths",
      paragraphs: [
        para(`
Tables fit the terminal's width. Help wraps at COLUMNS when set, else at the terminal's width, else
at 80 columns; below about 60 columns an option's description goes on the lines under it.
`),
      ],
    },
    {
      heading: "The pager",
      paragraphs: [
        para(`
Output longer than the screen goes through a pager on a terminal: FOODCTL_PAGER, else PAGER, else
less -FRX when it exists. --no-pager and an empty FOODCTL_PAGER turn it off; it never runs when
stdout is not a terminal or with --json. Quitting the pager early is a normal end (exit 0).
`),
      ],
    },
    {
      heading: "Examples",
      examples: `
        foodctl intake list --from 2026-11-01 | awk -F'\\t' '$4 == "manual" {print $1}'
        foodctl intake show 1002 --json | jq .intake_info.serving_size
        foodctl intake show 1002 --wide --no-color
        FOODCTL_PAGER= foodctl journal
      `,
    },
  ],
};
