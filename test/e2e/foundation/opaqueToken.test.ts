/** docs/api.md, API tokens: every read command with a seeded user's opaque token, against the sandbox, with a base URL ending in /v2. */
import { describe, expect, it } from "vitest";
import { expectExit, useSandbox } from "./harness.js";

const sandbox = useSandbox();
const opaque = (extra: Record<string, string> = {}) => ({
  env: { FOODCTL_TOKEN: sandbox.handle.opaqueTokenFor("alice"), FOODCTL_API_URL: `${sandbox.url}/v2/`, ...extra },
});

describe("API tokens: an opaque sandbox token through every read command", () => {
  it.each([
    ["intake list", ["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30"], /^1002\t/m],
    ["intake list --json", ["intake", "list", "--from", "2026-11-01", "--to", "2026-11-30", "--json"], /"intakes_list"/],
    ["intake show", ["intake", "show", "1002"], /^kind\tsegmentation$/m],
    ["intake show --nutrients all", ["intake", "show", "1002", "--nutrients", "all"], /^nutrient\ttotal\tFIBTG\t/m],
    ["auth status", ["auth", "status"], /known only to the server/],
    ["auth status --check", ["auth", "status", "--check"], /accepts the token \(answered 200\)/],
  ])("%s works and never prints the token", async (_name, args, output) => {
    const result = await sandbox.cli(args, opaque());
    expectExit(result, 0);
    expect(result.stdout).toMatch(output);
    expect(result.stdout + result.stderr).not.toContain(sandbox.handle.opaqueTokenFor("alice"));
  });

  it("auth status --check with an opaque token the sandbox does not know: exit 4", async () => {
    const result = await sandbox.cli(["auth", "status", "--check"], opaque({ FOODCTL_TOKEN: "0".repeat(40) }));
    expectExit(result, 4);
    expect(result.stderr).toMatch(/refused the token \(answered 401\)/);
  });
});
