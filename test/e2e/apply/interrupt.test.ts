/** Ctrl-C during a long batch: no new changes, those in flight finished and reported, exit 130. */
import { closeSync, openSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { withSandbox } from "../../helpers/sandbox.js";
import { apply, countRequests, fullResults, GET_INTAKE, jsonl, POST_QUANTITY, results, spawnApply, writeInput } from "./harness.js";

// Slow answers keep the 2,000-line batch running long after the interrupt.
const sb = withSandbox({ latencyMs: 20 });

function lines(count: number) {
  return Array.from({ length: count }, (_, index) =>
    index % 3 === 0
      ? { image_id: 1001, quantity: 200 + (index % 50) }
      : index % 3 === 1
        ? { image_id: 1002, quantity: { "1": 100 + (index % 40) } }
        : { image_id: 1003, quantity: { manual2: 30 + (index % 20) } },
  );
}

describe("intake apply: stopping early", () => {
  it("stops sending, finishes the changes in flight, reports every change sent and exits 130", async () => {
    const file = writeInput("many.jsonl", jsonl(...lines(2000)));
    const sent = countRequests(sb.handle);
    const run = await interrupted([file], "SIGINT");
    expect(run.code).toBe(130);

    const reported = results(run.stdout);
    expect(reported.length).toBeGreaterThan(10);
    expect(reported.length).toBeLessThan(2000);
    expect(reported.every((result) => result.status === "applied")).toBe(true);
    expect(new Set(reported.map((result) => result.line)).size).toBe(reported.length);
    // Every update that reached the API has its result line, and no other change was started.
    const requests = sent();
    expect(requests[POST_QUANTITY]).toBe(reported.length);
    // Each reported change was read after it; the first change of each of the 3 intakes also
    // before it (the next change of an intake starts from the read after the previous one);
    // a change caught between its pre-check and its update is read once.
    expect(requests[GET_INTAKE]).toBeGreaterThanOrEqual(reported.length + 3);
    expect(requests[GET_INTAKE]).toBeLessThanOrEqual(reported.length + 3 + 4);
    expect(run.stderr).toMatch(new RegExp(`not sent ${(2000 - reported.length).toLocaleString("en-US")}`));
    expect(run.stderr).toMatch(/error: interrupted: .* not sent; the changes in flight were finished and reported/);
  });

  /** Interrupts `intake apply <args>` once it has printed a dozen results, and returns how it ended. */
  async function interrupted(args: string[], signal: NodeJS.Signals = "SIGTERM") {
    const { child, done } = spawnApply(sb.handle, args);
    let seen = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        seen += chunk.toString("utf8");
        if (seen.split("\n").length > 12) resolve();
      });
      child.on("close", () => reject(new Error("the batch ended before it could be interrupted")));
    });
    child.kill(signal);
    return done;
  }

  /** The command a hint says to run, as its words after `foodctl`. */
  const hintedCommand = (stderr: string) => /^hint: .*resume with: foodctl (.*)$/m.exec(stderr)?.[1]?.split(" ");

  it("with --results, hints the whole command that resumes, and running it finishes the batch", async () => {
    const file = writeInput("many.jsonl", jsonl(...lines(300)));
    const resultsFile = join(dirname(file), "rm.jsonl");
    const run = await interrupted([file, "--results", resultsFile]);
    expect(run.code).toBe(130);
    const command = hintedCommand(run.stderr);
    expect(command).toEqual(["intake", "apply", file, "--skip-applied", resultsFile, "--results", resultsFile]);
    const applied = results(run.stdout).length;
    const resumed = await apply(sb.handle, command!.slice(2));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`^applied ${300 - applied} · failed 0 · skipped ${applied} · `, "m"));
  });

  it("without --results, stdout kept in a file (`> out.jsonl`): hints resuming from that file, and running it finishes the batch", async () => {
    const file = writeInput("many.jsonl", jsonl(...lines(300)));
    const out = join(dirname(file), "out.jsonl");
    const fd = openSync(out, "w");
    const { child, done } = spawnApply(sb.handle, [file], "alice", fd);
    closeSync(fd);
    while (readFileSync(out, "utf8").split("\n").length <= 12) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGTERM");
    const run = await done;
    expect(run.code).toBe(130);
    const command = hintedCommand(run.stderr);
    expect(command).toEqual(["intake", "apply", file, "--skip-applied", out, "--results", out]);
    const applied = results(readFileSync(out, "utf8")).length;
    const resumed = await apply(sb.handle, command!.slice(2));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`^applied ${300 - applied} · failed 0 · skipped ${applied} · `, "m"));
  });

  it("without --results, stdout a pipe: says the results were not kept, and names this batch's journal listing", async () => {
    const file = writeInput("many.jsonl", jsonl(...lines(300)));
    const run = await interrupted([file]);
    expect(run.code).toBe(130);
    const batchId = fullResults(run.stdout)[0]!.batch_id;
    expect(run.stderr).toMatch(
      new RegExp(
        `^hint: its results were not kept, so it cannot resume where it stopped \\(\`foodctl journal --batch ${batchId}\` lists what it applied\\): keep them next time with --results results\\.jsonl$`,
        "m",
      ),
    );
    expect(run.stderr).not.toContain("saved as");
  });

  it("stops sending when its stdout is closed, since results it cannot write cannot be resumed from (exit 1)", async () => {
    const file = writeInput("many.jsonl", jsonl(...lines(2000)));
    const sent = countRequests(sb.handle);
    const { child, done } = spawnApply(sb.handle, [file]);
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    child.stdout!.destroy();
    const run = await done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: stdout was closed: stopped sending, [\d,]+ changes not sent/);
    expect(sent()[POST_QUANTITY]).toBeLessThan(100);
  });
});
