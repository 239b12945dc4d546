import { z } from 'zod';

/**
 * Harbor's task.toml, schema 1.x, as Harbor's `TaskConfig` reads it
 * (harbor-framework/harbor src/harbor/models/task/config.py; docs/content/docs/tasks/index.mdx).
 * Like Harbor, keys it does not know are ignored; the known ones are type-checked.
 */
const NetworkModeSchema = z.enum(['public', 'no-network', 'allowlist']);
const user = z.union([z.string(), z.number().int()]).optional();
const phase = {
  user,
  network_mode: NetworkModeSchema.optional(),
  allowed_hosts: z.array(z.string()).optional(),
};
const timeout = z.number().positive();

const AgentSectionSchema = z.looseObject({ timeout_sec: timeout.optional(), ...phase });
const VerifierSectionSchema = z.looseObject({
  timeout_sec: timeout.default(600),
  env: z.record(z.string(), z.string()).default({}),
  environment_mode: z.enum(['shared', 'separate']).optional(),
  environment: z.record(z.string(), z.unknown()).optional(),
  ...phase,
});

const EnvironmentSectionSchema = z.looseObject({
  build_timeout_sec: timeout.default(600),
  docker_image: z.string().min(1).optional(),
  os: z.enum(['linux', 'windows', 'Linux', 'Windows', 'LINUX', 'WINDOWS']).default('linux'),
  cpus: z.number().int().positive().optional(),
  memory_mb: z.number().int().positive().optional(),
  storage_mb: z.number().int().positive().optional(),
  gpus: z.number().int().nonnegative().optional(),
  env: z.record(z.string(), z.string()).default({}),
  workdir: z.string().startsWith('/').optional(),
  network_mode: NetworkModeSchema.default('public'),
  allowed_hosts: z.array(z.string()).optional(),
  allow_internet: z.boolean().optional(),
});

const MinRewardSchema = z.union([z.number(), z.record(z.string(), z.number())]);

const StepSectionSchema = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a folder name under steps/'),
  agent: AgentSectionSchema.default({}),
  verifier: VerifierSectionSchema.default({ timeout_sec: 600, env: {} }),
  min_reward: MinRewardSchema.optional(),
});

export const HarborTaskConfigSchema = z.looseObject({
  schema_version: z
    .string()
    .regex(/^1\.\d+$/, 'a 1.x schema version')
    .default('1.4'),
  task: z
    .looseObject({
      name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'org/name'),
      version: z.string().min(1).optional(),
      description: z.string().default(''),
      authors: z.array(z.looseObject({ name: z.string(), email: z.string().optional() })).default([]),
      keywords: z.array(z.string()).default([]),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
  verifier: VerifierSectionSchema.default({ timeout_sec: 600, env: {} }),
  agent: AgentSectionSchema.default({}),
  environment: EnvironmentSectionSchema.default({
    build_timeout_sec: 600,
    os: 'linux',
    env: {},
    network_mode: 'public',
  }),
  solution: z.looseObject({ env: z.record(z.string(), z.string()).default({}) }).default({ env: {} }),
  source: z.string().optional(),
  multi_step_reward_strategy: z.enum(['mean', 'final']).optional(),
  steps: z.array(StepSectionSchema).min(1).optional(),
});
export type HarborTaskConfig = z.infer<typeof HarborTaskConfigSchema>;
