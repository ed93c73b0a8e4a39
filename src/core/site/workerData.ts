/** How a parse worker thread is told apart (the CLI's one file runs every kind of worker). */
export const SITE_WORKER_DATA = { docsAdminSite: true } as const;

export function isSiteWorker(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { docsAdminSite?: unknown }).docsAdminSite === true;
}
