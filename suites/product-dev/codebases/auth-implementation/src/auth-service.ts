import { type Clock, systemClock } from './clock.ts';
import { type Mailer, MemoryMailer } from './mailer.ts';
import type { OAuthProvider } from './oauth.ts';
import { type User, UserStore } from './user-store.ts';

export interface Session {
  id: string;
  userId: string;
  expiresAt: number;
}

export interface AuthServiceOptions {
  users?: UserStore;
  mailer?: Mailer;
  clock?: Clock;
  /** Idle timeout; default 30 minutes. */
  sessionTimeoutMs?: number;
  /** Password reset token lifetime; default 1 hour. */
  resetTokenTtlMs?: number;
  oauthProviders?: Record<string, OAuthProvider>;
}

function notImplemented(): never {
  throw new Error('not implemented');
}

/** Sign-up, login, sessions, password reset and OAuth; see REQUIREMENTS.md. */
export class AuthService {
  readonly users: UserStore;
  readonly mailer: Mailer;
  readonly clock: Clock;

  constructor(options: AuthServiceOptions = {}) {
    this.users = options.users ?? new UserStore();
    this.mailer = options.mailer ?? new MemoryMailer();
    this.clock = options.clock ?? systemClock;
  }

  async signUp(_email: string, _password: string): Promise<User> {
    return notImplemented();
  }

  async logIn(_email: string, _password: string): Promise<Session> {
    return notImplemented();
  }

  getSession(_sessionId: string): Session | undefined {
    return notImplemented();
  }

  logOut(_sessionId: string): void {
    notImplemented();
  }

  async requestPasswordReset(_email: string): Promise<void> {
    notImplemented();
  }

  async resetPassword(_token: string, _newPassword: string): Promise<void> {
    notImplemented();
  }

  startOAuth(_provider: string): { state: string } {
    return notImplemented();
  }

  async handleOAuthCallback(_provider: string, _params: { code: string; state: string }): Promise<Session> {
    return notImplemented();
  }
}
