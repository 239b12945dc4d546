export type AuthErrorCode =
  | 'invalid_email'
  | 'weak_password'
  | 'email_taken'
  | 'invalid_credentials'
  | 'invalid_token'
  | 'invalid_state'
  | 'unknown_provider'
  | 'oauth_failed';

/** Every failure the auth service reports; callers branch on `code`, never on the message. */
export class AuthError extends Error {
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string = code, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthError';
    this.code = code;
  }
}
