import type { TrialGateway } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { PriceTable } from '../instrument/pricing.ts';
import { secretRedactor } from '../store/redact.ts';
import { LocalRateLimiter, type RateLimiter, rateLimitHook } from './rate-limiter.ts';

type Gateway = import('../gateway/server.ts').Gateway;
type GatewayRoute = import('../gateway/routes.ts').GatewayRoute;

/** One trial's route: the environment and settings its harness gets, and how to collect its calls. */
export interface TrialRoute {
  readonly env: Readonly<Record<string, string>>;
  readonly gateway: TrialGateway;
  /** Closes the route and merges its calls into the output (idempotent: later calls return it as is). */
  collect(output: AgentOutput): Promise<AgentOutput>;
  /** Closes the route without collecting (a trial abandoned at an interrupt). */
  discard(): Promise<void>;
}

/**
 * The recording gateway of one run, when the harness config asks for it (`gateway:`): started
 * before the first trial, one route per trial, closed with the run. The gateway module loads only
 * then, so runs without a gateway import none of it.
 */
export class RunGateway {
  private constructor(
    private readonly gateway: Gateway,
    private readonly merge: typeof import('../gateway/merge.ts').mergeGatewayCalls,
  ) {}

  static async start(
    harness: HarnessConfig,
    options: {
      baseDir: string;
      env: NodeJS.ProcessEnv;
      prices: PriceTable;
      /** Where `rate_limits` are counted: this process by default; a queue worker shares PostgreSQL's. */
      rateLimiter?: RateLimiter | undefined;
    },
  ): Promise<RunGateway | undefined> {
    if (harness.gateway === undefined) {
      if (harness.rate_limits !== undefined)
        throw new HarnessEvalError(
          'invalid_config',
          'rate_limits counts the model calls the recording gateway sees: add gateway: to the harness config',
        );
      return undefined;
    }
    const [{ startGateway }, { mergeGatewayCalls }, { loadModelScript }] = await Promise.all([
      import('../gateway/start.ts'),
      import('../gateway/merge.ts'),
      import('../formats/load.ts'),
    ]);
    const limits = harness.rate_limits;
    const gateway = await startGateway(harness.gateway, {
      baseDir: options.baseDir,
      env: options.env,
      prices: options.prices,
      redact: secretRedactor(options.env),
      loadScript: loadModelScript,
      ...(limits === undefined
        ? {}
        : { beforeCall: rateLimitHook(limits, options.rateLimiter ?? new LocalRateLimiter()) }),
    });
    return new RunGateway(gateway, mergeGatewayCalls);
  }

  /** A route for one trial; `vars` fill a model script's templates (`{{workspace}}`, `{{task}}`). */
  open(vars: Record<string, string>): TrialRoute {
    const route: GatewayRoute = this.gateway.openRoute({ vars });
    let closed: Promise<unknown> | undefined;
    const close = () => {
      closed ??= this.gateway.closeRoute(route);
      return closed as Promise<Awaited<ReturnType<Gateway['closeRoute']>>>;
    };
    return {
      env: { ...route.env() },
      gateway: { anthropicBaseUrl: route.baseUrl, openaiBaseUrl: route.openaiBaseUrl, apiKey: route.key },
      collect: async (output) => this.merge(output, await close()),
      discard: async () => {
        await close();
      },
    };
  }

  /** The 127.0.0.1 port it listens on, which a `network: loopback` sandbox must let through. */
  get port(): number {
    return Number(new URL(this.gateway.url).port);
  }

  close(): Promise<void> {
    return this.gateway.close();
  }
}
