export * from './bootstrap.ts';
export * from './clustered.ts';
export * from './descriptive.ts';
export * from './distributions.ts';
export * from './mcnemar.ts';
export * from './paired.ts';
export * from './pass-at-k.ts';
export * from './power.ts';
