import type { ErrorCode } from '../errors.js';

/** HTTP status of each error code the API answers with (RFC 9457 problem details, src/telemetry/http.ts). */
export function httpStatus(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_JSON':
    case 'BAD_REQUEST':
    case 'USAGE':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'REQUEST_TIMEOUT':
      return 408;
    case 'ID_CONFLICT':
      return 409;
    case 'TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    // The request was well-formed JSON but not a message doppel can judge.
    case 'INVALID_MESSAGE':
    case 'MISSING_CONTENT':
    case 'INVALID_BASE64':
    case 'UNDECODABLE':
    case 'INVALID_MAIL':
    case 'EMPTY_TEXT':
      return 422;
    // Not an HTTP status: the client is gone; nginx's 499 keeps it apart from server errors in metrics.
    case 'CLIENT_CLOSED':
      return 499;
    case 'STORE_UNAVAILABLE':
    case 'STORE_TIMEOUT':
    case 'TIMEOUT':
    // Not retryable (no Retry-After), but the service, not the request, is at fault.
    case 'STORE_DATA_LOST':
    case 'STORE_CORRUPT':
      return 503;
    default:
      return 500;
  }
}
