/**
 * `foodctl api <path>`: any request to the API with the profile's URL and token, through the one
 * client (retries, rate limit, --verbose, exit codes). Not journaled: undo cannot reach it.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import { MAX_RESPONSE_BYTES, type ResponseInfo } from "../../api/client.js";
import { jsonRequestBody } from "../../api/transport.js";
import type { Context } from "../../context.js";
import { EXIT, usageError } from "../../errors.js";
import { notRegularFile } from "../../files.js";
import { readAtMost } from "../../io.js";
import { cleanForTerminal, cleanParsedValue, jsonBody, jsonDocument } from "../../sanitize.js";
import { redactSecrets } from "../../secrets.js";
import { addQueryFields, readApiRequest, type ApiRequest } from "./request.js";

export interface ApiOptions {
  path: string;
  method: string | undefined;
  field: string[];
  rawField: string[];
  header: string[];
  input: string | undefined;
  include: boolean;
  dryRun: boolean;
  curl: boolean;
}

/** A body or a `-F key=@file` value is read whole, up to the size of the largest answer foodctl reads. */
async function readSource(ctx: Context, source: string, what: string): Promise<Buffer> {
  if (source === "-") {
    if (ctx.io.stdin.isTTY) throw usageError(`${what}: stdin is a terminal: pipe the data into it, or give a file`);
    const bytes = await readAtMost(ctx.io.stdin as AsyncIterable<Buffer>, MAX_RESPONSE_BYTES);
    if (bytes.byteLength > MAX_RESPONSE_BYTES) throw usageError(`${what}: stdin holds more than 16 MiB`);
    return bytes;
  }
  let info;
  try {
    info = await stat(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(`${what}: ${code === "ENOENT" ? "no such file" : "cannot read"} ${source}`);
  }
  const kind = notRegularFile(info);
  if (kind) throw usageError(`${what}: ${source} is ${kind}, not a file`);
  if (info.size > MAX_RESPONSE_BYTES) throw usageError(`${what}: ${source} is larger than 16 MiB`);
  try {
    return await readAtMost(createReadStream(source), MAX_RESPONSE_BYTES);
  } catch (error) {
    throw usageError(`${what}: cannot read ${source}: ${(error as Error).message}`);
  }
}

/** Stdin is one stream: only one of --input and the `-F key=@-` values may read it. */
function refuseStdinTwice(options: ApiOptions): void {
  const readers = [options.input === "-", ...options.field.map((field) => field.slice(field.indexOf("=") + 1) === "@-")];
  if (readers.filter(Boolean).length > 1) throw usageError("stdin can be read once: give it to one of --input and -F key=@-");
}

interface Prepared {
  url: URL;
  headers: Record<string, string>;
  /** What is sent. */
  body: Buffer | undefined;
  /** What --dry-run shows of it: the JSON fields, or the --input body as text. */
  shown: unknown;
}

/** Fields go in the query of a GET or HEAD and beside an --input body, else in a JSON body (as `gh api` does). */
function prepare(request: ApiRequest, url: URL, input: Buffer | undefined): Prepared {
  const json = { "content-type": "application/json" };
  if (input !== undefined) {
    addQueryFields(url, request.fields);
    return { url, headers: { ...json, ...request.headers }, body: input, shown: input.toString("utf8") };
  }
  if (request.method === "GET" || request.method === "HEAD" || Object.keys(request.fields).length === 0) {
    addQueryFields(url, request.fields);
    return { url, headers: request.headers, body: undefined, shown: null };
  }
  return { url, headers: { ...json, ...request.headers }, body: jsonRequestBody(request.fields), shown: request.fields };
}

/** The answer's body: as received when piped, pretty and cleaned on a terminal, controls escaped under --json. */
function showBody(ctx: Context, raw: string): string {
  if (raw === "") return "";
  if (ctx.json) return jsonBody(raw);
  if (ctx.io.stdout.isTTY !== true) return raw;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    const text = cleanForTerminal(raw);
    return text.endsWith("\n") ? text : `${text}\n`;
  }
  return jsonDocument(cleanParsedValue(data));
}

/** `--include`: the status line and the headers, then a blank line, as curl -i shows them. */
function showHead(ctx: Context, result: ResponseInfo): string {
  const clean = (text: string) => (ctx.io.stdout.isTTY === true ? cleanForTerminal(text) : text);
  const lines = [`HTTP/1.1 ${result.status} ${STATUS_CODES[result.status] ?? ""}`.trimEnd()];
  for (const [name, value] of Object.entries(result.headers)) if (value !== undefined) lines.push(clean(`${name}: ${value}`));
  return `${lines.join("\n")}\n\n`;
}

export async function apiCommand(ctx: Context, options: ApiOptions): Promise<number> {
  if (options.include && ctx.json) throw usageError("--include and --json cannot be combined: --json prints one JSON document");
  refuseStdinTwice(options);
  const base = ctx.apiUrl();
  const request = await readApiRequest(
    {
      path: options.path,
      method: options.method,
      fields: options.field,
      rawFields: options.rawField,
      headers: options.header,
      input: options.input,
    },
    base,
    async (source) => (await readSource(ctx, source, "-F")).toString("utf8"),
  );
  const input = options.input === undefined ? undefined : await readSource(ctx, options.input, "--input");
  const client = await ctx.client();
  const { url, headers, body, shown } = prepare(request, client.url(request.path), input);
  if (options.dryRun) {
    const description = client.describe(request.method, url, shown, headers);
    if (options.curl) {
      const { curlCommand, tokenReference } = await import("../../output/curl.js");
      ctx.printRaw(curlCommand({ request: description, bodyFile: options.input }, tokenReference(ctx)));
    } else {
      const { renderDryRun } = await import("../../output/changeResult.js");
      await ctx.print({ jsonBody: renderDryRun(description, true), text: () => renderDryRun(description, false) });
    }
    if (!ctx.json) ctx.info("dry run: nothing was sent");
    return EXIT.ok;
  }
  // An error answer's body is printed too (as gh api does), then the error as every command words it.
  let answer: ResponseInfo | undefined;
  const watched = client.derive({ onResponse: (info) => (answer = info) });
  try {
    const result = await watched.request(request.method, url, body, headers);
    ctx.printRaw(`${options.include ? showHead(ctx, result) : ""}${showBody(ctx, result.raw)}`);
  } catch (error) {
    if (answer && answer.status >= 300 && !ctx.json) {
      // A server may echo the token back in its error: masked, as in the error's message.
      const raw = redactSecrets(answer.body?.toString("utf8") ?? "");
      ctx.printRaw(`${options.include ? showHead(ctx, answer) : ""}${showBody(ctx, raw)}`);
    }
    throw error;
  }
  return EXIT.ok;
}
