import { AuthService, type AuthServiceOptions } from '../../src/auth-service.ts';
import type { Clock } from '../../src/clock.ts';
import { MemoryMailer } from '../../src/mailer.ts';
import { UserStore } from '../../src/user-store.ts';

export class FakeClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export function makeAuth(options: AuthServiceOptions = {}) {
  const clock = new FakeClock();
  const mailer = new MemoryMailer();
  const users = new UserStore();
  const auth = new AuthService({ clock, mailer, users, ...options });
  return { auth, clock, mailer, users };
}

export const MINUTE = 60_000;
