// The import graph's rules (STYLE.md: arrows point down and never close a circle), checked by
// `npm run lint:imports` in `npm test` and CI. Type-only imports count: a circle of types is
// still two files that cannot be read, moved or split one without the other.
// extension.ts is the top; src/vscode, src/cli, src/action and src/mcp stand on src/core; the
// CLI holds every subcommand's entry (mcp's too), the MCP server imports no CLI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      severity: 'error',
      comment: 'An import circle: move what both sides need into a file of its own that neither imports back.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-stays-down',
      severity: 'error',
      comment: 'src/core imports nothing of the front ends (src/vscode, src/cli, src/action, src/mcp, src/extension.ts): they import the core.',
      from: { path: '^src/core/' },
      to: { path: '^src/(vscode|cli|action|mcp)/|^src/extension\\.ts$' },
    },
    {
      name: 'editor-not-other-fronts',
      severity: 'error',
      comment: 'src/vscode imports the core, never the CLI, the Action, the MCP server or extension.ts.',
      from: { path: '^src/vscode/' },
      to: { path: '^src/(cli|action|mcp)/|^src/extension\\.ts$' },
    },
    {
      name: 'mcp-server-only',
      severity: 'error',
      comment: 'src/mcp is the MCP server over the core: its command-line entry lives in src/cli (cli/mcp.ts).',
      from: { path: '^src/mcp/' },
      to: { path: '^src/(cli|vscode|action)/|^src/extension\\.ts$' },
    },
    {
      name: 'cli-not-editor',
      severity: 'error',
      comment: 'src/cli runs without VS Code: it imports the core (and the MCP server for `docs-admin mcp`), never src/vscode, src/action or extension.ts.',
      from: { path: '^src/cli/' },
      to: { path: '^src/(vscode|action)/|^src/extension\\.ts$' },
    },
    {
      name: 'action-not-editor',
      severity: 'error',
      comment: 'src/action runs without VS Code: it imports the core (and the CLI\'s exit codes), never src/vscode, src/mcp or extension.ts.',
      from: { path: '^src/action/' },
      to: { path: '^src/(vscode|mcp)/|^src/extension\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
