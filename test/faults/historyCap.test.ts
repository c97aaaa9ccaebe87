/** A history answer over the client's 16 MiB cap: the window holds too much, and how to narrow it, not an unreadable response. */
import { expect, it } from "vitest";
import { expectErrorLine, runFoodctl } from "../helpers/cli.js";
import { scriptedTransport } from "../helpers/transport.js";

const LIST = "GET /v2/history/getIntakesList";

it("intake list of a window whose answer is over 16 MiB: exit 1, says the window holds too many intakes and how to narrow it", async ({
  onTestFinished,
}) => {
  const server = scriptedTransport({ onTestFinished });
  const body = Buffer.from(`{"intakes_list":[${'{"image_id":1},'.repeat(1_200_000)}{"image_id":2}]}`);
  expect(body.byteLength).toBeGreaterThan(16 * 1024 * 1024);
  server.route(LIST, { kind: "raw", status: 200, body });
  const result = await runFoodctl(["--api-url", "http://127.0.0.1:9", "intake", "list", "--from", "2026-01-01", "--to", "2026-11-30"], {
    env: { FOODCTL_TOKEN: "opaque-test-token-0123456789" },
    transport: server.transport,
  });
  expectErrorLine(result, 1, "the window Thu 1 Jan – Mon 30 Nov 2026 holds too many intakes to read at once", "16 MiB");
  expect(result.stderr).toContain("hint: narrow the window: a later --from, an earlier --to, or fewer --days");
  expect(result.stderr).not.toContain("unreadable response");
});
