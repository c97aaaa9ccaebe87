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
  | "--no-pager"
  | "--no-journal"
  | "--reason";

/**
 * What a command that talks to the API reads: where, as whom, how long and how often, the trace,
 * and the zone a 429's reset time is told in (the client refuses an unknown --tz before sending).
 */
const CONNECTION: readonly GlobalFlag[] = ["--profile", "--api-url", "--user", "--tz", "--timeout", "--retries", "--verbose"];

/** What a change journals: whether (--no-journal) and why (--reason, checked before anything is sent). */
const JOURNALED: readonly GlobalFlag[] = ["--no-journal", "--reason"];

/**
 * The global options each kind of command reads (a verb's `globals`), so its help lists no option
 * it ignores and every one it reads (test/unit/helpGlobals.test.ts pins each command's list).
 */
export const GLOBALS = {
  /** Reads from the API and prints tables with times, paged: `intake list`, `intake show`. */
  read: [...CONNECTION, "--json", "--wide", "--no-color", "--no-pager"],
  /** Changes an intake and prints its before → after; journaled. */
  change: [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED],
  /** A batch of changes (`intake apply`): its lines, wrapped at the terminal's width, each change journaled. */
  batch: [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED],
  /** `auth status`: the profile, and with --check one request and the quota's reset time; plain lines. */
  status: [...CONNECTION, "--json"],
  /** `smoke`: its steps' requests (history on the user's clock), its change journaled. */
  smoke: [...CONNECTION, "--json", "--wide", "--no-color", ...JOURNALED],
  /** `api`: one request, its answer printed as received; not journaled. */
  request: [...CONNECTION, "--json"],
  /** `config list`: every setting as it takes effect, flags included (--api-url, --user, --tz, --timeout, --no-journal), and where each comes from. */
  settings: ["--profile", "--api-url", "--user", "--json", "--tz", "--timeout", "--wide", "--no-color", "--no-journal"],
  /** `config get`: one setting as it takes effect, as `config list` shows it. */
  setting: ["--profile", "--api-url", "--user", "--json", "--tz", "--timeout", "--no-journal"],
  /** `config set` and `unset`: a profile's stored value, nothing sent. */
  profile: ["--profile", "--json"],
  /** `journal`: the local record, filtered by --user and --reason, times in the zone of --tz (or the profile's timezone key), paged. */
  journal: ["--profile", "--user", "--json", "--tz", "--wide", "--no-color", "--no-pager", "--reason"],
  /** `journal show`: one entry, its times in the user's zone, paged. */
  journalEntry: ["--profile", "--json", "--tz", "--wide", "--no-color", "--no-pager"],
  /** `help`: long help on a terminal is paged. */
  help: ["--no-pager"],
  /** `sandbox`: its URL and a table of its users and their tokens, fitted to the terminal, coloured there. */
  sandbox: ["--json", "--wide", "--no-color"],
  /** JSON or text, nothing else. */
  local: ["--json"],
  none: [],
} satisfies Record<string, readonly GlobalFlag[]>;
