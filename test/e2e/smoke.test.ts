import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

describe("built CLI", () => {
  it("prints its version", async () => {
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
