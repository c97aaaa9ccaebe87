/** `foodctl help environment`: every variable foodctl reads. */
import { HELP_TOPIC_SUMMARIES } from "../help.js";
import { para, type HelpTopic, type TopicItem } from "./topic.js";

/** A variable foodctl reads: what it does, the option it stands for and its default. */
interface Variable {
  name: string;
  meaning: string;
  option?: string;
  default?: string;
}

const variable = (entry: Variable): TopicItem => ({
  term: entry.name,
  description: [
    entry.meaning,
    ...(entry.option ? [`Option: ${entry.option}.`] : []),
    ...(entry.default ? [`Default: ${entry.default}.`] : []),
  ].join(" "),
});

export const environment: HelpTopic = {
  name: "environment",
  summary: HELP_TOPIC_SUMMARIES.environment,
  sections: [
    {
      paragraphs: [
        para(`
Every setting has one order: a command-line option beats its variable, which beats the profile's
config key, which beats the default. An empty variable counts as unset. A bad value is refused (exit
2) under the variable's name.
`),
      ],
    },
    {
      heading: "foodctl's own",
      items: [
        variable({
          name: "FOODCTL_TOKEN",
          meaning: para(`
The API token, sent as a bearer token; beats the token \`foodctl auth login\` stored in the profile.
`),
          option: "none (a token flag would show in ps and in shell history)",
          default: "the profile's stored token",
        }),
        variable({ name: "FOODCTL_PROFILE", meaning: "The config profile to use.", option: "--profile", default: "default" }),
        variable({
          name: "FOODCTL_API_URL",
          meaning: "The API's base URL: https://, or http:// to this machine only (config key api-url).",
          option: "--api-url",
          default: "none",
        }),
        variable({
          name: "FOODCTL_USER",
          meaning: "The APIUser a manager's or company's token acts for, sent as user_id (config key user).",
          option: "--user",
          default: "the token's own user",
        }),
        variable({
          name: "FOODCTL_TZ",
          meaning: para(`
The end user's time zone, an IANA name such as Europe/Berlin, or UTC (config key timezone); see
\`foodctl help dates\`.
`),
          option: "--tz",
          default: "none: times in UTC",
        }),
        variable({
          name: "FOODCTL_TIMEOUT",
          meaning: "Seconds each request may take, more than 0 and at most 3600 (config key timeout).",
          option: "--timeout",
          default: "30",
        }),
        variable({ name: "FOODCTL_DEBUG", meaning: "1 traces every request on stderr, Authorization masked.", option: "--verbose" }),
        variable({
          name: "FOODCTL_PAGER",
          meaning: para(`
The pager for long output on a terminal; empty turns paging off. See \`foodctl help formatting\`.
`),
          option: "--no-pager turns it off",
          default: "PAGER, else less -FRX when it exists",
        }),
        variable({ name: "FOODCTL_NO_CACHE", meaning: "1 runs without the start-up code cache, neither read nor written." }),
        variable({
          name: "FOODCTL_SANDBOX_DETACHED",
          meaning: para(`
Set by \`foodctl sandbox --detach\` on the sandbox process it starts; not for setting by hand.
`),
        }),
      ],
    },
    {
      heading: "Read from the system",
      items: [
        variable({ name: "NO_COLOR", meaning: "Any non-empty value turns colour off.", option: "--no-color" }),
        variable({ name: "FORCE_COLOR", meaning: "Colour even when not on a terminal; 0 or false turns it off." }),
        variable({ name: "TERM", meaning: "dumb turns colour off." }),
        variable({ name: "COLUMNS", meaning: "The width help wraps at.", default: "the terminal's width, 80 when not on a terminal" }),
        variable({ name: "PAGER", meaning: "The pager when FOODCTL_PAGER is not set." }),
        variable({
          name: "VISUAL, EDITOR",
          meaning: "The editor `foodctl intake edit` opens, VISUAL first.",
          default: "vi (notepad on Windows)",
        }),
        variable({ name: "BROWSER", meaning: "The browser `foodctl intake show --web` opens." }),
        variable({
          name: "HTTPS_PROXY, HTTP_PROXY, NO_PROXY",
          meaning: para(`
Proxies for each scheme, and the hosts that bypass them (lower-case forms too). Loopback API URLs
bypass proxies unless NO_PROXY is set and empty.
`),
        }),
        variable({ name: "XDG_CONFIG_HOME", meaning: "Where the config folder foodctl/ is.", default: "~/.config" }),
        variable({ name: "XDG_STATE_HOME", meaning: "Where the journal folder foodctl/ is.", default: "~/.local/state" }),
        variable({ name: "XDG_CACHE_HOME", meaning: "Where the start-up code cache foodctl/ is.", default: "~/.cache" }),
        variable({ name: "XDG_RUNTIME_DIR", meaning: "Where a detached sandbox records itself.", default: "XDG_STATE_HOME" }),
      ],
    },
  ],
};
