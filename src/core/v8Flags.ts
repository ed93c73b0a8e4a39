/**
 * The V8 flags the CLI changes for its own process, and only for as long as it needs them: never
 * the editor's (a V8 flag is the whole process's, and the extension host is every extension's).
 *
 * Any V8 flag changed at run time makes V8 refuse the code cache Node ships for its own modules
 * (the cache is checked against a hash of the flags: `v8.cachedDataVersionTag()`), and each
 * `require('node:http')` after it compiles from source: ten such modules took 53 ms instead of
 * 14 while `--expose-gc` stayed set, 14 once it was unset again (node v20.20.2). So each flag is
 * set, used, and set back to what it was.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type MinorGc = () => void;

/** V8's minor collection: `gc` exists only in contexts made while `--expose-gc` is set, so one is made, and the flag unset at once. */
export function exposeMinorGc(): MinorGc {
  setFlagsFromString('--expose-gc');
  let gc: (options: { type: 'minor' }) => void;
  try {
    gc = runInNewContext('gc') as typeof gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return () => gc({ type: 'minor' });
}

/**
 * The HTTP client's parser (undici's llhttp) is WebAssembly: V8 compiles it twice, a baseline
 * and then optimised code, and the second compile raised every API command's peak RSS from about
 * 64 to 96 MiB (a bare undici request: 99 -> 64 MiB with the baseline only). API replies are a
 * few KB, and downloads do not go through undici, so the baseline is enough. The returned
 * function, called just before the first API client is made, sets `--liftoff-only` until the
 * client's first answer (or error), when the parser has been compiled, and then sets back the
 * flags it implies: the flags then hash as before (checked on node v20.20.2).
 */
export function baselineWasmUntilFirstAnswer(): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    setFlagsFromString('--liftoff-only');
    const restore = (): void => {
      unsubscribe('undici:request:headers', restore);
      unsubscribe('undici:request:error', restore);
      for (const flag of ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering']) setFlagsFromString(flag);
    };
    subscribe('undici:request:headers', restore);
    subscribe('undici:request:error', restore);
  };
}
