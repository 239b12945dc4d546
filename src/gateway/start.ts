import { resolve } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';
import type { GatewaySettings } from '../core/gateway-config.ts';
import type { ModelScript } from '../core/model-script.ts';
import type { PriceTable } from '../instrument/pricing.ts';
import { Cassette, CassetteRecorder } from './cassette.ts';
import { type ForwardTarget, PROVIDER_URLS } from './forward.ts';
import { Gateway, type GatewayUpstreamConfig } from './server.ts';

export interface StartGatewayOptions {
  /** Relative `script`, `cassette` and `record_cassette` paths resolve against it (the harness file's folder). */
  readonly baseDir: string;
  /** Where the upstream key is read from; never stored. */
  readonly env: NodeJS.ProcessEnv;
  readonly prices?: PriceTable;
  readonly redact?: (text: string) => string;
  /**
   * Reads and validates a model script file (`loadModelScript` of the formats module, passed in:
   * the gateway knows no file formats).
   */
  readonly loadScript: (path: string) => Promise<ModelScript>;
  /** Awaited before each call (the run's rate limits; see GatewayOptions.beforeCall). */
  readonly beforeCall?: (provider: 'anthropic' | 'openai', signal: AbortSignal) => Promise<void>;
}

const KEY_ENV = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' } as const;
/** In `gateway.script`, the task id: `scripts/{task}.yaml` gives each task its own script. */
const TASK_PLACEHOLDER = '{task}';

function forwardTarget(settings: GatewaySettings, env: NodeJS.ProcessEnv): ForwardTarget {
  const { upstream } = settings;
  if (upstream === 'anthropic' || upstream === 'openai') {
    const name = settings.api_key_env ?? KEY_ENV[upstream];
    const apiKey = env[name];
    if (apiKey === undefined || apiKey === '')
      throw new HarnessEvalError(
        'invalid_config',
        `gateway.upstream: ${upstream} needs the API key in $${name} (it is read from the environment, never stored)`,
      );
    return { baseUrl: new URL(PROVIDER_URLS[upstream]), apiKey, label: PROVIDER_URLS[upstream] };
  }
  const baseUrl = new URL(upstream);
  const apiKey = settings.api_key_env === undefined ? undefined : env[settings.api_key_env];
  if (settings.api_key_env !== undefined && (apiKey === undefined || apiKey === ''))
    throw new HarnessEvalError('invalid_config', `gateway.api_key_env: $${settings.api_key_env} is not set`);
  return { baseUrl, ...(apiKey === undefined ? {} : { apiKey }), label: baseUrl.origin };
}

async function upstreamConfig(
  settings: GatewaySettings,
  options: StartGatewayOptions,
): Promise<GatewayUpstreamConfig> {
  const at = (file: string) => resolve(options.baseDir, file);
  const forwarding = settings.upstream !== 'script' && settings.upstream !== 'cassette';
  if (settings.record_cassette !== undefined && !forwarding)
    throw new HarnessEvalError(
      'invalid_config',
      'gateway.record_cassette records forwarded calls: use it with a provider or URL upstream',
    );
  if (settings.upstream === 'script') {
    const template = settings.script;
    if (template === undefined) throw new HarnessEvalError('invalid_config', 'gateway.script is missing');
    if (!template.includes(TASK_PLACEHOLDER))
      return { kind: 'script', script: await options.loadScript(at(template)) };
    // One script per task, loaded when the task's first trial calls the model, once per task.
    const loaded = new Map<string, Promise<ModelScript>>();
    const scriptFor = (vars: Readonly<Record<string, string>>): Promise<ModelScript> => {
      const file = at(template.replaceAll(TASK_PLACEHOLDER, vars['task'] ?? ''));
      let script = loaded.get(file);
      if (script === undefined) {
        script = options.loadScript(file);
        loaded.set(file, script);
      }
      return script;
    };
    return { kind: 'script', script: scriptFor };
  }
  if (settings.upstream === 'cassette') {
    if (settings.cassette === undefined)
      throw new HarnessEvalError('invalid_config', 'gateway.cassette is missing');
    return { kind: 'cassette', cassette: Cassette.load(at(settings.cassette)) };
  }
  const target = forwardTarget(settings, options.env);
  return {
    kind: 'forward',
    target,
    ...(settings.record_cassette === undefined
      ? {}
      : { recorder: new CassetteRecorder(at(settings.record_cassette)) }),
  };
}

/** Starts a gateway as a harness config's `gateway:` settings ask. Throws `invalid_config` / `invalid_input`. */
export async function startGateway(
  settings: GatewaySettings,
  options: StartGatewayOptions,
): Promise<Gateway> {
  return Gateway.start({
    upstream: await upstreamConfig(settings, options),
    recordBodies: settings.record_bodies,
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    ...(options.beforeCall === undefined ? {} : { beforeCall: options.beforeCall }),
  });
}
