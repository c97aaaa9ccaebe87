/** Which global options each kind of command reads: its help lists those only (src/help.ts, programOptions). */
/** A global option by its long flag. */
export type GlobalFlag =
  | "--profile"
  | "--api-url"
  | "--user"
  | "--json"
  | "--tz"
  | "--timeout"
  | "--retries"
  | "--wide"
  | "--verbose"
  | "--no-color"
  | "--no-journal";

/** What a command that talks to the API reads: where, as whom, how long and how often, and the trace. */
const CONNECTION: readonly GlobalFlag[] = ["--profile", "--api-url", "--user", "--timeout", "--retries", "--verbose"];

/** The global options each kind of command reads (a verb's `globals`), so its help lists no option it ignores. */
export const GLOBALS = {
  /** Reads from the API and prints tables with times: `intake list`, `intake show`. */
  read: [...CONNECTION, "--json", "--tz", "--wide", "--no-color"],
  /** Changes an intake and prints its before → after. */
  change: [...CONNECTION, "--json", "--wide", "--no-color", "--no-journal"],
  /** A batch of changes (`intake apply`): a quota's reset time in the user's zone. */
  batch: [...CONNECTION, "--json", "--tz", "--no-color", "--no-journal"],
  /** `auth status`: the profile, and with --check one request and the quota's reset time. */
  status: [...CONNECTION, "--json", "--tz", "--no-color"],
  /** `smoke`: its steps' requests, its change journaled. */
  smoke: [...CONNECTION, "--json", "--no-color", "--no-journal"],
  /** A profile's own settings, nothing sent. */
  profile: ["--profile", "--json", "--wide", "--no-color"],
  /** The local journal: no API, no profile. */
  journal: ["--json", "--wide", "--no-color"],
  /** JSON or text, nothing else. */
  local: ["--json"],
  none: [],
} satisfies Record<string, readonly GlobalFlag[]>;
