import { STATUS_CODES } from '../http/node-http.ts';

export interface FieldError {
  field: string;
  message: string;
}

/** The one error type: operational failures a client may see, with the status and body of docs/decisions.md §3. */
export class AppError extends Error {
  readonly status: number;
  readonly details?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { details?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    return errorBody(this.status, this.message, this.details);
  }
}

export interface ErrorBody {
  message: string;
  statusCode: number;
  error: string;
  details?: FieldError[];
}

export function errorBody(status: number, message: string, details?: FieldError[]): ErrorBody {
  const body: ErrorBody = { message, statusCode: status, error: STATUS_CODES[status] ?? 'Error' };
  if (details) body.details = details;
  return body;
}

export const INVALID_CREDENTIALS = 'Credenciais de API inválidas';

export const badRequest = (message: string, details?: FieldError[]) => new AppError(400, message, { details });
export const invalidField = (field: string, message: string) =>
  new AppError(400, 'Dados inválidos', { details: [{ field, message }] });
export const unauthorized = () => new AppError(401, INVALID_CREDENTIALS);
export const forbidden = (message = 'Acesso negado') => new AppError(403, message);
export const notFound = (message = 'Registro não encontrado') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
/** A conflict with work in progress that ends by itself: worth retrying after `Retry-After`, never a request's outcome. */
export const busy = (message: string, retryAfterSeconds = 1) =>
  new AppError(409, message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
