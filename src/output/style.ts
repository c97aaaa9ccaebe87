/** The few styles the printers use; plain text when colour is off. */
const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

export type StyleName = keyof typeof codes;
export type Styler = Record<StyleName, (text: string) => string>;

export function styler(enabled: boolean): Styler {
  const entries = Object.entries(codes).map(([name, [open, close]]) => [
    name,
    enabled ? (text: string) => `\u001b[${open}m${text}\u001b[${close}m` : (text: string) => text,
  ]);
  return Object.fromEntries(entries) as Styler;
}
