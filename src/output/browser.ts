/** `intake show --web`: a URL opened in the browser, as `gh … --web` does. */

/** An ES module package's default export: built, import() is a require() whose namespace the bundle wraps once more as `default`. */
function defaultExport<T>(loaded: { default: T }): T {
  return (loaded.default as { default?: T }).default ?? loaded.default;
}

/** True where a browser can be shown: macOS and Windows always, elsewhere with a display (or $BROWSER). */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.BROWSER);
}

/**
 * How long the opener (xdg-open, open, start) is given to answer. One that hands the URL to a
 * running browser answers at once; one still running after this has started a browser of its own.
 */
const OPENER_ANSWER_MS = 5_000;

/** How the opener ended: its exit code, a failure to start, or still running (a browser it started). */
type OpenerAnswer = { exit: number | null; signal: NodeJS.Signals | null } | { error: Error } | "running";

function openerAnswer(child: import("node:child_process").ChildProcess, signal: AbortSignal): Promise<OpenerAnswer> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("running"), OPENER_ANSWER_MS);
    const done = (answer: OpenerAnswer) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const onAbort = () => done("running");
    signal.addEventListener("abort", onAbort, { once: true });
    child.once("error", (error) => done({ error }));
    child.once("exit", (exit, exitSignal) => done({ exit, signal: exitSignal }));
  });
}

/** The program `open` runs here to open a URL: xdg-open reads BROWSER (docs/cli.md). */
const OPENER: Partial<Record<NodeJS.Platform, string>> = { darwin: "open", win32: "start" };

/** Opens `url` in the browser, as `gh … --web` does, and waits for the opener's answer: null when a browser opened, else why not. */
export async function openInBrowser(
  url: string,
  signal: AbortSignal,
  platform: NodeJS.Platform = process.platform,
): Promise<string | null> {
  const open = defaultExport(await import("open"));
  let answer: OpenerAnswer;
  try {
    answer = await openerAnswer(await open(url), signal);
  } catch (error) {
    answer = { error: error as Error };
  }
  if (answer === "running" || ("exit" in answer && answer.exit === 0)) return null;
  if ("error" in answer) return answer.error.message;
  return answer.exit === null
    ? `the opener ended on ${answer.signal ?? "a signal"}`
    : `the opener (${OPENER[platform] ?? "xdg-open"}) exited with code ${answer.exit}`;
}
