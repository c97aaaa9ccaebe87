/** Fastify's, the multipart plugin's and Node's own refusals, answered in the sandbox's error shape. */
import type { Socket } from "node:net";
import type { FastifyError } from "fastify";
import { ApiError, errorBody, SERVICE_CODES, type ServiceCode } from "./errors.js";

export const JSON_BODY_LIMIT = 1_048_576;

export interface Failure {
  status: number;
  code: ServiceCode;
  message: string;
  headers: Record<string, string>;
}

const C = SERVICE_CODES;
const FRAMEWORK_MESSAGES: Record<string, [ServiceCode, string]> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: [C.badBody, "the request body is empty; send a JSON object"],
  FST_ERR_CTP_INVALID_JSON_BODY: [C.badBody, "the request body is not valid JSON"],
  FST_ERR_CTP_BODY_TOO_LARGE: [C.badBody, `the request body is larger than ${JSON_BODY_LIMIT} bytes`],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    C.unsupportedMedia,
    "unsupported content type: send application/json (or multipart/form-data for a display image)",
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [C.badBody, "the Content-Length header does not match the request body"],
  FST_ERR_CTP_INVALID_TYPE: [C.unsupportedMedia, "the Content-Type header is malformed"],
};

/** Any error a request ended with, as one readable sentence with its status and service code. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message, headers: { ...error.headers } };
  const fastifyError = error as Partial<FastifyError> | undefined;
  const status = typeof fastifyError?.statusCode === "number" ? fastifyError.statusCode : 500;
  if (status >= 500 || status < 400) return { status: 500, code: C.internal, message: "internal sandbox error", headers: {} };
  const known = fastifyError?.code === undefined ? undefined : FRAMEWORK_MESSAGES[fastifyError.code];
  if (known) return { status, code: known[0], message: known[1], headers: {} };
  if (error instanceof SyntaxError) return { status: 400, code: C.badBody, message: "the request body is not valid JSON", headers: {} };
  const message = fastifyError?.message?.trim() || "the request was refused";
  return { status, code: C.badBody, message: message.charAt(0).toLowerCase() + message.slice(1), headers: {} };
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "request headers are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "request timed out: send the whole request sooner"],
};

/** Answers HTTP-level parse errors and timeouts with the same JSON error shape, then closes the connection. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const code = error.code ?? "";
  const timedOut = /TIMEOUT/.test(code) ? CLIENT_ERRORS.ERR_HTTP_REQUEST_TIMEOUT : undefined;
  // A connection that sent nothing gets nothing back, whichever of Node's header check and the silence timeout ends it first.
  if (code === "ECONNRESET" || !socket.writable || (timedOut && socket.bytesRead === 0)) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = CLIENT_ERRORS[code] ?? timedOut ?? [400, "Bad Request", "malformed HTTP request"];
  const body = JSON.stringify(errorBody(C.badHttp, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
