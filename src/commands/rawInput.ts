/** A verb's command line as commander hands it over, read as the verb declares it (spec.ts). */

/** What the command line gave a verb, as commander hands it over. */
export class RawInput {
  constructor(
    private readonly args: readonly (string | string[] | undefined)[],
    private readonly options: Readonly<Record<string, unknown>>,
  ) {}

  /** A required argument (commander refuses the command line without it). */
  arg(index: number): string {
    const value = this.args[index];
    return typeof value === "string" ? value : "";
  }

  /** A variadic argument: `<values...>` or `[positions...]`. */
  list(index: number): string[] {
    const value = this.args[index];
    return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  }

  /** A boolean option: `--dry-run` is `flag("dryRun")`. */
  flag(name: string): boolean {
    return this.options[name] === true;
  }

  /** A negatable option, on unless negated: `--no-verify` is `on("verify")`. */
  on(name: string): boolean {
    return this.options[name] !== false;
  }

  /** An option's value: `--salt <level>` is `text("salt")`. */
  text(name: string): string | undefined {
    const value = this.options[name];
    return typeof value === "string" ? value : undefined;
  }

  /** An option's value as its `parse` made it (the text when it has none). */
  value(name: string): unknown {
    return this.options[name];
  }

  /** A repeated option's values in the order given (none: an empty list). */
  repeated(name: string): string[] {
    const value = this.options[name];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  }

  /** Each declared argument and option, read as its notation says (`ArgValue`, `OptionValue`). */
  read(args: Record<string, { name: string }>, options: Record<string, { flags: string; repeat?: true }>): Record<string, unknown> {
    const read: Record<string, unknown> = {};
    Object.entries(args).forEach(([key, { name }], index) => {
      read[key] = name.includes("...") ? this.list(index) : name.startsWith("[") ? this.list(index)[0] : this.arg(index);
    });
    for (const [key, { flags, repeat }] of Object.entries(options)) {
      read[key] = repeat
        ? this.repeated(key)
        : /[<[]/.test(flags)
          ? this.value(key)
          : flags.includes("--no-")
            ? this.on(key)
            : this.flag(key);
    }
    return read;
  }
}
