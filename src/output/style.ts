/**
 * The few styles the printers use, through chalk when colour is on (docs/cli.md, colour:
 * `--no-color`, NO_COLOR and FORCE_COLOR decide, not chalk's own detection); plain text when
 * it is off. chalk is loaded only by a run that shows colour.
 */
export type StyleName = "bold" | "dim" | "red" | "green" | "yellow" | "cyan";
export type Styler = Record<StyleName, (text: string) => string>;

const plain = (text: string) => text;
const PLAIN: Styler = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
let coloured: Styler | undefined;

export function styler(enabled: boolean): Styler {
  if (!enabled) return PLAIN;
  if (!coloured) {
    // Required, not imported: a run without colour never loads it. Level 1 is the 16 basic colours a terminal always has.
    const { Chalk } = require("chalk") as typeof import("chalk");
    const chalk = new Chalk({ level: 1 });
    coloured = { bold: chalk.bold, dim: chalk.dim, red: chalk.red, green: chalk.green, yellow: chalk.yellow, cyan: chalk.cyan };
  }
  return coloured;
}
