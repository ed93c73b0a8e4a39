import { accessSync, constants } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The Chromium to drive: `$DOCS_ADMIN_CHROMIUM`, `$CHROME_PATH`, then the usual paths. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = [env.DOCS_ADMIN_CHROMIUM, env.CHROME_PATH].filter((p): p is string => p !== undefined && p !== '');
  for (const path of [...fromEnv, ...CANDIDATES]) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      if (fromEnv.includes(path)) throw new Error(`Chromium was not found at ${path} (from DOCS_ADMIN_CHROMIUM/CHROME_PATH).`);
    }
  }
  throw new Error(
    'Chromium was not found. Install it with `apt-get install -y chromium` (Debian/Ubuntu), ' +
      'or set DOCS_ADMIN_CHROMIUM to the path of a Chromium or Chrome binary.',
  );
}
