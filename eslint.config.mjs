// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'cli/dist/**', 'out/**', 'node_modules/**', '.cache/**', '*.mjs', '.mocharc.cjs', 'scripts/**', '.vscode-test/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Files a reader can hold in their head (STYLE.md): split by concept before one grows past this.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 350 }] },
  },
  {
    // The core is the part the CLI and the unit tests run without an editor: it imports neither
    // VS Code nor the front ends built on it (src/vscode, src/extension.ts, src/cli).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core must not depend on vscode: put editor code in src/vscode.' }],
          patterns: [{ regex: '^(\\.\\./)+(vscode|cli|action|extension)(/|$)', message: 'src/core must not import the front ends (src/vscode, src/extension.ts, src/cli, src/action): they import the core, never the other way.' }],
        },
      ],
    },
  },
  {
    // The CLI and the GitHub Action run without an editor: the core only (the action shares the CLI's exit codes and checks).
    files: ['src/cli/**/*.ts', 'src/action/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/cli and src/action run without VS Code: use src/core.' }],
          patterns: [{ regex: '^(\\.\\./)+(vscode|extension)(/|$)', message: 'src/cli and src/action must not import the editor side (src/vscode, src/extension.ts): use src/core.' }],
        },
      ],
    },
  },
  {
    // Tests hear everything the core logs (issue 20): the secrets scan reads what a recording
    // logger was given, so a silent one would hide a leaked key. Unit tests hand the core
    // `recordingLogger()` (test/unit/support/logger.ts), integration tests `hostLogger()`.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)core/log$', importNames: ['silentLogger'], message: 'No silent logger in tests: hand the core recordingLogger() (unit) or hostLogger() (integration), so the secrets scan sees every line.' }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name=/^(AdminApiClient|HttpTransport|JobsService)$/] > ObjectExpression:first-child:not(:has(> Property[key.name='log']))",
          message: 'Pass `log`: without one the client is silent, and the secrets scan never sees its lines. Use recordingLogger() (unit) or hostLogger() (integration).',
        },
      ],
    },
  },
  {
    // Every place VS Code renders text (issue 27): notifications and progress notifications render
    // [label](command:…) as a link that runs the command, and so do an input box's prompt and
    // validation messages; the others are plain text today. Messages (src/vscode/messages.ts) and
    // Ui (src/vscode/ui.ts) are the one way to each sink, and make whatever text they are given
    // safe (src/core/untrusted.ts); the API's sinks are named here and off limits elsewhere.
    // Opening a link goes through openSafely (src/vscode/openLink.ts), which allows https: only
    // (or loopback http:); the preview's own loopback page is the one other caller, marked there.
    files: ['src/**/*.ts'],
    ignores: ['src/vscode/messages.ts', 'src/vscode/ui.ts'],
    rules: {
      'no-restricted-properties': ['error', ...textSinks()],
    },
  },
  {
    // The CLI prints through the Io that run() wraps with terminalSafe (src/cli/context.ts):
    // outside text never reaches a terminal or a CI log raw. Only main.ts touches the streams.
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/main.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['stdout', 'stderr'].map((property) => ({ object: 'process', property, message: 'Print through ctx.io (made safe by terminalSafe in run()), never to the streams directly.' })),
      ],
    },
  },
  // The core's and the CLI's user-facing text: through @vscode/l10n, in the shape its exporter sees.
  coreL10n(),
  // The editor side's user-facing text: through vscode.l10n.t.
  editorL10n(),
);

/**
 * The VS Code API's sinks of text (issue 27), each with where to go instead: notifications and
 * modal dialogs through Messages, the rest through Ui; and where links are opened.
 */
function textSinks() {
  const messages = 'Show messages through Messages (src/vscode/messages.ts, deps.messages): it leaves no clickable link in outside text.';
  const ui = (use) => `Use ${use} (src/vscode/ui.ts, deps.ui): VS Code renders [label](command:…) in some of these texts as a link that runs the command; Ui makes every text it is given safe.`;
  const none = 'Not used by Docs Admin: a new sink of text (HTML, a terminal) needs its own review, and a way through src/vscode/ui.ts.';
  return [
    ...['showErrorMessage', 'showWarningMessage', 'showInformationMessage'].map((property) => ({ property, message: messages })),
    { property: 'withProgress', message: ui('deps.ui.progress(), or withCancellableProgress (src/vscode/progress.ts)') },
    { property: 'showInputBox', message: ui('deps.ui.inputBox()') },
    { property: 'createInputBox', message: ui('deps.ui.inputBox()') },
    { property: 'showQuickPick', message: ui('deps.ui.quickPick()') },
    { property: 'createQuickPick', message: ui('deps.ui.quickPick()') },
    { property: 'showWorkspaceFolderPick', message: ui('deps.ui.quickPick()') },
    { property: 'showOpenDialog', message: ui('deps.ui.openDialog()') },
    { property: 'showSaveDialog', message: ui('deps.ui.saveDialog()') },
    { property: 'setStatusBarMessage', message: 'Show a passing note through deps.messages.status() (src/vscode/messages.ts): it leaves no clickable link in outside text, and tests read it.' },
    { property: 'createStatusBarItem', message: ui('deps.ui.statusItem()') },
    { object: 'vscode', property: 'MarkdownString', message: ui('untrustedMarkdown()') },
    ...['appendMarkdown', 'appendText', 'appendCodeblock'].map((property) => ({ property, message: ui('untrustedMarkdown() or markdownLines(), with escapeMarkdown() for outside text') })),
    ...['createWebviewPanel', 'registerWebviewViewProvider', 'registerCustomEditorProvider', 'createTerminal'].map((property) => ({ property, message: none })),
    { property: 'openExternal', message: 'Open links through openSafely (src/vscode/openLink.ts): https: only, or loopback http:.' },
  ];
}

/**
 * Localisation of src/core and src/cli (see src/core/l10n.ts): what a person reads goes through
 * `l10n.t('…')`, and only in the shape the string exporter (vscode-l10n-dev) sees; it skips
 * anything else without a word, and the text would stay English. Log lines, ids, codes, setting
 * names and URLs stay as they are.
 */
function coreL10n() {
  const L10N_T = "CallExpression[callee.type='MemberExpression'][callee.object.name='l10n'][callee.property.name='t']";
  /** A text a person reads: a string with a blank in it or a closing full stop, or a template with words. */
  const PROSE = ':matches(Literal[value=/\\s|\\.$/], TemplateLiteral:has(TemplateElement[value.raw=/[A-Za-z]/]))';
  /** Any words at all (labels and titles are often one word). */
  const WORDS = ':matches(Literal[value=/[A-Za-z]/], TemplateLiteral:has(TemplateElement[value.raw=/[A-Za-z]/]))';
  /**
   * Where a text sits in an argument or a value: itself, or a branch of `?:`, `||`, `??` or `+`,
   * two deep; `at` places the outermost node (`.value`: a property's value; `:first-child`: the
   * first argument).
   */
  const inside = (text, at = '') => {
    const wrap = ":matches(ConditionalExpression, LogicalExpression, BinaryExpression[operator='+'])";
    return [`${text}${at}`, `${wrap}${at} > ${text}`, `${wrap}${at} > ${wrap} > ${text}`];
  };
  const L10N_MESSAGE = 'A text a person reads goes through l10n.t(\'…\', args) (src/core/l10n.ts); log lines, ids and codes stay as they are.';
  const l10nSyntax = [
    // The shape the exporter sees.
    { selector: "ImportDeclaration[source.value='@vscode/l10n'] > ImportSpecifier", message: "Import it as `import * as l10n from '@vscode/l10n'` and call l10n.t(): the exporter skips a bare t()." },
    { selector: "ImportDeclaration[source.value='@vscode/l10n'] > ImportNamespaceSpecifier[local.name!='l10n']", message: 'Name the import l10n: the exporter looks for l10n.t().' },
    { selector: `${L10N_T} > :first-child:not(Literal[value=/./], TemplateLiteral[expressions.length=0], ObjectExpression)`, message: "l10n.t() takes one string literal, its values as {0}, {1} arguments: the exporter skips anything else (a variable, a concatenation, a ?:), and the text would never be translated." },
    { selector: `${L10N_T} > ObjectExpression:first-child:not(:has(Property[key.name='comment']))`, message: "l10n.t({ message, args }) without a comment is skipped by the exporter: pass the string itself, or add a comment." },
    { selector: `${L10N_T} > ObjectExpression > Property[key.name=/^(message|comment)$/] > :not(Literal, ArrayExpression).value`, message: "l10n.t({ message, comment }): both must be literals (a string, or an array of strings for the comment), or the exporter skips the call." },
    { selector: `${L10N_T} > ObjectExpression > Property[key.name='comment'] > ArrayExpression > :not(Literal)`, message: 'A comment of l10n.t() is an array of string literals.' },
    // English where a person reads it.
    ...inside(PROSE).map((text) => ({ selector: `NewExpression[callee.name=/Error$/] > ${text}`, message: L10N_MESSAGE })),
    ...inside(PROSE, ':first-child').map((text) => ({ selector: `:matches(ClassDeclaration, ClassExpression)[superClass.name=/Error$/] CallExpression[callee.type='Super'] > ${text}`, message: L10N_MESSAGE })),
    ...inside(PROSE, '.value').map((text) => ({ selector: `Property[key.name='reason'] > ${text}`, message: L10N_MESSAGE })),
    ...inside(WORDS, '.value').map((text) => ({ selector: `ObjectExpression:not(${L10N_T} > ObjectExpression) > Property[key.name=/^(message|label|description|title|note|help|summary|headline|detail|tooltip)$/] > ${text}`, message: L10N_MESSAGE })),
    ...inside(WORDS).map((text) => ({ selector: `:matches(Property[key.name='details'], VariableDeclarator[id.name='details']) > ArrayExpression > ${text}`, message: L10N_MESSAGE })),
    // The boundary of no-restricted-imports (above), for import() too.
    { selector: "ImportExpression[source.value=/^(vscode$|(\\.\\.\\/)+(vscode|extension|cli)(\\/|$))/]", message: 'src/core and src/cli load neither VS Code nor the editor side (and the core not the CLI), not even with import().' },
  ];

  /** `l10n.t()` at module level would run before activation configures the bundle: English for good. */
  const noModuleLevelT = {
    meta: { type: 'problem', schema: [], messages: { moduleLevel: 'l10n.t() runs when the module loads, before the editor configures the translation: call it inside a function (a table of texts becomes a function, or getters).' } },
    create(context) {
      const deferred = (node) => /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type) || (node.type === 'PropertyDefinition' && !node.static);
      return {
        [L10N_T](node) {
          if (!context.sourceCode.getAncestors(node).some(deferred)) context.report({ node, messageId: 'moduleLevel' });
        },
      };
    },
  };

  return {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/action/**/*.ts'],
    plugins: { 'docs-admin-l10n': { rules: { 'no-module-level-t': noModuleLevelT } } },
    rules: {
      'docs-admin-l10n/no-module-level-t': 'error',
      'no-restricted-syntax': ['error', ...l10nSyntax],
    },
  };
}


/**
 * The editor's side of localisation (issue 8): a string a person sees, written where the editor
 * shows it as it is, must go through `vscode.l10n.t(...)` instead, so that a translation is one
 * file away. Flags a string or template literal with words in it as an argument of a
 * notification or of an Error, as the value of a UI property (`title`, `prompt`, `placeHolder`,
 * `tooltip`, `label`, ...), or assigned to one (`item.tooltip = ...`). Allowed: literals without
 * words (a codicon such as `$(sync~spin)`, punctuation, an empty string, a template that only
 * places translated parts), and example host names or URLs (`docs.example.com`). Log lines, ids,
 * setting keys and the product's name are not in these positions (or use a named constant).
 */
function editorL10n() {
  // A text with no words: codicons, digits, punctuation, white space (`\n` in a template's raw text).
  const noWords = String.raw`/^(?:\$\([\w~-]+\)|\\[nrt]|[^A-Za-z])*$/`;
  // An example host name or URL, all lower case: `docs.example.com`, `https://api.example.com`.
  const hostOrUrl = String.raw`/^(?:https?:\x2F\x2F)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\x2F\S*)?$/`;
  const text = [
    `Literal[value=/[A-Za-z]/]:not([value=${noWords}]):not([value=${hostOrUrl}])`,
    `TemplateLiteral:has(TemplateElement:not([value.raw=${noWords}]))`,
  ];
  const message = 'Text a person sees goes through vscode.l10n.t(...) (issue 8: a translation is one file away); log lines stay English.';
  const uiProperty = /^(?:title|prompt|placeHolder|placeholder|openLabel|saveLabel|tooltip|message|detail|label|description|name)$/.source;
  const positions = [
    // vscode.window.show*Message(message, ...buttons): the message and every button.
    (t) => `CallExpression[callee.property.name=/^show(?:Information|Warning|Error)Message$/] > ${t}.arguments`,
    // Our own helpers whose arguments are shown: a progress title, a quick pick title.
    (t) => `CallExpression[callee.name=/^(?:withCancellableProgress|pickCompletedExport)$/] > ${t}.arguments`,
    (t) => `CallExpression[callee.property.name=/^(?:setStatusBarMessage|status)$/] > ${t}.arguments`,
    // new Error('...') and the typed errors: their message is shown by the command wrapper.
    (t) => `NewExpression[callee.name=/Error$/] > ${t}.arguments`,
    // Tree items, quick fixes, hovers and tasks built with their text.
    (t) => `NewExpression[callee.property.name=/^(?:TreeItem|CodeAction|MarkdownString|Task)$/] > ${t}.arguments`,
    // { title: '...', prompt: '...', ... } in input boxes, quick picks, dialogs, progress, CodeLens commands.
    // (Not the `message` of `vscode.l10n.t({ message, comment })`.)
    (t) => `Property[key.name=/${uiProperty}/]:not(CallExpression[callee.property.name='t'] > ObjectExpression > Property) > ${t}.value`,
    // item.tooltip = '...', view.message = '...', statusItem.text = '...'.
    (t) => `AssignmentExpression[left.property.name=/^(?:description|tooltip|message|text|title|label|name)$/] > ${t}.right`,
  ];
  // Issue 27 (beside textSinks(), which cannot name an assignment): a MarkdownString is never made trusted.
  const trusted = { selector: "AssignmentExpression[left.property.name='isTrusted']:not([right.value=false])", message: 'A MarkdownString stays untrusted (untrustedMarkdown() in src/vscode/ui.ts): a trusted one runs the command of any [label](command:…) in it.' };
  return {
    files: ['src/extension.ts', 'src/vscode/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', trusted, ...positions.flatMap((at) => text.map((t) => ({ selector: at(t), message })))],
    },
  };
}
