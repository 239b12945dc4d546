import type { TrialGateway } from '../adapters/types.ts';
import type { AgentOutput } from '../core/agent-output.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { PriceTable } from '../instrument/pricing.ts';
import { secretRedactor } from '../store/redact.ts';

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
    options: { baseDir: string; env: NodeJS.ProcessEnv; prices: PriceTable },
  ): Promise<RunGateway | undefined> {
    if (harness.gateway === undefined) return undefined;
    const [{ startGateway }, { mergeGatewayCalls }, { loadModelScript }] = await Promise.all([
      import('../gateway/start.ts'),
      import('../gateway/merge.ts'),
      import('../formats/load.ts'),
    ]);
    const gateway = await startGateway(harness.gateway, {
      ...options,
      redact: secretRedactor(options.env),
      loadScript: loadModelScript,
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
