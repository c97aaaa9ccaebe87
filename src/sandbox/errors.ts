/** An error answer of the sandbox: `{"message", "code"}` with this status (api-contract §1). */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message, { "www-authenticate": 'Bearer realm="foodctl-sandbox"' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const tooLarge = (message: string) => new ApiError(413, message);
export const unsupportedMedia = (message: string) => new ApiError(415, message);

export interface ErrorBody {
  message: string;
  code: number;
}

export function errorBody(status: number, message: string): ErrorBody {
  return { message, code: status };
}
