/** Names of environment variables whose values are treated as secrets. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH/i;
/** Shorter values are too likely to occur by chance ("true", "1") to be scrubbed safely. */
const MIN_SECRET_LENGTH = 8;

export interface EnvSecret {
  readonly name: string;
  readonly value: string;
}

/** The environment's secret-looking variables, longest value first so that a secret containing another is scrubbed whole. */
export function secretsFromEnv(env: NodeJS.ProcessEnv): EnvSecret[] {
  const secrets: EnvSecret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || !SECRET_NAME.test(name)) continue;
    secrets.push({ name: name.replace(/[^\w.-]/g, '_'), value });
  }
  return secrets.sort((a, b) => b.value.length - a.value.length);
}

/**
 * Replaces every secret environment value in `text` with `[REDACTED:NAME]`.
 * Both the raw value and its JSON-escaped form are replaced, so a secret holding a quote or a
 * backslash is caught inside JSON text too; the replacement itself needs no JSON escaping.
 *
 * @example redactSecrets('{"auth":"sk-12345678"}', { API_KEY: 'sk-12345678' }) // '{"auth":"[REDACTED:API_KEY]"}'
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv): string {
  return secretRedactor(env)(text);
}

/**
 * `redactSecrets` with the environment read once: stores build one at open, so each write
 * does not walk `process.env` again (a variable set later is not picked up).
 */
export function secretRedactor(env: NodeJS.ProcessEnv): (text: string) => string {
  const rules = secretsFromEnv(env).flatMap((secret) => {
    const replacement = `[REDACTED:${secret.name}]`;
    const escaped = JSON.stringify(secret.value).slice(1, -1);
    const forms = escaped === secret.value ? [secret.value] : [escaped, secret.value];
    return forms.map((form) => ({ form, replacement }));
  });
  return (text) => {
    let redacted = text;
    for (const { form, replacement } of rules) {
      if (redacted.includes(form)) redacted = redacted.split(form).join(replacement);
    }
    return redacted;
  };
}
