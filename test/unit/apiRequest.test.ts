/** `foodctl api`'s reading of its path and typed fields (src/commands/api/request.ts). */
import { describe, expect, it } from "vitest";
import { apiPath, typedValue } from "../../src/commands/api/request.js";
import { CliError } from "../../src/errors.js";

const base = new URL("https://gw.example/food");

describe("apiPath", () => {
  it.each([
    ["intake/1002", "/v2/intake/1002"],
    ["/intake/1002", "/v2/intake/1002"],
    ["v2/intake/1002", "/v2/intake/1002"],
    ["/v2/intake/1002?x=1", "/v2/intake/1002?x=1"],
    ["https://gw.example/food/v2/intake/1002", "/v2/intake/1002"],
    ["https://gw.example/food/v2/history/getIntakesList?date_from=a", "/v2/history/getIntakesList?date_from=a"],
    ["https://GW.example:443/food/v2/intake/1", "/v2/intake/1"],
  ])("reads %s under the API's root as %s", (text, path) => {
    expect(apiPath(text, base)).toBe(path);
  });

  it.each([
    "https://other.example/food/v2/intake/1",
    "http://gw.example/food/v2/intake/1",
    "https://gw.example:8443/food/v2/intake/1",
    "https://user@gw.example.evil/v2",
    "",
    "/v2",
    "v2/",
    "intake/1 2",
    "intake/1#x",
    "../../etc",
    "intake/../../admin",
    "intake/%2e%2e/x",
    "./intake/1",
  ])("refuses %j (exit 2)", (text) => {
    let caught: unknown;
    try {
      apiPath(text, base);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliError).exitCode).toBe(2);
  });
});

describe("typedValue", () => {
  it.each([
    ["true", true],
    ["false", false],
    ["null", null],
    ["0", 0],
    ["-12.5", -12.5],
    ["1e3", 1000],
    ["007", "007"],
    ["1.", "1."],
    ["9007199254740993", "9007199254740993"],
    ["True", "True"],
    ["", ""],
    ["12 ", "12 "],
  ])("reads %j as %j", (text, value) => {
    expect(typedValue(text)).toBe(value);
  });
});
