/**
 * The secrets simulators hand out, told to whoever watches: the admin keys a simulator accepts
 * or is shown (a wrong key may be another environment's), the presigned signatures it issues,
 * and the readers' contact addresses its analytics carry (personal data: never logged, printed
 * or written). The test suites watch them, so they can check that
 * none of them ever shows up in what the extension or the CLI logged or printed.
 *
 * Process-wide on purpose: a suite-wide collector cannot reach into every test's simulator.
 */
export type SecretKind = 'key' | 'signature' | 'contact';

export type SecretWatcher = (kind: SecretKind, value: string) => void;

const watchers = new Set<SecretWatcher>();

/** Calls `watcher` for every key and signature any simulator accepts or issues from now on. */
export function watchSecrets(watcher: SecretWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

export function reportSecret(kind: SecretKind, value: string): void {
  for (const watcher of watchers) watcher(kind, value);
}
