/** The recording model gateway: a local model API that forwards, scripts or replays, and records every call. */
export { type GatewayCall, GatewayCallSchema, toAgentCall } from './call-record.ts';
export { Cassette, type CassetteEntry, CassetteRecorder, requestKey } from './cassette.ts';
export type { ModelApi, RequestView, TokenCounts } from './protocol.ts';
export type { GatewayRoute, RouteEnvironment } from './routes.ts';
export { ScriptedConversation, ScriptMiss } from './scripted-model.ts';
export { Gateway, type GatewayOptions, type GatewayUpstreamConfig } from './server.ts';
export { type StartGatewayOptions, startGateway } from './start.ts';
