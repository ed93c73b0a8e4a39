// Installs what `npm start` and `npm test` need, when missing: the npm packages, the Debian
// packages of the test host, and the cached test host itself (Node 24, code-server,
// playwright-core). Builtins only: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

function npmPackagesCurrent() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs;
}

export function ensureDeps({ host = true } = {}) {
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 20) throw new Error(`Node ${process.versions.node} is too old: install Node 22 or 24.`);
  if (major < 22) console.warn(`Node ${process.versions.node} is past its end of life: the supported lines are 22 and 24 (CI runs both; npm test runs the CLI's tests on each).`);
  if (!npmPackagesCurrent()) {
    console.log('Installing npm packages (npm ci)...');
    sh('npm', ['ci', '--no-audit', '--no-fund']);
  }
  if (host) {
    sh('bash', [join(root, 'scripts', 'system-deps.sh')]);
    sh(process.execPath, ['esbuild.mjs']);
    sh(process.execPath, [join(root, 'out', 'test', 'host', 'install.js')]);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureDeps();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
