// Loads and checks config/inventory.conf (`key = value` lines). Reports the first problem it
// finds, as the service would at start-up; the message names the line or the setting.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'];
const FILE = 'config/inventory.conf';

export class ConfigError extends Error {}

export function parseConf(text) {
  const settings = {};
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const match = /^([a-z_]+)\s*=\s*(.*)$/.exec(line);
    if (match === null)
      throw new ConfigError(`${FILE}:${i + 1}: expected "key = value", got "${raw.trim()}"`);
    settings[match[1]] = match[2];
  });
  return settings;
}

const wholeNumber = (value) => (/^\d+$/.test(value ?? '') ? Number(value) : Number.NaN);

export function loadConfig(root) {
  const settings = parseConf(readFileSync(resolve(root, FILE), 'utf8'));
  const port = wholeNumber(settings.port);
  if (!(port >= 1 && port <= 65535))
    throw new ConfigError(
      `port must be a whole number from 1 to 65535, not ${JSON.stringify(settings.port)}`,
    );
  const workers = wholeNumber(settings.workers);
  if (!(workers >= 1 && workers <= 16))
    throw new ConfigError(
      `workers must be a whole number from 1 to 16, not ${JSON.stringify(settings.workers)}`,
    );
  if (!LOG_LEVELS.includes(settings.log_level))
    throw new ConfigError(
      `log_level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(settings.log_level)}`,
    );
  const dataDir = settings.data_dir === undefined ? undefined : resolve(root, settings.data_dir);
  if (dataDir === undefined || !existsSync(dataDir) || !statSync(dataDir).isDirectory())
    throw new ConfigError(
      `data_dir ${JSON.stringify(settings.data_dir)} is not a folder (relative to the service root)`,
    );
  const ttl = wholeNumber(settings.cache_ttl_seconds);
  if (Number.isNaN(ttl)) throw new ConfigError('cache_ttl_seconds must be a whole number');
  return { port, workers, logLevel: settings.log_level, dataDir, ttl };
}
