/**
 * The playground's docs site, as files in a workspace: `docs/docs.json` (a redirect from the old
 * `/getting-started`, a Spanish copy) and the pages the simulator's playground analytics speak
 * of (see analyticsData.ts): the quickstart, the install guide with its code block, the
 * configuration guide, the API's auth page, the Spanish quickstart. `/guides/deploy-on-mars`,
 * which readers visited, has no file here: it is listed as unmatched. Used by `npm start`, the UI
 * check, the host tests and the benchmark.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PLAYGROUND_DOCS_JSON = {
  $schema: 'https://mintlify.com/docs.json',
  name: 'Acme Docs',
  navigation: {
    languages: [
      { language: 'en', groups: [{ group: 'Get started', pages: ['index', 'quickstart', 'guides/install', 'guides/configure', 'api/auth'] }] },
      { language: 'es', groups: [{ group: 'Empezar', pages: ['es/quickstart'] }] },
    ],
  },
  redirects: [{ source: '/getting-started', destination: '/quickstart' }],
};

export function playgroundSiteFiles(): Map<string, string> {
  const files = new Map<string, string>();
  files.set('docs/docs.json', `${JSON.stringify(PLAYGROUND_DOCS_JSON, null, 2)}\n`);
  files.set('docs/index.mdx', '---\ntitle: Acme Docs\n---\n\nWelcome. Start with the [quickstart](/quickstart).\n');
  files.set(
    'docs/quickstart.mdx',
    '---\ntitle: Quickstart\n---\n\n# Quickstart\n\nInstall the CLI with npm, then run it in your docs folder.\n\n<Tip>Node 20 or later is required.</Tip>\n\n## Next steps\n\nRead the configuration guide.\n',
  );
  files.set('docs/guides/install.mdx', '---\ntitle: Install\n---\n\n```bash install.sh\nnpm install -g @acme/cli\nacme login\n```\n');
  files.set('docs/guides/configure.mdx', '---\ntitle: Configure\n---\n\nThe config file is `acme.json`.\n');
  files.set('docs/guides/empty.mdx', '---\ntitle: A page no reader has met yet\n---\n');
  files.set('docs/api/auth.mdx', '---\ntitle: Authentication\n---\n\nSend `Authorization: Bearer <token>`.\n');
  files.set('docs/es/quickstart.mdx', '---\ntitle: Inicio rápido\n---\n\nInstala la CLI con npm.\n');
  return files;
}

/** Writes the site into `folder` (the workspace); returns the quickstart's path. */
export function writePlaygroundSite(folder: string): string {
  for (const [name, content] of playgroundSiteFiles()) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return join(folder, 'docs', 'quickstart.mdx');
}
