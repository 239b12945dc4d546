#!/usr/bin/env node
// The agreed settings are still the agreed ones: a fix must not "repair" the configuration by
// changing or dropping what ops agreed on. Exit 0 when they hold, 1 with the first difference.
import { readFileSync } from 'node:fs';
import { ConfigError, parseConf } from '../service/config.mjs';

const AGREED = {
  service: 'inventory-api',
  port: '8080',
  workers: '4',
  log_level: 'info',
  cache_ttl_seconds: '300',
};
let settings;
try {
  settings = parseConf(readFileSync('config/inventory.conf', 'utf8'));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stdout.write(`FAIL ${error.message}\n`);
  process.exit(1);
}
for (const [key, value] of Object.entries(AGREED))
  if (settings[key] !== value) {
    process.stdout.write(
      `FAIL ${key} is ${JSON.stringify(settings[key])}; agreed: ${JSON.stringify(value)}\n`,
    );
    process.exit(1);
  }
if (settings.data_dir?.replace(/^\.\//, '').replace(/\/$/, '') !== 'data') {
  process.stdout.write(`FAIL data_dir is ${JSON.stringify(settings.data_dir)}; agreed: "data"\n`);
  process.exit(1);
}
process.stdout.write('ok the agreed settings hold\n');
