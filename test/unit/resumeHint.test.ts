/** The hint of a stopped `intake apply`: the command that resumes it, with the values the run had. */
import { describe, expect, it } from "vitest";
import { resumeHint } from "../../src/commands/intake/apply.js";

const batch = { file: "many.jsonl", results: "rm.jsonl", flags: [], batchId: "20261128-031500-ab12cd", journaled: true };

describe("resumeHint", () => {
  it("names the input, the run's options, and the --results file as --skip-applied and --results", () => {
    expect(resumeHint(batch, true)).toBe("resume with: foodctl intake apply many.jsonl --skip-applied rm.jsonl --results rm.jsonl");
    expect(resumeHint({ ...batch, file: "my fixes.txt", flags: ["--format csv", "--no-verify"], results: "out dir/r.jsonl" }, false)).toBe(
      "resume with: foodctl intake apply 'my fixes.txt' --format csv --no-verify --skip-applied 'out dir/r.jsonl' --results 'out dir/r.jsonl'",
    );
  });

  it("without --results, JSON Lines on stdout are resumed from the file they were saved in", () => {
    expect(resumeHint({ ...batch, results: undefined }, false)).toBe(
      "the results went to stdout: saved as results.jsonl, resume with: foodctl intake apply many.jsonl --skip-applied results.jsonl --results results.jsonl",
    );
  });

  it("without --results on a terminal, says the lines were not saved, where the journal lists what was applied, and to give --results", () => {
    expect(resumeHint({ ...batch, results: undefined }, true)).toBe(
      "this run's results were shown, not saved (`foodctl journal --batch 20261128-031500-ab12cd` lists what it applied): give --results next time to make a run resumable",
    );
    expect(resumeHint({ ...batch, results: undefined, journaled: false }, true)).toBe(
      "this run's results were shown, not saved: give --results next time to make a run resumable",
    );
  });
});
