/**
 * `npm run simulator [-- --port N --host H --time-scale N --demo]`: the simulator on its own.
 * Prints `name: value` lines a script can read; stops on Ctrl-C.
 */
import { demoTracked, seedDemo } from './demo';
import { Simulator } from './server';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const sim = await Simulator.start({
    host: option('host') ?? '127.0.0.1',
    port: Number(option('port') ?? 0),
    timeScale: Number(option('time-scale') ?? 1),
  });
  if (process.argv.includes('--demo')) {
    seedDemo(sim);
    console.log(`demoJobs: ${demoTracked(sim).join(',')}`);
  }
  console.log(`baseUrl: ${sim.baseUrl}`);
  console.log(`storageBaseUrl: ${sim.storageBaseUrl}`);
  console.log(`projectId: ${sim.projectId}`);
  console.log(`key: ${sim.key}`);
  console.log('ready: the simulator is running (Ctrl-C stops it)');
  const stop = () => {
    void sim.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
