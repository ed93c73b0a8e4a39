export { Simulator } from './server';
export { siteFiles } from './site';
export * from './types';
