/**
 * `--dry-run --curl`: a request as one curl command a colleague can run (docs/cli.md, dry run).
 * The token is never in it: the command reads it when it runs, from FOODCTL_TOKEN when that is
 * where it came from, else from `foodctl auth token` for the same profile.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { RequestDescription } from "../api/client.js";
import { jsonRequestBody } from "../api/transport.js";
import type { Context } from "../context.js";
import type { IO } from "../io.js";
import type { ResultPrinter } from "./batchOutput.js";
import { shellQuote } from "../sanitize.js";

export interface CurlRequest {
  request: RequestDescription;
  /** The body is this file's bytes, read when the command runs (`foodctl api --input`). */
  bodyFile?: string | undefined;
  /**
   * The file a multipart upload reads when the command runs (display-image attach; `-` is
   * stdin); the field, file name and type are the request's (`describeUpload`).
   */
  uploadPath?: string | undefined;
}

interface UploadField {
  field: string;
  filename: string;
  contentType: string;
}

/** The one file field `describeUpload` wrote into a request's body. */
function uploadField(body: unknown): UploadField {
  const [field, file] = Object.entries(body as Record<string, { filename: string; content_type: string }>)[0]!;
  return { field, filename: file.filename, contentType: file.content_type };
}

/** True when a directory of `path` holds an executable `name`. */
function onPath(path: string, name: string): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return statSync(join(dir, name)).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * The words that run foodctl where the line is pasted: `foodctl` when the shell's PATH has one, else
 * this program by its paths (npx, a checkout: `node …/bin/foodctl.js`). Under npm (npx, a script)
 * the PATH is npm's, which the user's shell does not have.
 */
export function foodctlWords({ program, env }: IO): string {
  if (!program || (env.npm_lifecycle_event === undefined && onPath(env.PATH ?? "", "foodctl"))) return "foodctl";
  return `${shellQuote(program.node)} ${shellQuote(program.script)}`;
}

/** The shell text that gives the token when the command runs: a variable or `foodctl auth token`, never the token itself. */
export function tokenReference(ctx: Context): string {
  const settings = ctx.settings();
  if (settings.token?.source === "env") return "$FOODCTL_TOKEN";
  return `$(${foodctlWords(ctx.io)} auth token --profile ${shellQuote(settings.profile)})`;
}

/** In curl's `-F` syntax a quoted value keeps `;`, `,` and `"` as they are (a backslash escapes `"` and `\`). */
const formQuoted = (text: string) => `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;

/** The request as one curl command, on one line with a newline at the end; `token` is shell text (`tokenReference`). */
export function curlCommand({ request, bodyFile, uploadPath }: CurlRequest, token: string): string {
  const upload = uploadPath === undefined ? undefined : { ...uploadField(request.body), path: uploadPath };
  const hasBody = upload !== undefined || bodyFile !== undefined || (request.body !== null && request.body !== undefined);
  // -sS: no progress meter, but errors; --fail-with-body (curl 7.76+): an error answer exits 22, its body still printed.
  const words = ["curl", "-sS", "--fail-with-body"];
  // With a body curl sends POST by itself; anything else is named.
  if (!(request.method === "GET" && !hasBody) && !(request.method === "POST" && hasBody)) words.push("-X", shellQuote(request.method));
  words.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === "authorization") words.push("-H", `"${name}: Bearer ${token}"`);
    // curl writes a multipart body's type with its boundary.
    else if (!(upload && name.toLowerCase() === "content-type")) words.push("-H", shellQuote(`${name}: ${value}`));
  }
  if (upload) {
    const file = upload.path === "-" ? "-" : formQuoted(upload.path);
    words.push("-F", shellQuote(`${upload.field}=@${file};type=${upload.contentType};filename=${formQuoted(upload.filename)}`));
  } else if (bodyFile !== undefined) {
    words.push("--data-binary", shellQuote(`@${bodyFile}`));
  } else if (hasBody) {
    words.push("--data-raw", shellQuote(typeof request.body === "string" ? request.body : jsonRequestBody(request.body).toString("utf8")));
  }
  return `${words.join(" ")}\n`;
}

/**
 * A batch's printer under `--dry-run --curl`: stdout gets one curl command per request and
 * nothing else; a line that sends nothing (refused, failed, already undone) is said on stderr.
 */
export function withCurlLines<R extends { status: string; request?: unknown }>(
  ctx: Context,
  printer: ResultPrinter<R>,
  uploadPathOf: (result: R) => string | undefined = () => undefined,
): ResultPrinter<R> {
  const token = tokenReference(ctx);
  return {
    ...printer,
    stdout: (result: R) => {
      if (result.status === "dry_run" && result.request)
        return curlCommand({ request: result.request as RequestDescription, uploadPath: uploadPathOf(result) }, token);
      ctx.io.stderr.write(printer.stdout(result, true, ctx.io.color.stderr, ctx.io.stderr.columns));
      return "";
    },
  };
}
