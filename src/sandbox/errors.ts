/**
 * Error answers of the sandbox: `{"message", "code"}` where `code` is a service code, one per
 * rule, never the HTTP status (docs/api.md, service codes).
 */
export const SERVICE_CODES = {
  rateLimited: 114,
  tokenMissing: 1001,
  tokenInvalid: 1002,
  tokenExpired: 1003,
  userIdRequired: 1201,
  userIdMalformed: 1202,
  userIdForbidden: 1203,
  roleForbidden: 1204,
  intakeNotFound: 1301,
  unknownPath: 1302,
  methodNotAllowed: 1303,
  badQuery: 1401,
  badBody: 1402,
  badQuantity: 1403,
  badLevel: 1404,
  unknownPosition: 1405,
  notManual: 1501,
  imageTooLarge: 1502,
  unsupportedMedia: 1503,
  /** Sandbox only: a request Node's HTTP parser refused or cut (400, 408, 431). */
  badHttp: 1601,
  /** Sandbox only: a bug in the sandbox (500). */
  internal: 1901,
} as const;
export type ServiceCode = (typeof SERVICE_CODES)[keyof typeof SERVICE_CODES];

export class ApiError extends Error {
  readonly status: number;
  readonly code: ServiceCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: ServiceCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const C = SERVICE_CODES;
/** A 400 about the body's shape; pass another 400 code for the other rules. */
export const badRequest = (message: string, code: ServiceCode = C.badBody) => new ApiError(400, code, message);
export const badQuery = (message: string) => new ApiError(400, C.badQuery, message);
export const unauthorized = (message: string, code: ServiceCode = C.tokenInvalid) =>
  new ApiError(401, code, message, { "www-authenticate": 'Bearer realm="foodctl-sandbox"' });
export const forbidden = (message: string, code: ServiceCode = C.userIdForbidden) => new ApiError(403, code, message);
export const notFound = (message: string, code: ServiceCode = C.intakeNotFound) => new ApiError(404, code, message);
export const conflict = (message: string) => new ApiError(409, C.notManual, message);
export const tooLarge = (message: string, code: ServiceCode = C.imageTooLarge) => new ApiError(413, code, message);
export const unsupportedMedia = (message: string) => new ApiError(415, C.unsupportedMedia, message);

export interface ErrorBody {
  message: string;
  code: number;
}

export function errorBody(code: ServiceCode, message: string): ErrorBody {
  return { message, code };
}
