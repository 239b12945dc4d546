import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { binary } from './result.ts';
import { preview } from './text.ts';
import { selectTexts } from './text-fields.ts';
import { extractLinks } from './text-measure.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.links;

/** `host` is `allowed` or a subdomain of it (`www.acme.example` is on `acme.example`). */
function onHost(host: string, allowed: string): boolean {
  const want = allowed.toLowerCase();
  return host === want || host.endsWith(`.${want}`);
}

/**
 * Link targets in copy: every `required` link appears exactly as written, every link is on an
 * allowed host (and https when asked), and the number of links is within min..max. Links are the
 * absolute http(s) URLs of the text: bare, in Markdown or in HTML. Score = checks passed / checks.
 */
export const links: EvaluatorDefinition<typeof options> = {
  name: 'links',
  description: 'required links are present, and every link is on an allowed host (https only on request)',
  options,
  create(opts) {
    return evaluatorFrom('links', ({ output }) => {
      const selected = selectTexts(output, opts.field);
      if (!selected.ok) return binary(false, selected.reason);
      const found = selected.texts.flatMap((t) => extractLinks(t.text));
      const failures: string[] = [];
      let checks = 0;
      for (const link of opts.required) {
        checks++;
        if (!found.includes(link)) failures.push(`missing ${preview(link, 120)}`);
      }
      for (const link of found) {
        let url: URL;
        try {
          url = new URL(link);
        } catch {
          checks++;
          failures.push(`not a valid URL: ${preview(link, 120)}`);
          continue;
        }
        if (opts.allowed_hosts !== undefined) {
          checks++;
          if (!opts.allowed_hosts.some((host) => onHost(url.hostname, host)))
            failures.push(`${url.hostname} is not an allowed host (${preview(link, 120)})`);
        }
        if (opts.https_only) {
          checks++;
          if (url.protocol !== 'https:') failures.push(`not https: ${preview(link, 120)}`);
        }
      }
      if (opts.min !== undefined) {
        checks++;
        if (found.length < opts.min) failures.push(`${found.length} link(s), fewer than ${opts.min}`);
      }
      if (opts.max !== undefined) {
        checks++;
        if (found.length > opts.max) failures.push(`${found.length} link(s), more than ${opts.max}`);
      }
      const details = { links: found, failures };
      if (failures.length === 0)
        return binary(
          true,
          `${found.length} link(s), all as required${found.length === 0 ? '' : `: ${preview(found.join(' '), 200)}`}`,
          details,
        );
      return {
        score: checks === 0 ? 0 : (checks - failures.length) / checks,
        passed: false,
        explanation:
          failures.slice(0, 5).join('; ') + (failures.length > 5 ? ` (and ${failures.length - 5} more)` : ''),
        details,
      };
    });
  },
};
