/** Starts a sandbox for a vitest file (or for each test) and talks JSON to it. */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../src/sandbox/server.js";

/**
 * A sandbox on a free port, started before the file's tests (or before each test with
 * `{ perTest: true }`, for tests that change intakes) and closed after them.
 */
export function withSandbox(options: SandboxOptions = {}, lifetime: { perTest?: boolean } = {}) {
  let current: SandboxHandle | undefined;
  const start = async () => {
    current = await startSandbox({ ...options, port: options.port ?? 0 });
  };
  const stop = async () => {
    await current?.close();
    current = undefined;
  };
  if (lifetime.perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  return {
    get handle(): SandboxHandle {
      if (!current) throw new Error("withSandbox: the sandbox is started in beforeAll/beforeEach");
      return current;
    },
  };
}

export interface FetchJsonOptions {
  /** A bearer token; `as` takes a seeded user's token by name instead. */
  token?: string;
  as?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (bad JSON, multipart, bytes), with `contentType` if given. */
  rawBody?: string | Uint8Array | FormData;
  contentType?: string;
  query?: Record<string, string | number | readonly string[]>;
  headers?: Record<string, string>;
}

export interface JsonAnswer<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
  text: string;
}

// Test code reads deep into answers; `any` by default keeps those reads short.
export async function fetchJson<T = any>(
  handle: SandboxHandle,
  method: string,
  path: string,
  options: FetchJsonOptions = {},
): Promise<JsonAnswer<T>> {
  const url = new URL(path, handle.url);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  const headers: Record<string, string> = { ...options.headers };
  const token = options.as !== undefined ? handle.tokenFor(options.as) : options.token;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  let body: string | Uint8Array | FormData | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  } else if (options.rawBody !== undefined) {
    body = options.rawBody;
  }
  if (options.contentType !== undefined) headers["content-type"] = options.contentType;
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: T | undefined;
  try {
    parsed = JSON.parse(text) as T;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A history window that holds every seeded intake: the history list requires both dates. */
export const ALL_TIME = { date_from: "2000/01/01, 00:00:00", date_to: "2100/01/01, 00:00:00" } as const;
