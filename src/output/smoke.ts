/**
 * Printing a smoke check: a table on a terminal, tab-separated rows piped, one JSON document,
 * a JUnit XML report, and the loud message of a failed restore. Pure: data in, text out. The
 * caller has masked tokens; terminal-unsafe characters are replaced here.
 */
import type { ErrorJson } from "../errors.js";
import type { OutputStream } from "../io.js";
import { cleanForTerminal, jsonDocument } from "../sanitize.js";
import { styler } from "./style.js";
import { renderTable } from "./table.js";

/** "interrupted": cut short by Ctrl-C or SIGTERM (a failure in the JUnit report, of type "interrupted"). */
export type StepResultName = "passed" | "failed" | "skipped" | "interrupted";

export interface SmokeStepReport {
  step: string;
  result: StepResultName;
  ms: number;
  detail: string;
  error: Omit<ErrorJson, "service_code"> | null;
}

export interface RestoreFailure {
  /** One line per item of the original intake. */
  original: string[];
  /** The update fields that would put it back. */
  fields: Record<string, unknown>;
  /** A command that would send them. */
  command: string;
  /** `foodctl undo <entry>` of the smoke check's change, when it was journaled. */
  undo: string | null;
}

export interface SmokeReport {
  imageId: number;
  passed: boolean;
  exitCode: number;
  steps: SmokeStepReport[];
  restoreFailed: RestoreFailure | null;
  /** When the run started (ISO 8601), for the JUnit timestamp. */
  startedAt: string;
  /** The step that was running when Ctrl-C or SIGTERM came, if one was: the JUnit report's error sits there. */
  signalDuring?: string | null;
}

/** The JUnit error of a run stopped by a signal where no step itself failed (the signal came while a step that then finished ran). */
const SIGNAL_ERROR = "interrupted by Ctrl-C or SIGTERM: the smoke check did not finish";

export function renderSmokeSteps(report: SmokeReport, stream: OutputStream, color: boolean): string {
  // Plain result words: the table's column widths count characters, and colour codes would count too.
  const rows = report.steps.map((step) => [step.step, step.result, step.ms, cleanForTerminal(step.detail)]);
  return renderTable(stream, { head: ["step", "result", "ms", "detail"], rows, alignRight: [2], color });
}

export function renderSmokeJson(report: SmokeReport): string {
  return jsonDocument({
    image_id: report.imageId,
    passed: report.passed,
    exit_code: report.exitCode,
    steps: report.steps,
    restore_failed: report.restoreFailed,
  });
}

/** The message a failed restore leaves on stderr: what the intake was, and how to put it back. */
export function renderRestoreFailure(imageId: number, failure: RestoreFailure, color: boolean): string {
  const s = styler(color);
  const lines = [
    s.red(s.bold(`RESTORE FAILED: intake ${imageId} may be left changed by the smoke check.`)),
    `Its original values:`,
    ...failure.original.map((line) => `  ${cleanForTerminal(line)}`),
    `Put them back with:`,
    `  ${cleanForTerminal(failure.command)}`,
    ...(failure.undo ? [`or undo the smoke check's change:`, `  ${cleanForTerminal(failure.undo)}`] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/** XML 1.0 text: the five special characters escaped, characters XML cannot hold replaced by U+FFFD. */
export function xmlEscape(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "\ufffd",
    )
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * JUnit XML as CI tools read it (GitLab, Jenkins, GitHub test reporters): one `testsuite` named
 * "foodctl smoke", one `testcase` per step, `failure` with the message, `skipped` for skipped steps.
 */
export function renderJunit(report: SmokeReport): string {
  const count = (result: StepResultName) => report.steps.filter((step) => step.result === result).length;
  const failures = count("failed") + count("interrupted");
  // A run that exits non-zero never reads as green: with no failed step, the error sits on the step the signal came during.
  const errorStep = report.exitCode !== 0 && failures === 0 ? signalStep(report) : undefined;
  const total = seconds(report.steps.reduce((sum, step) => sum + step.ms, 0));
  const skippedCount = count("skipped") - (errorStep?.result === "skipped" ? 1 : 0);
  const counts = `tests="${report.steps.length}" failures="${failures}" errors="${errorStep ? 1 : 0}" skipped="${skippedCount}" time="${total}"`;
  const classname = xmlEscape(`foodctl smoke.intake ${report.imageId}`);
  const cases = report.steps.map((step) => {
    const open = `    <testcase name="${xmlEscape(step.step)}" classname="${classname}" time="${seconds(step.ms)}"`;
    if (step === errorStep) {
      const out = step.result === "passed" ? `\n      <system-out>${xmlEscape(step.detail)}</system-out>` : "";
      const message = `${SIGNAL_ERROR} (this step ${step.result === "passed" ? "finished" : "did not run"})`;
      return `${open}>\n      <error message="${xmlEscape(message)}" type="interrupted">exit code ${report.exitCode}</error>${out}\n    </testcase>`;
    }
    if (step.result === "passed") return `${open}>\n      <system-out>${xmlEscape(step.detail)}</system-out>\n    </testcase>`;
    if (step.result === "skipped") return `${open}>\n      <skipped message="${xmlEscape(step.detail)}"/>\n    </testcase>`;
    const type = step.error?.code ?? "failure";
    const hint = step.error?.hint ? `hint: ${step.error.hint}` : "";
    const body = [step.detail, hint, step.error ? `exit code ${step.error.exit_code}` : ""].filter(Boolean).join("\n");
    return `${open}>\n      <failure message="${xmlEscape(step.detail)}" type="${xmlEscape(type)}">${xmlEscape(body)}</failure>\n    </testcase>`;
  });
  const timestamp = report.startedAt.replace(/\.\d+Z$|Z$/, "");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="foodctl smoke" ${counts}>`,
    `  <testsuite name="foodctl smoke" ${counts} timestamp="${xmlEscape(timestamp)}">`,
    `    <properties>`,
    `      <property name="image_id" value="${report.imageId}"/>`,
    `    </properties>`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

/** The step a signal came during, else the first one it kept from running, else the last one run. */
function signalStep(report: SmokeReport): SmokeStepReport | undefined {
  const { steps } = report;
  return (
    steps.find((step) => step.step === report.signalDuring) ??
    steps.find((step) => step.result === "skipped" && step.detail === "interrupted") ??
    steps.findLast((step) => step.result !== "skipped") ??
    steps[0]
  );
}
