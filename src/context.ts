/**
 * What a command needs, each part built on first use: a command that never talks to the
 * API never loads the client, one that never reads config never opens the file.
 */
import type { ApiClient } from "./api/client.js";
import { proxyVariableSet, type Transport } from "./api/transport.js";
import { systemClock, type Clock } from "./clock.js";
import { checkApiUrl, resolveSettings, type GlobalFlags, type Settings } from "./config/settings.js";
import { checkToken, type CheckedToken } from "./config/token.js";
import { configPath, readConfig, type ConfigData } from "./config/store.js";
import { authError, ENV_TOKEN_HINT, LOGIN_HINT, tokenHint, usageError } from "./errors.js";
import { writeOut, type IO, type OutputStream } from "./io.js";
import { styler, type Styler } from "./output/style.js";
import { cleanForTerminal, jsonBody, jsonDocument } from "./sanitize.js";
import { maskTokenInUse } from "./secrets.js";
import { VERSION } from "./version.js";

export interface GlobalOptions extends GlobalFlags {
  json: boolean;
  verbose: boolean;
  color: boolean;
  /** `--no-pager` makes it false. */
  pager: boolean;
  /** --reason: why the changes of this run are made, recorded in the journal. */
  reason?: string | undefined;
}

/**
 * What a command found and how to show it; `Context.print` chooses the form once for the run
 * (docs/cli.md, Output): the JSON under --json, else the text, through the pager when `paged`.
 */
export type Shown = (
  | { json: unknown }
  /** JSON text printed as it is (an answer's body as received, a presenter's document), its controls escaped. */
  | { jsonBody: string }
) & {
  /** The text for stdout: tables fit `stream`'s width, TSV when it is not a terminal; coloured when `color`. None: nothing. */
  text?: (stream: OutputStream, color: boolean) => string | Promise<string>;
  /** A line for stderr instead of (or after) the text, not under --json: "Set timeout = 10 in profile …". */
  note?: string;
  /** Long text on a terminal goes through the pager (`journal`, `intake list`, `intake show`, `help`). */
  paged?: boolean;
};

/** What a command reaches the outside world through, when the caller (a test) passes its own. */
export interface Services {
  transport?: Transport | undefined;
  clock?: Clock | undefined;
}

export class Context {
  private configCache: ConfigData | undefined;
  private settingsCache: Settings | undefined;
  private clientCache: Promise<ApiClient> | undefined;
  private overridesNoted = false;

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
    /** Aborted on Ctrl-C: requests in flight are cancelled and reported. */
    readonly signal: AbortSignal = new AbortController().signal,
    readonly services: Services = {},
  ) {}

  /** The one clock of the run: the system's, or the one a test passes. */
  get clock(): Clock {
    return this.services.clock ?? systemClock;
  }

  /** The instant of now, in ms, from the run's clock. */
  now(): number {
    return this.clock.now();
  }

  get json(): boolean {
    return this.globals.json;
  }

  get verbose(): boolean {
    return this.globals.verbose || this.io.env.FOODCTL_DEBUG === "1";
  }

  get configPath(): string {
    return configPath(this.io.env);
  }

  config(): ConfigData {
    this.configCache ??= readConfig(this.configPath);
    return this.configCache;
  }

  settings(): Settings {
    this.settingsCache ??= resolveSettings(this.globals, this.io.env, this.config());
    return this.settingsCache;
  }

  /** Styles for stderr messages. */
  get err(): Styler {
    return styler(this.io.color.stderr);
  }

  /** The one printer of a command's result on stdout. */
  async print(shown: Shown): Promise<void> {
    if (this.json) {
      this.io.stdout.write("jsonBody" in shown ? jsonBody(shown.jsonBody) : jsonDocument(shown.json));
      return;
    }
    if (shown.text)
      await writeOut(this.io, await shown.text(this.io.stdout, this.io.color.stdout), shown.paged === true && this.globals.pager);
    if (shown.note !== undefined) this.info(shown.note);
  }

  /**
   * Text for stdout as it comes, past --json and the pager: a batch's result lines, a drawing, a
   * script, an answer's body as received. False when the pipe is full (wait for its 'drain').
   */
  printRaw(text: string): boolean {
    return this.io.stdout.write(text) !== false;
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.err.yellow("warning:")} ${cleanForTerminal(message)}\n`);
  }

  info(message: string): void {
    this.io.stderr.write(`${cleanForTerminal(message)}\n`);
  }

  trace(line: string): void {
    if (this.verbose) this.io.stderr.write(`${this.err.dim(cleanForTerminal(line))}\n`);
  }

  /**
   * The end user's IANA zone (--tz, FOODCTL_TZ, the profile's timezone), canonical, or null when
   * none is named; an unknown name is refused (exit 2). Checked only by the commands that use it.
   */
  async timeZone(): Promise<string | null> {
    const setting = this.settings().timeZone;
    if (!setting) return null;
    const { readTimeZone } = await import("./intake/zoneNames.js");
    const answer = readTimeZone(setting.value);
    if ("problem" in answer) throw usageError(`${setting.name}: ${answer.problem}`, { hint: answer.hint });
    return answer.zone;
  }

  /** A time on the zone's clock, named: "2026-11-26 14:05 Asia/Tokyo" (loaded only when a zone is named). */
  private async showTimeIn(zone: string): Promise<(time: number) => string> {
    const { formatClock } = await import("./output/time.js");
    return (time) => formatClock(time, zone);
  }

  /**
   * The language the answers name dishes in: `--language`, else the profile's `language`, else
   * none (the service uses the user's own). Refused (exit 2, nothing sent) unless one of the service's ten codes.
   */
  async language(flag: unknown): Promise<string | undefined> {
    const profile = this.settings().language;
    const given = typeof flag === "string" ? { value: flag, name: "--language" } : profile;
    if (!given) return undefined;
    const { languageProblem } = await import("./records/languages.js");
    const problem = languageProblem(given.value);
    if (problem !== null) throw usageError(`${given.name}: ${problem}`, { hint: "nothing was sent" });
    return given.value;
  }

  /** The API base URL, checked (http only to loopback) before anything is sent. */
  apiUrl(): URL {
    const setting = this.settings().apiUrl;
    if (!setting) {
      throw usageError("no API URL configured", {
        hint: "pass --api-url <url>, set FOODCTL_API_URL, or run `foodctl config set api-url <url>` (try `foodctl sandbox` for a local one)",
      });
    }
    this.noteEnvOverrides();
    const name =
      setting.source === "flag"
        ? "--api-url"
        : setting.source === "env"
          ? "FOODCTL_API_URL"
          : `api-url of profile "${this.settings().profile}"`;
    return checkApiUrl(setting.value, name);
  }

  /** The token to send, refused early when missing, malformed or an expired JWT: nothing is sent then. */
  token(): CheckedToken {
    const token = this.settings().token;
    if (!token) {
      throw authError("not logged in: no token", { hint: LOGIN_HINT });
    }
    this.noteEnvOverrides();
    const fromEnv = token.source === "env";
    const where = fromEnv ? "FOODCTL_TOKEN" : `the token of profile "${this.settings().profile}"`;
    maskTokenInUse(token.value);
    return checkToken(token.value, where, this.now(), fromEnv ? { hint: ENV_TOKEN_HINT } : {});
  }

  /**
   * Says once on stderr when FOODCTL_API_URL or FOODCTL_TOKEN beats the profile the user chose
   * with --profile or FOODCTL_PROFILE: otherwise the chosen profile looks ignored.
   */
  noteEnvOverrides(): void {
    if (this.overridesNoted) return;
    this.overridesNoted = true;
    const settings = this.settings();
    if (!settings.profileChosen) return;
    const names = [
      settings.apiUrl?.source === "env" ? "FOODCTL_API_URL" : null,
      settings.token?.source === "env" ? "FOODCTL_TOKEN" : null,
    ].filter(Boolean);
    if (names.length === 0) return;
    const verb = names.length > 1 ? "override" : "overrides";
    this.warn(`${names.join(" and ")} from the environment ${verb} profile "${settings.profile}"`);
  }

  client(): Promise<ApiClient> {
    this.clientCache ??= this.buildClient();
    return this.clientCache;
  }

  private async buildClient(): Promise<ApiClient> {
    const baseUrl = this.apiUrl();
    const token = this.token();
    const settings = this.settings();
    // The zone a 429's reset is told in; a name foodctl does not take is refused here, before anything is sent.
    const timeZone = await this.timeZone();
    const showTime = timeZone === null ? undefined : await this.showTimeIn(timeZone);
    const [{ ApiClient }, transport] = await Promise.all([import("./api/client.js"), this.transport(baseUrl)]);
    return new ApiClient({
      baseUrl,
      token: token.value,
      tokenHint: tokenHint(settings.token?.source === "env"),
      userId: settings.user,
      timeoutMs: settings.timeoutSeconds * 1000,
      retries: settings.retries,
      userAgent: `foodctl/${VERSION}`,
      role: token.claims?.role,
      transport,
      showTime,
      trace: this.verbose ? (line) => this.trace(line) : undefined,
      // A wait is said on a terminal, where someone watches; on a pipe only with --verbose. Asked
      // when a wait comes: a run that never waits never opens stderr.
      onWait: (line) => {
        if (this.io.stderr.isTTY === true || this.verbose) this.info(line);
      },
      // A refused loopback URL: the detached sandbox recorded there, started again with its flags (read only then).
      restartSandbox: async (url) => (await import("./sandboxes/records.js")).restartCommandAt(this.io.env, url),
      signal: this.signal,
      clock: this.services.clock,
    });
  }

  private async transport(baseUrl: URL): Promise<Transport> {
    if (proxyVariableSet(this.io.env)) await this.checkProxy(baseUrl);
    if (this.services.transport) return this.services.transport;
    const { createNodeTransport } = await import("./api/nodeTransport.js");
    return createNodeTransport({ clock: this.services.clock, env: this.io.env });
  }

  /** Refuses, before anything is sent, a proxy setting that cannot be used for the API URL; traces the proxy taken. */
  private async checkProxy(baseUrl: URL): Promise<void> {
    const { plainHttpProxyProblem, proxyFor, proxyVariable, ProxySettingError } = await import("./api/proxy.js");
    let proxy: URL | null;
    try {
      proxy = proxyFor(baseUrl, this.io.env);
    } catch (error) {
      if (error instanceof ProxySettingError) throw usageError(error.message, { hint: "give the proxy as http://host:port" });
      throw error;
    }
    const problem = plainHttpProxyProblem(baseUrl, proxy);
    if (problem) throw usageError(problem, { hint: "use https://, a proxy on this machine, or leave the proxy for this host (NO_PROXY)" });
    if (proxy) this.trace(`* using proxy ${proxy.host} from ${proxyVariable(baseUrl)}`);
  }
}
