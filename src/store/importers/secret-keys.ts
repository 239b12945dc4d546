/** Key names whose values are credentials in another tool's files (provider configs, HTTP headers). */
const SECRET_KEY =
  /^(api[-_]?key|apikey|x-api-key|authorization|proxy-authorization|cookie|set-cookie|password|passwd|secret|client[-_]?secret|(access|refresh|auth|bearer|session|id)?[-_]?token|private[-_]?key|credentials?)$/i;

/**
 * `value` with every credential-named key's value replaced by `[redacted]`, and every provider's
 * `config` (where promptfoo and others keep API keys) dropped. Another tool's metadata goes through
 * this before it is kept; the store's own redaction of secret environment values runs on top.
 */
export function withoutSecretKeys(value: unknown, depth = 0): unknown {
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecretKeys(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) out[key] = '[redacted]';
    else if (key === 'provider' && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      const { config: _config, ...rest } = inner as Record<string, unknown>;
      out[key] = withoutSecretKeys(rest, depth + 1);
    } else out[key] = withoutSecretKeys(inner, depth + 1);
  }
  return out;
}
