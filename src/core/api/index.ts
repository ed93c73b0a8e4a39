export { AdminApiClient, type ApiClientOptions } from './client';
export * from './errors';
export { parseRetryAfter } from './retryAfter';
export type { HttpResponse, TransportOptions } from './transport';
export * from './types';
