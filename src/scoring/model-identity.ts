/**
 * Model names as providers, gateways and SDKs spell them: `openai/gpt-4o-2024-08-06`,
 * `anthropic:claude-sonnet-4-20250514`, `Claude-Sonnet-4`, `anthropic.claude-3-5-sonnet-20240620-v1:0`.
 * Two names are the same model when their identities are equal.
 */

/** Provider names that prefix a model as `provider:model` (a bare `name:tag` is an Ollama tag). */
const PROVIDERS = new Set([
  'openai',
  'anthropic',
  'openai-compatible',
  'google',
  'vertex',
  'azure',
  'bedrock',
  'openrouter',
  'mistral',
  'groq',
  'together',
  'fireworks',
  'deepseek',
  'xai',
  'ollama',
]);

/** Bedrock spells the vendor with a dot: `anthropic.claude-…`, `meta.llama3-…`. */
const VENDOR_DOT = /^(anthropic|meta|mistral|cohere|amazon|ai21|deepseek|openai)\./;

/**
 * The identity of a model name: lower case, without a provider or gateway prefix, a Bedrock
 * version suffix, a `-latest`/`:latest` alias or a release date (`-2024-08-06`, `-20250514`,
 * `@20250514`, OpenAI's `-0613`). Version numbers that name a different model stay:
 * `gpt-4o-mini` is not `gpt-4o`, `claude-sonnet-4-5` is not `claude-sonnet-4`.
 */
export function modelIdentity(name: string): string {
  let id = name.trim().toLowerCase();
  const slash = id.lastIndexOf('/');
  if (slash !== -1) id = id.slice(slash + 1);
  const colon = id.indexOf(':');
  if (colon !== -1 && PROVIDERS.has(id.slice(0, colon))) id = id.slice(colon + 1);
  id = id.replace(VENDOR_DOT, '');
  id = id.replace(/-v\d+(:\d+)?$/, '');
  id = id.replace(/[-:]latest$/, '');
  id = id.replace(/[-@](\d{4}-\d{2}-\d{2}|\d{8})$/, '');
  id = id.replace(/-(0[1-9]|1[0-2])\d{2}$/, '');
  return id;
}

/** Whether two model names are the same model (see `modelIdentity`). */
export function sameModel(a: string, b: string): boolean {
  return modelIdentity(a) === modelIdentity(b);
}
