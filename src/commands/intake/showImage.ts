/** `intake show --image` and `--web`: which image URL is fetched or opened, and what is said of it (drawn by output/). */
import type { ApiClient } from "../../api/client.js";
import { TransportError } from "../../api/transport.js";
import type { Context } from "../../context.js";
import { CliError, failure, unavailableError } from "../../errors.js";
import { isLoopbackHost } from "../../hosts.js";
import { drawImage, MAX_SHOWN_IMAGE_BYTES } from "../../output/intakeImage.js";
import { canOpenBrowser, openInBrowser } from "../../output/browser.js";
import type { Intake } from "../../records/intake.js";
import { cleanForTerminal, quoted } from "../../sanitize.js";

/** The intake's image URL (the display image when attached: docs/api.md), refused unless https or on this machine. */
function imageUrlOf(intake: Intake): URL {
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
  const { imageAddressProblem } = await import("../../imageAddress.js");
  const problem = await imageAddressProblem(url, ctx.apiUrl());
  if (problem) throw failure(`${problem}: not ${what}; it is at ${cleanForTerminal(url.href)}`);
  return url;
}

/**
 * Draws the image below the summary on a terminal; piped, prints its URL. What is not drawn (too
 * large, not an image foodctl draws, unreadable) is said with its URL, and the run still succeeds: the intake was shown.
 */
export async function drawIntakeImage(ctx: Context, client: ApiClient, intake: Intake): Promise<void> {
  const url = await reachableImageUrl(ctx, intake, "fetched");
  const at = cleanForTerminal(url.href);
  if (!ctx.io.stdout.isTTY) {
    ctx.printRaw(`${at}\n`);
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
  const image = await drawImage(bytes, ctx.io.env, ctx.io.stdout.columns);
  if ("notDrawn" in image) return ctx.info(`${image.notDrawn}; it is at ${at}`);
  ctx.printRaw(image.drawn);
}

/** Opens the image in the browser: when none opened, says so with the URL (exit 8); off a terminal or with no display, says the URL. */
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
  const why = await openInBrowser(url.href, ctx.signal);
  if (why === null) return ctx.info(`opened ${url.href} in the browser`);
  const browser = ctx.io.env.BROWSER;
  throw unavailableError(`no browser opened the image (${browser ? `BROWSER=${quoted(browser)}: ` : ""}${why}): it is at ${url.href}`, {
    hint: browser
      ? `BROWSER names a command that opened no browser: set it to one that works here (BROWSER=firefox), or open that URL yourself`
      : "set BROWSER to a browser command (BROWSER=firefox), or open that URL yourself",
  });
}
