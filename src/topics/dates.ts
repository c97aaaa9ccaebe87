/** `foodctl help dates`: the forms dates and zones take (every date option reads them). */
import { HELP_TOPIC_SUMMARIES } from "../help.js";
import { para, type HelpTopic } from "./topic.js";

export const dates: HelpTopic = {
  name: "dates",
  summary: HELP_TOPIC_SUMMARIES.dates,
  sections: [
    {
      paragraphs: [
        para(`
Every option that takes a date (intake list --from and --to, journal --since and --until) reads the
same forms, on the end user's clock: the zone --tz, FOODCTL_TZ or the profile's timezone names, else
UTC.
`),
      ],
    },
    {
      heading: "Forms",
      items: [
        { term: "2026-11-03", description: "A calendar day (YYYY-MM-DD) in the user's zone." },
        {
          term: "2026-11-03T12:00:00Z",
          description: para(`
An ISO 8601 time with an offset (Z, +09:00, -05:00): that instant, shown in the user's zone.
`),
        },
        { term: "today, yesterday", description: "Those calendar days in the user's zone." },
        { term: "monday … sunday", description: "The latest such day, today included." },
        { term: "last week, this week, last month", description: "Calendar weeks, Monday to Sunday, and calendar months." },
        { term: "3 days ago, 2 weeks ago", description: "That calendar day, counted back from today." },
        { term: "yesterday 18:00", description: "A day in words and a time: that time on the user's clock." },
        { term: "now, 30m, 12h, 3d, 2w, 3 hours ago", description: "Exactly then: now, or a length back from now." },
      ],
    },
    {
      heading: "Whole days",
      paragraphs: [
        para(`
A day given as YYYY-MM-DD or in words is a whole calendar day in the user's zone: as a start
(--from, --since) its first second, as an end (--to, --until) its last. \`--from '3 days ago'\` starts
at 00:00 of that day. A day runs as long as the zone makes it: Berlin's 25 October 2026 has 25
hours. A time the clocks show twice is its earlier instant as a start, its later one as an end. A
time without an offset (2026-11-03T12:00, or 2026-11-03 12:00) is on the user's clock. A weekday
that is today is read as today, and stderr says so with the date of the one before.
`),
        para(`
"Now" is the zone's now. Without a zone, a window that ends now is sent up to now at UTC+14, the
latest clock anywhere, so it never misses the newest intake of a user east of UTC.
`),
      ],
    },
    {
      heading: "Refused",
      paragraphs: [
        para(`
Slash dates (03/11/2026, 3/11) and other forms that read two ways (3.11.26, 11-03-2026,
last monday) are refused (exit 2, nothing sent), and the message names the readings:
\`2026-11-03 or 2026-03-11?\`. Forms with one reading but not in the grammar (25/11/2026,
3 Nov) are refused with it (\`write 2026-11-25\`). Write YYYY-MM-DD.
`),
      ],
    },
    {
      heading: "Zones",
      paragraphs: [
        para(`
--tz, FOODCTL_TZ and the profile's timezone take IANA names (Europe/Berlin, America/New_York,
Asia/Kathmandu) and UTC, and are shown as given. Abbreviations (EST, CET, PST, IST, …) are refused
(exit 2, nothing sent) with the zones they may mean (EST: America/New_York, America/Toronto, …) and
a note when the abbreviation has no daylight saving. Without a zone, times are shown in UTC and say
so.
`),
      ],
    },
    {
      heading: "Examples",
      examples: `
        foodctl intake list --tz Europe/Berlin --from 2026-11-03 --to 2026-11-08
        foodctl intake list --from yesterday --tz Asia/Tokyo
        FOODCTL_TZ=America/New_York foodctl intake list --from monday --to today
        foodctl journal --since '3 days ago'
      `,
    },
  ],
};
