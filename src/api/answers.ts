/**
 * Reading an answer: its error body (sentence and the service's code), its Retry-After and
 * RateLimit-Reset headers, and its JSON with control characters made harmless. Pure, no I/O.
 */
import { describeWait } from "../clock.js";
import { errorForStatus, failure, type CliError } from "../errors.js";
import { cleanForTerminal, cleanParsedValue, TERMINAL_UNSAFE } from "../sanitize.js";
import { redactSecrets } from "../secrets.js";
import { checkRecord, describeProblem } from "../records/check.js";
import type { IntakeListResponse, PeriodTotals } from "../records/intake.js";
import * as validators from "../records/validators/intake.js";
import type { TransportResponse } from "./transport.js";

/** A wait further off than this is no answer's real reset: a broken or hostile header, read as unknown. */
export const MAX_TOLD_WAIT_MS = 365 * 24 * 60 * 60 * 1000;

/** A wait a header told, or undefined when it is not a number of milliseconds from 0 to a year. */
const toldWait = (ms: number): number | undefined => (Number.isFinite(ms) && ms >= 0 && ms <= MAX_TOLD_WAIT_MS ? ms : undefined);

/** Retry-After in seconds or as an HTTP date (a past one is now); milliseconds, or undefined when absent, unreadable or beyond a year. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return toldWait(Number(value.trim()) * 1000);
  // Every HTTP-date form starts with a day name; Date.parse alone would read "1.5" as 2001.
  if (!/^[A-Za-z]{3}/.test(value.trim())) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : toldWait(Math.max(0, date - now));
}

/** An error body's sentence (one line) and the service's code; nulls for a non-JSON body (an HTML 502). */
export function readErrorBody(body: Buffer): { message: string | null; code: number | string | null } {
  try {
    const parsed = checkRecord(validators.ErrorBody, JSON.parse(body.toString("utf8")));
    if (parsed.valid) {
      const code = parsed.data.code;
      const numeric = typeof code === "number" && Number.isFinite(code);
      const cleanCode = numeric || (typeof code === "string" && /^[A-Za-z0-9._-]{1,32}$/.test(code)) ? (code ?? null) : null;
      // Whichever of message, detail and error the body has, in that order (docs/api.md, error bodies).
      const said = [parsed.data.message, parsed.data.detail, parsed.data.error].find(
        (text) => typeof text === "string" && text.trim() !== "",
      );
      return { message: typeof said === "string" ? oneLine(said) : null, code: cleanCode };
    }
  } catch {
    // not JSON: the status says it all
  }
  return { message: null, code: null };
}

/** A header counting seconds (RateLimit-Reset): whole or fractional, in milliseconds; undefined when absent, unreadable or beyond a year. */
export function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return toldWait(Math.round(Number(value) * 1000));
}

/**
 * What a terminal-unsafe character (src/sanitize.ts) can look like in JSON text: raw, or
 * as an escape (\b, \f, \r, \u00XX, or \uXXXX of a bidirectional control). Text without any of
 * these parses to clean values, so the walk is skipped for it: the common case, and the hot path
 * of a batch.
 */
const MAY_HOLD_CONTROLS = new RegExp(`${TERMINAL_UNSAFE.source}|\\\\[bfr]|\\\\u(00[0-9A-Fa-f]{2}|061[Cc]|200[EFef]|202[A-Ea-e]|206[6-9])`);

/**
 * The parsed answer with every terminal-unsafe character in its strings (and keys) replaced by
 * U+FFFD, so a hostile or broken server cannot send escape sequences to the user's terminal
 * through names, comments or messages. `raw` (what --json prints) stays as received.
 */
export function cleanParsed(raw: string): unknown {
  const value: unknown = JSON.parse(raw);
  return MAY_HOLD_CONTROLS.test(raw) ? cleanParsedValue(value) : value;
}

function oneLine(text: string): string {
  const line = cleanForTerminal(text.replace(/\s+/g, " ")).trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? "";
}

/**
 * A 429 not waited for (its reset is beyond what the client waits, or its retries are spent):
 * says when the window frees a call (docs/api.md, rate limit), on the user's clock (UTC when none is named) and from now.
 */
function rateLimitError(response: TransportResponse, message: string, code: number | string | null, when: AnswerClock): CliError {
  const resetMs = parseRetryAfter(response.headers["retry-after"], when.now) ?? parseSeconds(response.headers["ratelimit-reset"]);
  const serviceCode = code ?? undefined;
  if (resetMs === undefined) return errorForStatus(429, message, { serviceCode, hint: "try again later" });
  const at = (when.showTime ?? utcMinute)(when.now + resetMs);
  return errorForStatus(429, `${message}; the limit resets in ${describeWait(resetMs)} (at ${at})`, {
    serviceCode,
    hint: "try again after the reset",
  });
}

/** How a company token's refused quantity change is worded, before sending or after the 403. */
export const COMPANY_CANNOT_CHANGE = "a company token cannot change quantities: use the user's own token or a manager's";

/** The error for an answer that is neither 2xx nor retried: a redirect (never followed) or the status's kind, with the service's code. */
/** Now (ms), and how the user's clock shows a time ("2026-11-26 14:05 Asia/Tokyo"; UTC, said so, when not given). */
export interface AnswerClock {
  now: number;
  showTime?: ((time: number) => string) | undefined;
}

/** "2026-11-26 05:05 UTC": the client's own words for a time when no zone is named (no Intl, no printer loaded). */
const utcMinute = (time: number) => `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;

export function httpErrorFor(
  response: TransportResponse,
  url: URL,
  actingForUser: boolean,
  token: string,
  when: AnswerClock,
  tokenHint?: string,
): CliError {
  if (response.status >= 300 && response.status < 400) {
    // Never followed: a redirect to another host would carry the token there.
    const location = response.headers.location;
    let target: string;
    try {
      target = location ? ` to ${new URL(location, url).host}` : "";
    } catch {
      target = "";
    }
    return failure(`${url.host} answered ${response.status}, a redirect${target}; redirects are not followed, so nothing was sent there`, {
      status: response.status,
      hint: "point --api-url at the address the API itself answers on",
    });
  }
  const { message: said, code } = readErrorBody(response.body);
  // A server may echo the Authorization header: an opaque token has no shape to spot, so it is masked by value.
  const reason = said === null ? null : redactSecrets(said, [token]);
  const text = statusText(response.status);
  // The service's own number (docs/api.md, error codes), shown only where it says more than the status.
  const codeText = code !== null && String(code) !== String(response.status) ? ` (code ${code})` : "";
  const message = `${url.host} answered ${response.status}${codeText}${reason ? `: ${reason}` : text ? ` ${text}` : ""}`;
  // docs/api.md, users and tokens: the service refuses confirm/quantity to a company token (code 1204 in the sandbox).
  if (
    response.status === 403 &&
    (code === 1204 || (url.pathname.endsWith("/nutrition/confirm/quantity") && /compan/i.test(reason ?? "")))
  ) {
    return errorForStatus(403, `${COMPANY_CANNOT_CHANGE} (${url.host} answered 403${codeText})`, { serviceCode: code ?? undefined });
  }
  if (response.status === 429) return rateLimitError(response, message, code, when);
  const userIdHint = response.status === 400 && !actingForUser && /user_id/i.test(reason ?? "");
  const hint = userIdHint ? "this token acts for other users: name one with --user <id>" : response.status === 401 ? tokenHint : undefined;
  return errorForStatus(response.status, message, { serviceCode: code ?? undefined, ...(hint ? { hint } : {}) });
}

export interface ResponseInfo {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  /** The body as received (`foodctl api` shows an error answer's). */
  body?: Buffer;
}

export interface ApiResult<T> {
  /** The body as received, for `--json`. */
  raw: string;
  data: T;
  status: number;
  /** The answer's headers (lower-case names): the quota's, for `auth status --check`. */
  headers: Record<string, string | undefined>;
}

export interface IntakeListResult extends ApiResult<IntakeListResponse> {
  unreadable: UnreadableRecord[];
}

/** A record of a list that failed its check: shown as such, the others printed (docs/cli.md, odd records). */
export interface UnreadableRecord {
  /** Its place in the list, from 0. */
  index: number;
  imageId: number | null;
  problem: string;
}

/**
 * A history list that failed its check as a whole, record by record: the records that pass, with
 * each one that does not pushed to `unreadable`; null when the list itself is not there.
 */
/**
 * The period totals beside a history list (`total_intake`), or null when the answer has none or
 * they are unreadable: the list is shown either way.
 */
export function readPeriodTotals(list: unknown): PeriodTotals | null {
  const value = typeof list === "object" && list !== null ? (list as Record<string, unknown>).total_intake : undefined;
  if (value === undefined || value === null) return null;
  const checked = checkRecord(validators.PeriodTotals, value);
  return checked.valid ? checked.data : null;
}

export function keepReadableIntakes(json: unknown, unreadable: UnreadableRecord[]): IntakeListResponse | null {
  const list = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>).intakes_list : null;
  if (!Array.isArray(list)) return null;
  const kept = list.filter((record: unknown, index) => {
    const checked = checkRecord(validators.Intake, record);
    if (checked.valid) return true;
    const id = (record as { image_id?: unknown } | null)?.image_id;
    const imageId = typeof id === "number" && Number.isSafeInteger(id) ? id : null;
    unreadable.push({ index, imageId, problem: describeProblem(checked.problems[0]!) });
    return false;
  });
  return { ...(json as object), intakes_list: kept };
}
