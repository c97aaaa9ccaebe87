import { describe, expect, it } from "vitest";
import { errorMessage, parseRetryAfter } from "../../src/api/client.js";

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

describe("errorMessage", () => {
  const body = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));

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
