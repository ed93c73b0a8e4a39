// The headless front end over src/core. Its commands arrive with the rollout work; for
// now it answers --help and --version so the build and packaging of `bin` are real.
import { version } from '../../package.json';

function main(argv: string[]): number {
  if (argv.includes('--version')) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write('Usage: docs-admin <command> [options]\n\nOptions:\n  --help     show this help\n  --version  print the version\n');
    return 0;
  }
  process.stderr.write(`docs-admin: unknown command "${argv[0] ?? ''}". Run "docs-admin --help".\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
