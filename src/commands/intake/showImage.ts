/** `intake show --image` and `--web`: the intake's picture drawn in the terminal, or opened in the browser. */
import type { ApiClient } from "../../api/client.js";
import { TransportError } from "../../api/transport.js";
import type { Context } from "../../context.js";
import { CliError, failure, unavailableError } from "../../errors.js";
import type { Intake } from "../../records/intake.js";
import { cleanForTerminal } from "../../sanitize.js";
import { isLoopbackHost } from "../../hosts.js";

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

/** Opens the image in the browser, as `gh … --web` does; without one, prints the URL and says so. */
export async function openIntakeImage(ctx: Context, intake: Intake): Promise<void> {
  const url = imageUrlOf(intake);
  if (!canOpenBrowser(ctx.io.env)) {
    ctx.info(`no browser to open here (no display): the image is at ${url.href}`);
    return;
  }
  const open = defaultExport(await import("open"));
  try {
    await open(url.href);
  } catch (error) {
    ctx.info(`cannot open a browser (${(error as Error).message}): the image is at ${url.href}`);
    return;
  }
  ctx.info(`opening ${url.href} in the browser`);
}
