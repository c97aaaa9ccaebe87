/** The commands foodctl prints for the user to run (apply's resume line, smoke's restore line) quote each word once, as a shell reads it back. */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellQuote } from "../../src/sanitize.js";

describe("shellQuote", () => {
  it.each(["fixes.jsonl", "https://api.example.com/v2", "key=value", "my fixes.jsonl", "it's.csv", "$HOME;rm -rf x", "a\nb", "*"])(
    "%j reads back as itself in sh",
    (word) => {
      expect(execFileSync("sh", ["-c", `printf %s ${shellQuote(word)}`], { encoding: "utf8" })).toBe(word);
    },
  );

  it("leaves a plain word bare and quotes one the shell would split or expand", () => {
    expect(shellQuote("results.jsonl")).toBe("results.jsonl");
    expect(shellQuote("https://api.example.com:8443/v2")).toBe("https://api.example.com:8443/v2");
    expect(shellQuote("my fixes.jsonl")).toBe("'my fixes.jsonl'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
