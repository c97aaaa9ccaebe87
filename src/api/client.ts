/**
 * The API client: base URL and /v2 paths, bearer token, user_id, timeout, retries with
 * backoff and jitter, response size limit, one error mapping, a masked trace, and a check of
 * every answer it reads against its record's schema (src/records/).
 */
import { systemClock, type Clock } from "../clock.js";
import { isRemoteApisImage } from "../hosts.js";
import { failure, forbiddenError, type CliError } from "../errors.js";
import { describeUpload, encodeDisplayImage, type ImageUpload } from "./imageUpload.js";
import { QUOTA_HEADERS } from "./quota.js";
import { cleanParsed, COMPANY_CANNOT_CHANGE, httpErrorFor, keepReadableIntakes } from "./answers.js";
import type { ApiResult, IntakeListResult, ResponseInfo, UnreadableRecord } from "./answers.js";
import { checkRecord, describeProblem, type Validator } from "../records/check.js";
import type { IntakeResponse } from "../records/intake.js";
import * as validators from "../records/validators/intake.js";
import { Attempts } from "./retries.js";
import { jsonRequestBody, TransportError, type Transport, type TransportResponse } from "./transport.js";
import { paths } from "../records/routes.js";

export type { ApiResult, IntakeListResult, ResponseInfo, UnreadableRecord } from "./answers.js";

export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Sent with every request to the API (a dry run shows it, a --curl line sends it). */
export const ACCEPT_HEADER = { accept: "application/json" } as const;

export interface ClientOptions {
  baseUrl: URL;
  token: string;
  /** What to do when the API refuses the token (401): it depends on where the token came from. */
  tokenHint?: string | undefined;
  userId?: number | undefined;
  /** The `language` query parameter of every request (docs/api.md, language); unset: the user's own at the service. */
  language?: string | undefined;
  timeoutMs: number;
  retries: number;
  /** A separate budget for 429s, for a batch that should slow down; unset, a 429 is one of the `retries` (`--retries 0`: one attempt). */
  rateLimitRetries?: number | undefined;
  userAgent: string;
  /** The token's role from its claims (a JWT's `role`); undefined for an opaque token. */
  role?: string | undefined;
  transport: Transport;
  trace?: ((line: string) => void) | undefined;
  /** Waits (retries, Retry-After) and reads the time (the 429 pause); the system clock unless a test passes one. */
  clock?: Clock | undefined;
  /** How the user's clock shows a time (a 429's reset): "2026-11-26 14:05 Asia/Tokyo"; UTC, said so, when not given. */
  showTime?: ((time: number) => string) | undefined;
  random?: () => number;
  signal?: AbortSignal | undefined;
  /** Sees every answer's status and headers (a batch reads the rate-limit headers from it). */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** Told before each wait between attempts: one line saying how long and why. */
  onWait?: ((line: string) => void) | undefined;
  /** Asked, when a connection to this machine is refused, for the command that starts the sandbox recorded there again. */
  restartSandbox?: ((url: URL) => Promise<string | undefined>) | undefined;
}

export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** What would be sent: JSON, a summary of a multipart upload, or null (a DELETE). */
  body: unknown;
}

export class ApiClient {
  /** Shared with every client derived from this one, so a 429 pauses them all. */
  private readonly pause: { until: number };
  private readonly clock: Clock;
  private readonly random: () => number;

  constructor(
    private readonly options: ClientOptions,
    pause: { until: number } = { until: 0 },
  ) {
    this.pause = pause;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /** The same client for another user, or without the Ctrl-C signal (a batch's requests in flight finish); shares transport and 429 pause. */
  derive(
    overrides: Partial<Pick<ClientOptions, "userId" | "language" | "signal" | "retries" | "rateLimitRetries" | "onResponse">>,
  ): ApiClient {
    return new ApiClient({ ...this.options, ...overrides }, this.pause);
  }

  /** Holds every request of this client and the clients derived from it until `time` (ms since the epoch). */
  pauseUntil(time: number): void {
    this.pause.until = Math.max(this.pause.until, time);
  }

  get host(): string {
    return this.options.baseUrl.host;
  }

  /** The URL a request goes to, with user_id when acting for a user. */
  url(path: string, query: Record<string, string | undefined> = {}): URL {
    const url = new URL(this.options.baseUrl.href.replace(/\/$/, "") + path);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    if (this.options.userId !== undefined) url.searchParams.set("user_id", String(this.options.userId));
    if (this.options.language !== undefined) url.searchParams.set("language", this.options.language);
    return url;
  }

  /** What a request would look like, token masked (for --dry-run; `foodctl api` gives its URL whole). */
  describe(method: string, path: string | URL, body: unknown, extraHeaders: Record<string, string> = {}): RequestDescription {
    const headers = { ...ACCEPT_HEADER, authorization: "Bearer ****", "user-agent": this.options.userAgent, ...extraHeaders };
    return { method, url: (typeof path === "string" ? this.url(path) : path).href, headers, body };
  }

  describeUpdate(body: Record<string, unknown>): RequestDescription {
    return this.describe("POST", paths.confirmQuantity(), body, { "content-type": "application/json" });
  }

  describeAttach(imageId: number, image: ImageUpload): RequestDescription {
    return this.describe("POST", paths.displayImage(imageId), describeUpload(image), { "content-type": "multipart/form-data" });
  }

  describeRemoval(imageId: number): RequestDescription {
    return this.describe("DELETE", paths.displayImage(imageId), null);
  }

  async getIntake(imageId: number): Promise<ApiResult<IntakeResponse>> {
    return this.send("GET", this.url(paths.intake(imageId)), undefined, {}, validators.IntakeResponse);
  }

  /** The history list; records that fail their check alone are left out of `data` and named in `unreadable`. */
  async listIntakes(range: { from?: string | undefined; to?: string | undefined } = {}): Promise<IntakeListResult> {
    const url = this.url(paths.intakesList(), { date_from: range.from, date_to: range.to });
    const unreadable: UnreadableRecord[] = [];
    const result = await this.send("GET", url, undefined, {}, validators.IntakeListResponse, (json) =>
      keepReadableIntakes(json, unreadable),
    );
    return { ...result, unreadable };
  }

  /** Refuses (exit 5, nothing sent) a quantity change by a company's token: confirm/quantity is for APIUser and APIUserManager tokens. */
  refuseQuantityChangeByRole(): void {
    const refusal = this.quantityChangeRefusal();
    if (refusal) throw refusal;
  }

  /** What refuseQuantityChangeByRole throws (docs/api.md, users and tokens), or null when the role may change quantities (or is not known). */
  quantityChangeRefusal(): CliError | null {
    if (this.options.role !== "APICompany") return null;
    return forbiddenError(COMPANY_CANNOT_CHANGE, { hint: "the token's claims name the role APICompany; nothing was sent" });
  }

  /** The update operation. The answer is not relied on (a real server may send an empty body). */
  async confirmQuantity(body: Record<string, unknown>): Promise<ApiResult<unknown>> {
    return this.send("POST", this.url(paths.confirmQuantity()), jsonRequestBody(body), { "content-type": "application/json" }, null);
  }

  async attachDisplayImage(imageId: number, image: ImageUpload): Promise<ApiResult<unknown>> {
    const { body, contentType } = await encodeDisplayImage(image);
    return this.send("POST", this.url(paths.displayImage(imageId)), body, { "content-type": contentType }, null);
  }

  async removeDisplayImage(imageId: number): Promise<ApiResult<unknown>> {
    return this.send("DELETE", this.url(paths.displayImage(imageId)), undefined, {}, null);
  }

  /** `foodctl api`: any request, with the same retries, trace and errors as every other; its answer is not checked. */
  async request(method: string, url: URL, body: Buffer | undefined, headers: Record<string, string>): Promise<ApiResult<unknown>> {
    return this.send(method, url, body, headers, null);
  }

  /** Fetches an image by its URL (a display image, to keep a copy) without the token (it may be another host's); null over `maxBytes`. */
  async downloadImage(url: URL, maxBytes: number): Promise<Buffer | null> {
    const { userAgent, timeoutMs, signal, baseUrl } = this.options;
    // An image a remote API names on another host is fetched from no address on this machine or its network.
    const lookup = isRemoteApisImage(url, baseUrl) ? (await import("../imageAddress.js")).imageLookup(url, baseUrl) : undefined;
    const request = { method: "GET", url, headers: { "user-agent": userAgent }, timeoutMs, maxResponseBytes: maxBytes, signal, lookup };
    try {
      const response = await this.options.transport(request);
      if (response.status !== 200) throw failure(`${url.host} answered ${response.status} for the image`);
      return response.body;
    } catch (error) {
      if (error instanceof TransportError && error.kind === "too_large") return null;
      throw error;
    }
  }

  private async send<T>(
    method: string,
    url: URL,
    body: Buffer | undefined,
    headers: Record<string, string>,
    validator: Validator<T> | null,
    salvage?: (json: unknown) => T | null,
  ): Promise<ApiResult<T>> {
    const { retries, rateLimitRetries, signal, onWait, restartSandbox } = this.options;
    const attempts = new Attempts(
      { retries, rateLimitRetries, clock: this.clock, random: this.random, signal, pause: this.pause, onWait, restartSandbox },
      method,
      url,
    );
    for (;;) {
      await attempts.waitForTurn();
      let response: TransportResponse;
      try {
        response = await this.exchange(method, url, body, headers, attempts.count);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        await attempts.afterTransportError(error);
        continue;
      }
      attempts.answered();
      this.options.onResponse?.({ status: response.status, headers: response.headers, body: response.body });
      if (response.status >= 200 && response.status < 300) return this.parse(response, url, validator, salvage);
      const when = { now: this.clock.now(), showTime: this.options.showTime };
      if (!(await attempts.retryAnswer(response)))
        throw httpErrorFor(response, url, this.options.userId !== undefined, this.options.token, when, this.options.tokenHint);
    }
  }

  /** One attempt, traced: the answer, or the transport's error. */
  private async exchange(
    method: string,
    url: URL,
    body: Buffer | undefined,
    headers: Record<string, string>,
    /** Attempts before this one. */
    count: number,
  ): Promise<TransportResponse> {
    const { trace } = this.options;
    // The time is for the trace (--verbose) alone.
    const started = trace ? performance.now() : 0;
    trace?.(`> ${method} ${url.href}${count > 0 ? ` (attempt ${count + 1})` : ""}`);
    trace?.(`> authorization: Bearer ****`);
    try {
      const response = await this.options.transport({
        method,
        url,
        headers: {
          ...ACCEPT_HEADER,
          authorization: `Bearer ${this.options.token}`,
          "user-agent": this.options.userAgent,
          ...headers,
        },
        body,
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        signal: this.options.signal,
      });
      trace?.(
        `< ${response.status} ${method} ${url.pathname} ${Math.round(performance.now() - started)} ms, ${response.body.byteLength} bytes`,
      );
      // The quota's headers (docs/api.md, rate limit), so a user can see what is left.
      if (trace) for (const name of QUOTA_HEADERS) if (response.headers[name] !== undefined) trace(`< ${name}: ${response.headers[name]}`);
      return response;
    } catch (error) {
      if (error instanceof TransportError) trace?.(`< ${error.kind} after ${Math.round(performance.now() - started)} ms: ${error.message}`);
      throw error;
    }
  }

  private parse<T>(
    response: TransportResponse,
    url: URL,
    validator: Validator<T> | null,
    salvage?: (json: unknown) => T | null,
  ): ApiResult<T> {
    const raw = response.body.toString("utf8");
    const result = (data: T): ApiResult<T> => ({ raw, data, status: response.status, headers: response.headers });
    if (validator === null) {
      let data: unknown = null;
      if (raw.trim() !== "") {
        try {
          data = cleanParsed(raw);
        } catch {
          data = null;
        }
      }
      return result(data as T);
    }
    let json: unknown;
    try {
      json = cleanParsed(raw);
    } catch {
      throw failure(`unreadable response from ${url.host}: ${response.status} answer is not JSON`, { status: response.status });
    }
    const checked = checkRecord(validator, json);
    const salvaged = checked.valid ? null : (salvage?.(json) ?? null);
    if (salvaged !== null) return result(salvaged);
    if (!checked.valid) {
      const problem = describeProblem(checked.problems[0]!);
      throw failure(`unexpected response from ${url.host}: ${response.status} answer does not fit: ${problem}`, {
        status: response.status,
      });
    }
    return result(checked.data);
  }
}
