import { createHash, randomBytes } from 'node:crypto';
import { type Clock, systemClock } from './clock.ts';
import { AuthError } from './errors.ts';
import { type Mailer, MemoryMailer } from './mailer.ts';
import type { OAuthProvider } from './oauth.ts';
import { hashPassword, verifyPassword } from './password.ts';
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

const MINUTE = 60_000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_PASSWORD_LENGTH = 8;

const randomToken = (): string => randomBytes(32).toString('base64url');
// Reset tokens are stored hashed so a leaked store cannot be used to take over accounts.
const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AuthError('weak_password', `password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/** Sign-up, login, sessions, password reset and OAuth; see REQUIREMENTS.md. */
export class AuthService {
  readonly users: UserStore;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly #sessionTimeoutMs: number;
  readonly #resetTokenTtlMs: number;
  readonly #providers: Record<string, OAuthProvider>;
  readonly #sessions = new Map<string, Session>();
  readonly #resetTokens = new Map<string, { userId: string; expiresAt: number }>();
  readonly #oauthStates = new Map<string, string>();

  constructor(options: AuthServiceOptions = {}) {
    this.users = options.users ?? new UserStore();
    this.mailer = options.mailer ?? new MemoryMailer();
    this.clock = options.clock ?? systemClock;
    this.#sessionTimeoutMs = options.sessionTimeoutMs ?? 30 * MINUTE;
    this.#resetTokenTtlMs = options.resetTokenTtlMs ?? 60 * MINUTE;
    this.#providers = options.oauthProviders ?? {};
  }

  async signUp(email: string, password: string): Promise<User> {
    const normalised = email.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(normalised))
      throw new AuthError('invalid_email', `not an e-mail address: ${email}`);
    checkPassword(password);
    if (this.users.findByEmail(normalised)) throw new AuthError('email_taken');
    return this.users.create({ email: normalised, passwordHash: await hashPassword(password), oauth: [] });
  }

  async logIn(email: string, password: string): Promise<Session> {
    const user = this.users.findByEmail(email);
    const valid = await verifyPassword(password, user?.passwordHash);
    if (!user || !valid) throw new AuthError('invalid_credentials');
    return this.#startSession(user.id);
  }

  getSession(sessionId: string): Session | undefined {
    const session = this.#sessions.get(sessionId);
    if (!session) return undefined;
    const now = this.clock.now();
    if (now >= session.expiresAt) {
      this.#sessions.delete(sessionId);
      return undefined;
    }
    session.expiresAt = now + this.#sessionTimeoutMs;
    return { ...session };
  }

  logOut(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  async requestPasswordReset(email: string): Promise<void> {
    const user = this.users.findByEmail(email);
    if (!user) return;
    const token = randomToken();
    this.#resetTokens.set(digest(token), {
      userId: user.id,
      expiresAt: this.clock.now() + this.#resetTokenTtlMs,
    });
    this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset your password. If it was you, use this token:\ntoken: ${token}\n`,
    });
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    const key = digest(token);
    const entry = this.#resetTokens.get(key);
    const user = entry && this.clock.now() < entry.expiresAt ? this.users.findById(entry.userId) : undefined;
    if (!user) {
      this.#resetTokens.delete(key);
      throw new AuthError('invalid_token');
    }
    checkPassword(newPassword);
    this.#resetTokens.delete(key);
    user.passwordHash = await hashPassword(newPassword);
    for (const [id, session] of this.#sessions) if (session.userId === user.id) this.#sessions.delete(id);
  }

  startOAuth(provider: string): { state: string } {
    this.#provider(provider);
    const state = randomToken();
    this.#oauthStates.set(state, provider);
    return { state };
  }

  async handleOAuthCallback(provider: string, params: { code: string; state: string }): Promise<Session> {
    const oauth = this.#provider(provider);
    if (this.#oauthStates.get(params.state) !== provider) throw new AuthError('invalid_state');
    this.#oauthStates.delete(params.state);

    let profile: Awaited<ReturnType<OAuthProvider['exchangeCode']>>;
    try {
      profile = await oauth.exchangeCode(params.code);
    } catch (cause) {
      throw new AuthError('oauth_failed', `${provider} rejected the authorization code`, { cause });
    }

    const link = { provider, subject: profile.subject };
    let user = this.users.findByOAuth(provider, profile.subject);
    if (!user) {
      user = this.users.findByEmail(profile.email);
      if (user) user.oauth.push(link);
      else user = this.users.create({ email: profile.email.trim().toLowerCase(), oauth: [link] });
    }
    return this.#startSession(user.id);
  }

  #provider(name: string): OAuthProvider {
    const provider = Object.hasOwn(this.#providers, name) ? this.#providers[name] : undefined;
    if (!provider) throw new AuthError('unknown_provider', `no OAuth provider named ${name}`);
    return provider;
  }

  #startSession(userId: string): Session {
    const session: Session = {
      id: randomToken(),
      userId,
      expiresAt: this.clock.now() + this.#sessionTimeoutMs,
    };
    this.#sessions.set(session.id, session);
    return { ...session };
  }
}
