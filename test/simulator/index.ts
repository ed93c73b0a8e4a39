export { Simulator } from './server';
export { siteFiles } from './site';
export * from './types';
export { watchSecrets, type SecretKind, type SecretWatcher } from './ledger';
export { DEFAULT_MIX, seededRandom, type RandomFaultMixItem, type RandomFaultOptions } from './randomFaults';
export { TcpFront, type FrontMode } from './tcpFront';
export type { StorageDelivery } from './delivery';
export { bulkAnalytics, emptyAnalytics, playgroundAnalytics, PLAYGROUND_CONTACTS, PLAYGROUND_HOST, type AnalyticsData } from './analyticsData';
export type { HostileField } from './hostile';
