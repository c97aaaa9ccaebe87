import { describe, expect, it } from "vitest";
import { cleanParsed } from "../../src/api/answers.js";
import { MAX_TOLD_WAIT_MS, parseRetryAfter, parseSeconds, readErrorBody } from "../../src/api/answers.js";
import { readQuota } from "../../src/api/quota.js";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");

  it("reads seconds as milliseconds", () => {
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("120", now)).toBe(120_000);
  });

  it("reads an HTTP date as the time left until it", () => {
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:05 GMT", now)).toBe(5000);
  });

  it("reads an HTTP date in the past as no wait", () => {
    expect(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });

  it.each([undefined, "", "  ", "soon", "-1", "1.5", "3s", "0x10"])("ignores %j", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe("the message of an error body", () => {
  const body = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));
  const errorMessage = (bytes: Buffer) => readErrorBody(bytes).message;

  it("reads the message of a JSON error body", () => {
    expect(errorMessage(body({ message: "Unknown position 4.", code: 400 }))).toBe("Unknown position 4.");
  });

  it("keeps the message on one line", () => {
    expect(errorMessage(body({ message: "first line\n  second\tline\r\n" }))).toBe("first line second line");
  });

  it("shortens a very long message", () => {
    const message = errorMessage(body({ message: "x".repeat(1000) }));
    expect(message).toHaveLength(300);
    expect(message!.endsWith("...")).toBe(true);
  });

  it.each([
    ["an HTML page", "<html><body><h1>502 Bad Gateway</h1></body></html>"],
    ["an empty body", ""],
    ["JSON without a message", { code: 400 }],
    ["an empty message", { message: "" }],
    ["a message that is not a string", { message: 42 }],
    ["a JSON string", '"oops"'],
    ["a JSON array", [1]],
    ["JSON null", "null"],
  ])("gives null for %s", (_name, value) => {
    expect(errorMessage(body(value))).toBeNull();
  });
});

describe("cleanParsed", () => {
  /** Every character the terminal sanitizer replaces: C0 but tab and newline, DEL, C1, bidirectional controls. */
  const unsafe = [
    ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x09 && code !== 0x0a),
    ...Array.from({ length: 0x21 }, (_, index) => 0x7f + index),
    0x061c,
    0x200e,
    0x200f,
    ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069],
  ];
  const hex = (code: number) => code.toString(16).padStart(4, "0");
  const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it("replaces an unsafe character however the JSON text writes it: raw, \\u with lower- or upper-case hex, \\b \\f \\r", () => {
    const forms = unsafe.flatMap((code) => [
      ...(code >= 0x20 ? [String.fromCharCode(code)] : []),
      `\\u${hex(code)}`,
      `\\u${hex(code).toUpperCase()}`,
    ]);
    for (const form of [...forms, "\\b", "\\f", "\\r"]) {
      const parsed = cleanParsed(`{"name": "a${form}b", "k${form}": [1, "${form}"]}`);
      expect(JSON.stringify(parsed), form).not.toMatch(UNSAFE);
      expect(parsed, form).toEqual({ name: "a\ufffdb", "k\ufffd": [1, "\ufffd"] });
    }
  });

  it("leaves text without them as parsed, tab and newline escapes included", () => {
    const raw = '{"comment": "line\\nnext\\tcol \\u00e9 \\u20AC \\\\u001b", "n": 1.5}';
    expect(cleanParsed(raw)).toEqual(JSON.parse(raw));
  });
});

describe("waits a header tells, bounded to a year (N4)", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");

  it("reads a Retry-After or RateLimit-Reset of up to a year", () => {
    expect(parseRetryAfter(String(365 * 86_400), now)).toBe(MAX_TOLD_WAIT_MS);
    expect(parseSeconds(String(365 * 86_400))).toBe(MAX_TOLD_WAIT_MS);
    expect(parseSeconds("1.5")).toBe(1500);
  });

  it.each(["8600000000000", "8.6e12", String(365 * 86_400 + 1), "1".repeat(400), "-3", "Infinity", "NaN"])(
    "reads %s seconds as unknown",
    (value) => {
      expect(parseRetryAfter(value, now)).toBeUndefined();
      expect(parseSeconds(value)).toBeUndefined();
      expect(readQuota({ "ratelimit-remaining": "0", "ratelimit-reset": value })?.resetMs).toBeUndefined();
    },
  );

  it("reads an HTTP date more than a year ahead as unknown", () => {
    expect(parseRetryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now)).toBeUndefined();
    expect(parseRetryAfter("Sun, 21 Nov 2027 12:00:00 GMT", now)).toBe(MAX_TOLD_WAIT_MS);
  });
});
