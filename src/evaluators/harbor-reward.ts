import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type RewardRead =
  | { readonly ok: true; readonly rewards: Record<string, number>; readonly file: string }
  | { readonly ok: false; readonly reason: string };

/**
 * A Harbor verifier's rewards from its folder: `reward.json` (a flat object of numbers) first,
 * then `reward.txt` (one number, the `reward` key), as Harbor's Verifier reads them
 * (src/harbor/verifier/verifier.py); `rewards.json`, which Harbor's task template once named, is
 * accepted last.
 */
export async function readRewards(dir: string): Promise<RewardRead> {
  for (const name of ['reward.json', 'reward.txt', 'rewards.json']) {
    let text: string;
    try {
      text = await readFile(join(dir, name), 'utf8');
    } catch {
      continue;
    }
    if (text.trim() === '') return { ok: false, reason: `${name} is empty` };
    if (name.endsWith('.txt')) {
      const value = Number(text.trim());
      if (!Number.isFinite(value))
        return {
          ok: false,
          reason: `${name} holds ${JSON.stringify(text.trim().slice(0, 40))}, not a number`,
        };
      return { ok: true, rewards: { reward: value }, file: name };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        reason: `${name} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return { ok: false, reason: `${name} is not an object of named rewards` };
    const rewards: Record<string, number> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { ok: false, reason: `${name}: ${key} is not a number` };
      rewards[key] = value;
    }
    if (Object.keys(rewards).length === 0) return { ok: false, reason: `${name} names no reward` };
    return { ok: true, rewards, file: name };
  }
  return {
    ok: false,
    reason: 'the tests wrote no reward (neither /logs/verifier/reward.json nor reward.txt)',
  };
}

/** The trial's score from its rewards: `reward` when there is one, else the mean of all of them. */
export function rewardScore(rewards: Readonly<Record<string, number>>): number {
  const single = rewards['reward'];
  if (single !== undefined) return single;
  const values = Object.values(rewards);
  return values.reduce((a, b) => a + b, 0) / values.length;
}
