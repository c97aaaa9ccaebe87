/** `intake show --image` and `--web`: the intake's picture drawn in the terminal, or opened in the browser. */
import type { ApiClient } from "../../api/client.js";
import { TransportError } from "../../api/transport.js";
import type { Context } from "../../context.js";
import { CliError, failure, unavailableError } from "../../errors.js";
import { readImageHeader } from "../../intake/imageType.js";
import {
  fitCells,
  halfBlockImage,
  hasTrueColor,
  imageProtocol,
  itermImage,
  kittyImage,
  type Cells,
  type RgbaImage,
} from "../../output/terminalImage.js";
import type { Intake } from "../../records/intake.js";
import { cleanForTerminal, quoted } from "../../sanitize.js";
import { isLoopbackHost } from "../../hosts.js";
import { imageAddressProblem } from "../../imageAddress.js";
import { decodePixels, imageSizeProblem, MAX_SHOWN_IMAGE_BYTES, resample, uprightSize } from "./imagePixels.js";

/** Columns the picture takes at most: enough to recognise a plate, short enough to keep the summary on screen. */
const MAX_IMAGE_COLUMNS = 40;
/** Rows it takes at most, for a tall picture. */
const MAX_IMAGE_ROWS = 20;
/** Pixels per column sent to a terminal that draws images itself: sharp on a high-density screen, small to send. */
const PIXELS_PER_COLUMN = 16;

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
    throw failure(`intake ${intake.image_id}: its image_url is not a URL: ${quoted(text)}`);
  }
  const local = url.protocol === "http:" && isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !local)
    throw failure(`intake ${intake.image_id}: its image is not on https (${url.protocol}//${url.host}): not fetched`);
  return url;
}

/** The image URL, refused (with the URL) when a remote API points at this machine or its network (src/imageAddress.ts). */
async function reachableImageUrl(ctx: Context, intake: Intake, what: "fetched" | "opened"): Promise<URL> {
  const url = imageUrlOf(intake);
  const problem = await imageAddressProblem(url, ctx.apiUrl());
  if (problem) throw failure(`${problem}: not ${what}; it is at ${cleanForTerminal(url.href)}`);
  return url;
}

/**
 * Draws the image below the summary on a terminal (its image protocol, else half-blocks); piped,
 * prints its URL. What is not drawn (too large, not an image foodctl draws, unreadable) is said
 * with its URL, and the run still succeeds: the intake was shown.
 */
export async function drawIntakeImage(ctx: Context, client: ApiClient, intake: Intake): Promise<void> {
  const url = await reachableImageUrl(ctx, intake, "fetched");
  const at = cleanForTerminal(url.href);
  if (!ctx.io.stdout.isTTY) {
    ctx.io.stdout.write(`${at}\n`);
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
  if (bytes === null) return ctx.info(`the image is larger than ${MAX_SHOWN_IMAGE_BYTES / 1_000_000} MB: not drawn; it is at ${at}`);
  const header = await readImageHeader(bytes);
  if (!header) return ctx.info(`the image is not a JPEG, PNG, GIF or WebP foodctl can read: not drawn; it is at ${at}`);
  const tooLarge = imageSizeProblem(header);
  if (tooLarge) return ctx.info(`the image is not drawn: ${tooLarge}; it is at ${at}`);
  let pixels: RgbaImage;
  try {
    pixels = await decodePixels(bytes, header);
  } catch (error) {
    return ctx.info(`the image cannot be drawn (${cleanForTerminal((error as Error).message)}); it is at ${at}`);
  }
  const upright = uprightSize(header);
  const cells = fitCells(upright.width, upright.height, Math.min(ctx.io.stdout.columns ?? 80, MAX_IMAGE_COLUMNS), MAX_IMAGE_ROWS);
  ctx.io.stdout.write(`${await renderImage(ctx.io.env, pixels, header.orientation, cells)}\n`);
}

/** The picture in the terminal's own protocol, a PNG of at most PIXELS_PER_COLUMN a column; else in half-blocks. */
async function renderImage(env: NodeJS.ProcessEnv, pixels: RgbaImage, orientation: number, cells: Cells): Promise<string> {
  const protocol = imageProtocol(env);
  if (protocol === "blocks") return halfBlockImage(resample(pixels, orientation, cells.columns, cells.pixelRows), hasTrueColor(env));
  const upright = uprightSize({ ...pixels, orientation });
  const width = Math.min(upright.width, cells.columns * PIXELS_PER_COLUMN);
  const height = Math.max(1, Math.round((width * upright.height) / upright.width));
  const shown = resample(pixels, orientation, width, height);
  const { PNG } = await import("pngjs");
  const image = new PNG({ width, height });
  image.data = Buffer.from(shown.data.buffer, shown.data.byteOffset, shown.data.length);
  const png = PNG.sync.write(image);
  return protocol === "kitty" ? kittyImage(png, cells) : itermImage(png, cells);
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
  const url = await reachableImageUrl(ctx, intake, "opened");
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
