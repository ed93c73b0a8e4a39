/** The window as the test host reads it: see test/integration/screen.ts (shared with the integration suite). */
export { shownTexts, waitForShown } from '../screen';
