// One error vocabulary for every surface (tRPC, REST, web). Codes are the `error` field of JSON answers.

export const ERROR_CODES = {
  validation: 'validation_error',
  ageRestriction: 'age_restriction',
  duplicateEmail: 'duplicate_email',
  notFound: 'not_found',
  /** The path exists, the method does not (405, with Allow). */
  methodNotAllowed: 'method_not_allowed',
  forbidden: 'forbidden',
  unauthorized: 'unauthorized',
  /** Sign-in: the password was right, the account has two-factor on and no code came with it (401). */
  totpRequired: 'totp_required',
  /** ADMIN_REQUIRE_2FA: this admin must set up two-factor sign-in before anything else (403). */
  twoFactorSetupRequired: 'two_factor_setup_required',
  rateLimited: 'rate_limited',
  conflict: 'conflict',
  /** Well-formed but cannot be processed as sent, e.g. an Idempotency-Key reused for another request. */
  unprocessable: 'unprocessable',
  internal: 'internal_error',
  /** The request's body did not arrive in time (408; the connection is closed). */
  requestTimeout: 'request_timeout',
  /** The server cannot answer right now (database restarting or not answering, shutting down): 503 with Retry-After. */
  unavailable: 'service_unavailable',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  age_restriction: 400,
  duplicate_email: 409,
  not_found: 404,
  method_not_allowed: 405,
  forbidden: 403,
  unauthorized: 401,
  totp_required: 401,
  two_factor_setup_required: 403,
  rate_limited: 429,
  conflict: 409,
  unprocessable: 422,
  internal_error: 500,
  request_timeout: 408,
  service_unavailable: 503,
};

export type FieldError = { field: string; message: string };

/** The JSON body of every error answer. */
export type ErrorBody = {
  error: ErrorCode;
  message: string;
  fieldErrors?: FieldError[];
};
