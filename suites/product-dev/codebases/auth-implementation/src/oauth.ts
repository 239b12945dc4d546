export interface OAuthProfile {
  /** The provider's stable user id. */
  subject: string;
  email: string;
}

/** What a provider (Google, GitHub, ...) does for us once the user comes back with a code. */
export interface OAuthProvider {
  exchangeCode(code: string): Promise<OAuthProfile>;
}
