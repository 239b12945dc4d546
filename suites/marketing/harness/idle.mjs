#!/usr/bin/env node
// The starter state: hands in the rejected first draft (drafts/<piece>.json in the workspace)
// unchanged. Every automated criterion fails on it (test/integration/marketing-suite.test.ts).
import { readFileSync } from 'node:fs';
import { pieceFromStdin } from './brief.mjs';

process.stdout.write(readFileSync(`drafts/${pieceFromStdin()}.json`, 'utf8'));
