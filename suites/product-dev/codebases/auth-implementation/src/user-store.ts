export interface OAuthLink {
  provider: string;
  subject: string;
}

export interface User {
  id: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** `scrypt$<salt hex>$<key hex>`; absent for OAuth-only accounts. */
  passwordHash?: string;
  oauth: OAuthLink[];
}

export class UserStore {
  readonly #users = new Map<string, User>();
  #nextId = 1;

  create(fields: Omit<User, 'id'>): User {
    const user: User = { ...fields, id: String(this.#nextId++) };
    this.#users.set(user.id, user);
    return user;
  }

  findById(id: string): User | undefined {
    return this.#users.get(id);
  }

  findByEmail(email: string): User | undefined {
    const wanted = email.trim().toLowerCase();
    for (const user of this.#users.values()) if (user.email === wanted) return user;
    return undefined;
  }

  findByOAuth(provider: string, subject: string): User | undefined {
    for (const user of this.#users.values()) {
      if (user.oauth.some((link) => link.provider === provider && link.subject === subject)) return user;
    }
    return undefined;
  }
}
