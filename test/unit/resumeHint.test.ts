/** The hint of a stopped `intake apply`: the command that resumes it, with the values the run had. */
import { describe, expect, it } from "vitest";
import { resumeHint } from "../../src/commands/intake/apply.js";

const batch = { file: "many.jsonl", kept: "rm.jsonl", flags: [], applied: true, batchId: "20261128-031500-ab12cd", journaled: true };

describe("resumeHint", () => {
  it("names the input, the run's options, and the file its results were kept in as --skip-applied and --results", () => {
    expect(resumeHint(batch)).toBe("resume with: foodctl intake apply many.jsonl --skip-applied rm.jsonl --results rm.jsonl");
    expect(resumeHint({ ...batch, file: "my fixes.txt", flags: ["--format csv", "--no-verify"], kept: "out dir/r.jsonl" })).toBe(
      "resume with: foodctl intake apply 'my fixes.txt' --format csv --no-verify --skip-applied 'out dir/r.jsonl' --results 'out dir/r.jsonl'",
    );
  });

  it("when nothing was applied and nothing kept: the same run again, keeping its results", () => {
    expect(resumeHint({ ...batch, kept: undefined, applied: false, flags: ["--concurrency 1"] })).toBe(
      "run it again, keeping its results: foodctl intake apply many.jsonl --concurrency 1 --results results.jsonl",
    );
  });

  it("when lines were applied and their results not kept (a terminal, a pipe): says so, where the journal lists them, and to keep them", () => {
    expect(resumeHint({ ...batch, kept: undefined })).toBe(
      "its results were not kept, so it cannot resume where it stopped (`foodctl journal --batch 20261128-031500-ab12cd` lists what it applied): keep them next time with --results results.jsonl",
    );
    expect(resumeHint({ ...batch, kept: undefined, journaled: false })).toBe(
      "its results were not kept, so it cannot resume where it stopped: keep them next time with --results results.jsonl",
    );
  });
});
