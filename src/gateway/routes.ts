import { randomBytes } from 'node:crypto';
import type { ModelScript } from '../core/model-script.ts';
import type { GatewayCall } from './call-record.ts';
import { ScriptedConversation } from './scripted-model.ts';

/** How long closing a route waits for calls still in flight to be recorded. */
const DRAIN_MS = 2000;

/** The environment a harness needs to send its model calls through one route. */
export interface RouteEnvironment {
  readonly ANTHROPIC_BASE_URL: string;
  readonly ANTHROPIC_API_KEY: string;
  readonly OPENAI_BASE_URL: string;
  readonly OPENAI_API_KEY: string;
  readonly HARNESSEVAL_GATEWAY_URL: string;
}

/**
 * One trial's route through the gateway: its own path prefix (`/r/<id>`) and key, so calls of
 * concurrent trials are never mixed up, and the calls recorded on it.
 */
export class GatewayRoute {
  readonly id = randomBytes(9).toString('base64url');
  /** A placeholder API key that names the route; the gateway swaps in the upstream's real key. */
  readonly key = `he-gw-${this.id}`;
  private scripted: Promise<ScriptedConversation> | undefined;
  readonly cassetteUses = new Map<string, number>();
  private readonly recorded: GatewayCall[] = [];
  private seq = 0;
  private inFlight = 0;
  private idle: (() => void) | undefined;
  closed = false;

  constructor(
    readonly gatewayUrl: string,
    readonly vars: Readonly<Record<string, string>>,
    readonly label: string | undefined,
    private readonly script: ModelScript | (() => Promise<ModelScript>) | undefined,
  ) {}

  /**
   * The trial's conversation with its model script, loaded on the first call when the script
   * depends on the trial (`scripts/{task}.yaml`); undefined when the gateway answers otherwise.
   * Rejects with the loading error (a missing or invalid script).
   */
  conversation(): Promise<ScriptedConversation> | undefined {
    const script = this.script;
    if (script === undefined) return undefined;
    this.scripted ??=
      typeof script === 'function'
        ? script().then((s) => new ScriptedConversation(s, this.vars))
        : Promise.resolve(new ScriptedConversation(script, this.vars));
    return this.scripted;
  }

  /** The base URL an Anthropic client takes (it appends `/v1/messages`). */
  get baseUrl(): string {
    return `${this.gatewayUrl}/r/${this.id}`;
  }

  /** The base URL an OpenAI client takes (it appends `/chat/completions` or `/responses`). */
  get openaiBaseUrl(): string {
    return `${this.baseUrl}/v1`;
  }

  env(): RouteEnvironment {
    return {
      ANTHROPIC_BASE_URL: this.baseUrl,
      ANTHROPIC_API_KEY: this.key,
      OPENAI_BASE_URL: this.openaiBaseUrl,
      OPENAI_API_KEY: this.key,
      HARNESSEVAL_GATEWAY_URL: this.baseUrl,
    };
  }

  nextSeq(): number {
    return ++this.seq;
  }

  begin(): void {
    this.inFlight++;
  }

  finish(call: GatewayCall | undefined): void {
    if (call !== undefined) this.recorded.push(call);
    this.inFlight--;
    if (this.inFlight === 0) this.idle?.();
  }

  /** The calls recorded so far, in the order they finished. */
  calls(): GatewayCall[] {
    return [...this.recorded].sort((a, b) => a.seq - b.seq);
  }

  /** Stops taking calls and waits (briefly) for those in flight; resolves with every call. */
  async close(): Promise<GatewayCall[]> {
    this.closed = true;
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MS);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.calls();
  }
}
