/** `intake show --image` and `--web`: the intake's picture drawn in the terminal, or opened in the browser. */
import type { ApiClient } from "../../api/client.js";
import { isLoopbackHost, TransportError } from "../../api/transport.js";
import type { Context } from "../../context.js";
import { CliError, failure, unavailableError } from "../../errors.js";
import type { Intake } from "../../records/intake.js";
import { cleanForTerminal } from "../../sanitize.js";

/** A photo to look at, not an upload: larger than a display image may be, bounded all the same. */
export const MAX_SHOWN_IMAGE_BYTES = 8 * 1024 * 1024;
/** Columns the picture takes at most: enough to recognise a plate, short enough to keep the summary on screen. */
const MAX_IMAGE_COLUMNS = 40;

/** An ES module package's default export: built, import() is a require() whose namespace the bundle wraps once more as `default`. */
function defaultExport<T>(loaded: { default: T }): T {
  return (loaded.default as { default?: T }).default ?? loaded.default;
}

/** The intake's image URL (the display image when attached: docs/api.md), refused unless https or on this machine. */
export function imageUrlOf(intake: Intake): URL {
  const text = intake.image_url;
  if (!text) throw failure(`intake ${intake.image_id} names no image (no image_url)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw failure(`intake ${intake.image_id}: its image_url is not a URL: ${JSON.stringify(text)}`);
  }
  const local = url.protocol === "http:" && isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !local)
    throw failure(`intake ${intake.image_id}: its image is not on https (${url.protocol}//${url.host}): not fetched`);
  return url;
}

/** Draws the image below the summary on a terminal (its image protocol, else half-blocks); piped, prints its URL. */
export async function drawIntakeImage(ctx: Context, client: ApiClient, intake: Intake): Promise<void> {
  const url = imageUrlOf(intake);
  if (!ctx.io.stdout.isTTY) {
    ctx.io.stdout.write(`${cleanForTerminal(url.href)}\n`);
    return;
  }
  let bytes: Buffer | null;
  try {
    bytes = await client.downloadImage(url, MAX_SHOWN_IMAGE_BYTES);
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (error instanceof TransportError) throw unavailableError(`cannot fetch the image from ${url.host}: ${error.message}`);
    throw error;
  }
  if (bytes === null) throw failure(`the image is larger than 8 MiB: not drawn; it is at ${url.href}`);
  const terminalImage = defaultExport(await import("terminal-image"));
  let drawn: string;
  try {
    drawn = await terminalImage.buffer(bytes, { width: Math.min(ctx.io.stdout.columns ?? 80, MAX_IMAGE_COLUMNS) });
  } catch (error) {
    throw failure(`the image at ${url.href} cannot be drawn: ${(error as Error).message}`);
  }
  ctx.io.stdout.write(drawn === "" ? "" : `${drawn}\n`);
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
export const OPENER_ANSWER_MS = 5_000;

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

/**
 * Opens the image in the browser, as `gh … --web` does, and waits for the opener's answer: when
 * no browser opened, says so with the URL (exit 8). Off a terminal or with no display, prints the URL.
 */
export async function openIntakeImage(ctx: Context, intake: Intake): Promise<void> {
  const url = imageUrlOf(intake);
  if (!canOpenBrowser(ctx.io.env)) {
    ctx.info(`no browser to open here (no display): the image is at ${url.href}`);
    return;
  }
  if (ctx.io.stdout.isTTY !== true) {
    ctx.info(`not on a terminal, so no browser is opened: the image is at ${url.href}`);
    return;
  }
  const open = defaultExport(await import("open"));
  let answer: OpenerAnswer;
  try {
    answer = await openerAnswer(await open(url.href), ctx.signal);
  } catch (error) {
    answer = { error: error as Error };
  }
  if (answer === "running" || ("exit" in answer && answer.exit === 0)) {
    ctx.info(`opened ${url.href} in the browser`);
    return;
  }
  const why =
    "error" in answer
      ? answer.error.message
      : answer.exit === null
        ? `the opener ended on ${answer.signal ?? "a signal"}`
        : `the opener (xdg-open or open) exited with code ${answer.exit}`;
  throw unavailableError(`no browser opened the image (${why}): it is at ${url.href}`, {
    hint: "open that URL yourself, or set BROWSER to a browser command",
  });
}
