/**
 * The manual (docs/manual/*.md, man/*.1) is generated from the command tree by `npm run docs`
 * and committed: generated again here into memory, it must equal the committed files, and
 * package.json's `man` must list every man page. Each command's help ends with the line naming
 * its page.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "../../src/batch/csv.js";
import { JSONL_KEYS } from "../../src/batch/jsonl.js";
import { generateManual, MAN_DIR, MANUAL_DIR } from "../../scripts/docs/manual.js";
import { markdownText } from "../../scripts/docs/markdown.js";
import { roffText } from "../../scripts/docs/roff.js";
import { runFoodctl } from "../helpers/cli.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const manual = await generateManual();
const committed = (dir: string, suffix: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith(suffix))
    .map((name) => `${dir}/${name}`);

describe("the generated manual", () => {
  it("is committed as `npm run docs` writes it", () => {
    const onDisk = [...committed(MANUAL_DIR, ".md"), ...committed(MAN_DIR, ".1"), ...committed(MAN_DIR, ".7")];
    const stale = [
      ...[...manual.files].filter(([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), "utf8") !== text),
      ...onDisk.filter((path) => !manual.files.has(path)).map((path) => [path]),
    ].map(([path]) => path);
    expect(stale, `stale or missing: run \`npm run docs\` and commit ${stale.join(", ")}`).toEqual([]);
  });

  it("is listed whole in package.json's man field", () => {
    const { man } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { man?: string[] };
    expect(man, "package.json's man is stale: run `npm run docs`").toEqual(manual.man);
    expect(man).toContain("./man/foodctl.1");
    expect(man).toContain("./man/foodctl-intake-set-quantity.1");
  });

  it("is the same when generated again: nothing from the clock or the machine", async () => {
    const again = await generateManual();
    expect([...again.files]).toEqual([...manual.files]);
  });

  it("has a page for each visible command, and none for hidden ones", () => {
    const pages = [...manual.files.keys()].filter((path) => path.startsWith(`${MAN_DIR}/`));
    expect(pages).toEqual(
      expect.arrayContaining(["man/foodctl.1", "man/foodctl-intake.1", "man/foodctl-intake-show.1", "man/foodctl-sandbox-stop.1"]),
    );
    expect(pages.filter((path) => path.includes("complete"))).toEqual([]);
    expect(manual.files.get(`${MANUAL_DIR}/README.md`)).toContain("[`foodctl intake show`](foodctl-intake-show.md)");
  });

  it("writes each man page's sections, with options that copy as typed", () => {
    const page = manual.files.get("man/foodctl-intake-set-modifiers.1")!;
    const sections = [...page.matchAll(/^\.SH "?([A-Z ]+)"?$/gm)].map((match) => match[1]);
    expect(sections).toEqual([
      "NAME",
      "SYNOPSIS",
      "DESCRIPTION",
      "ARGUMENTS",
      "OPTIONS",
      "GLOBAL OPTIONS",
      "EXAMPLES",
      "EXIT STATUS",
      "SEE ALSO",
    ]);
    expect(page).toContain("\\fB\\-\\-salt\\fR \\fI<level>\\fR");
    expect(page).toMatch(/^\.TH "FOODCTL\\-INTAKE\\-SET\\-MODIFIERS" "1" "" "foodctl \d+\.\d+\.\d+/m);
    // No line a roff reader would take for a request it does not know.
    const requests = new Set([".TH", ".SH", ".TP", ".PP", ".nf", ".fi", ".nh", ".ad", ".BR", ".PD", '.\\"']);
    for (const [path, text] of manual.files) {
      if (!path.endsWith(".1")) continue;
      const unknown = text.split("\n").filter((line) => /^[.']/.test(line) && !requests.has(line.split(" ")[0]!));
      expect(unknown, path).toEqual([]);
    }
  });

  it("escapes text for roff and Markdown", () => {
    expect(roffText("--dry-run 'a' `b` ~ ^ \\ →")).toBe("\\-\\-dry\\-run \\(aqa\\(aq \\(gab\\(ga \\(ti \\(ha \\e \\[u2192]");
    expect(roffText(".starts a line\n.and another")).toBe("\\&.starts a line\n\\&.and another");
    expect(markdownText("<pos>=<grams> `--salt <level>` *all* [x] image_id _x_")).toBe(
      "\\<pos\\>=\\<grams\\> `--salt <level>` \\*all\\* \\[x\\] image_id \\_x\\_",
    );
  });
});

describe("help names the manual page", () => {
  it.each([...manual.titles])("%s: --help ends with its examples and `see: man` it", async (page, title) => {
    const result = await runFoodctl([...title.split(" ").slice(1), "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nExamples:\n/);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(`see: man ${page}`);
  });

  it("in `intake apply --help`: every input key, one JSON line and one CSV line", async () => {
    const help = (await runFoodctl(["intake", "apply", "--help"])).stdout;
    const flat = help.replace(/\s+/g, " ");
    for (const key of new Set([...JSONL_KEYS, ...CSV_COLUMNS])) expect(flat).toContain(key);
    expect(help).toMatch(/^ {2}echo '\{"image_id": \d+, .*\}' \| \\$/m);
    expect(help).toMatch(/^ {2}printf '%s\\n' image_id,[a-z_,]+ \d+,\S+ \| /m);
  });
});
