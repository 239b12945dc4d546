#!/bin/bash
# Two rewards: correctness (share of cases right) and, as the main reward, all cases right.
node --input-type=module -e "
import { writeFileSync } from 'node:fs';
const { sum } = await import('/app/sum.mjs');
const cases = [[[1, 2, 3], 6], [[], 0], [[5], 5], [[-1, 1, 10], 10]];
const right = cases.filter(([input, want]) => sum(input) === want).length;
const correctness = right / cases.length;
writeFileSync('/logs/verifier/reward.json', JSON.stringify({ reward: correctness === 1 ? 1 : 0, correctness }));
console.log('cases right:', right, 'of', cases.length);
"
