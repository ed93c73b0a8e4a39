// The unit suite (npm test, npm run test:unit). Off Linux (CI's Windows and macOS unit jobs) the
// files test/unit/linux-only.json names are left out of the run, each for the reason it gives:
// not skipped (CI counts a skip as a failure), not run there at all; the Linux run runs them.
const linuxOnly = require('./test/unit/linux-only.json');

module.exports = {
  spec: ['out/test/unit/**/*.test.js'],
  ignore: process.platform === 'linux' ? [] : Object.keys(linuxOnly).map((file) => `out/test/unit/${file}`),
  require: ['out/test/unit/support/secretsHook.js'],
  timeout: 20000,
  'enable-source-maps': true,
  reporter: 'spec',
};
