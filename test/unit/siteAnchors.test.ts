/**
 * How a page's headings and components become anchors, rule by rule (src/core/site/RULES.md).
 * Each rule names its evidence: the platform's ISC renderer (@mintlify/common 1.0.1211), or a
 * probe page checked with the platform's CLI (scripts/oracle-mint.sh, @mintlify/cli 4.0.1552),
 * or the vendor's own site (the corpus).
 */
import * as assert from 'node:assert/strict';
import { factsOf } from '../../src/core/site/facts';
import { asciiSlugify, cleanHeadingId, SlugCounter } from '../../src/core/site/slug';
import { parsers } from './support/site';

async function ids(mdx: string): Promise<string[]> {
  return factsOf(mdx, await parsers()).anchors.map((a) => a.id);
}

describe('site anchors: how a heading becomes an id', () => {
  it('equals @sindresorhus/slugify (the platform\'s library) on every ASCII input the platform hands it', async () => {
    // Step 1 percent-encodes the title, so the library only ever sees encodeURIComponent's output.
    const { default: library } = (await import('@sindresorhus/slugify')) as { default: (s: string, o: object) => string };
    const samples = ["what's-new", 'it-s-t', "don't-stop", 'a--b', '-x-', 'v1.2-release', 'snake_case_name', 'x~y*z', "(paren)-it's", 'a%3A-b', 'caf%C3%A9', '100%25-done', 'ends-s', 'a-t-b-s', '%E4%B8%AD-t'];
    for (const s of samples) {
      const encoded = /%[0-9A-F]{2}/.test(s);
      const expected = library(s, encoded ? { decamelize: false, preserveCharacters: ['%', '_'], lowercase: false } : { decamelize: false, preserveCharacters: ['_'] });
      assert.equal(asciiSlugify(s, encoded), expected, s);
    }
  });

  it('drops a colon: "Step 1: Issue a proxy secret" is #step-1-issue-a-proxy-secret (mintlify/docs#5537)', async () => {
    // Renderer: getUnicodeId encodes ":" as %3A, cleanHeadingId decodes and strips it; the issue shows the rendered id.
    assert.deepEqual(await ids('## Step 1: Issue a proxy secret\n'), ['step-1-issue-a-proxy-secret']);
  });

  it('keeps $ and _, drops ?,;:!\'"()[]{}, and joins contractions (probe: #whats-new passes, #what-s-new fails)', async () => {
    assert.deepEqual(await ids("## What's new?\n\n## Split configuration with `$ref`\n\n## snake_case (beta)!\n"), ['whats-new', 'split-configuration-with-$ref', 'snake_case-beta']);
  });

  it('keeps non-ASCII letters as they are (probe: #überblick and #中文标题 pass; mintlify/docs#6895)', async () => {
    assert.deepEqual(await ids('## Überblick\n\n## 中文标题\n\n## Configuración de GitLab\n'), ['überblick', '中文标题', 'configuración-de-gitlab']);
  });

  it('removes emoji after slugifying, so a leading one leaves its dash (renderer: cleanHeadingId runs last)', async () => {
    assert.deepEqual(await ids('## 🚀 Launch day\n'), ['-launch-day']);
  });

  it('numbers repeats from 2 (probe: #setup-2 passes, #setup-1 fails)', async () => {
    assert.deepEqual(await ids('## Setup\n\n## Setup\n\n## Setup\n'), ['setup', 'setup-2', 'setup-3']);
  });

  it('tells apart headings that cleaning made equal (the table of contents\' second pass)', async () => {
    assert.deepEqual(await ids('## A:\n\n## A\n'), ['a', 'a-2']);
  });

  it('takes an explicit {#id}, which replaces the slug (probe: #my-custom-id passes, #custom-heading fails)', async () => {
    assert.deepEqual(await ids('## Custom heading {#my-custom-id}\n'), ['my-custom-id']);
  });

  it('gives levels 5 and 6 no id (renderer: HEADING_LEVELS is 1-4; probe: #deep-heading fails)', async () => {
    assert.deepEqual(await ids('##### Deep heading\n\n#### Level four\n'), ['level-four']);
  });

  it('gives no heading an id on a page of mode custom or frame (renderer: AVOIDED_PAGE_MODES)', async () => {
    assert.deepEqual(await ids('---\nmode: custom\n---\n\n## Hidden\n'), []);
  });

  it('counts headings inside an accordion, but keeps them out of the table of contents', async () => {
    assert.deepEqual(await ids('## Setup\n\n<Accordion title="More">\n\n## Setup\n\n</Accordion>\n\n## Setup\n'), ['setup', 'more', 'setup-2', 'setup-3']);
  });
});

describe('site anchors: components and elements', () => {
  it('<Accordion title> gets the title slugified with transliteration (Ü is ue; probe: #my-accordion passes)', async () => {
    assert.deepEqual(await ids('<Accordion title="My Accordion">\nx\n</Accordion>\n\n<Accordion title="Über: uns">\ny\n</Accordion>\n'), ['my-accordion', 'ueber-uns']);
  });

  it('<ParamField path="userId"> is #param-user-id, decamelized (probe: #param-userid fails); <ResponseField name> too', async () => {
    assert.deepEqual(await ids('<ParamField path="userId" type="string">\nx\n</ParamField>\n\n<ResponseField name="createdAt" type="string">\ny\n</ResponseField>\n\n<ParamField query="userId">\nz\n</ParamField>\n'), [
      'param-user-id',
      'param-created-at',
      'param-user-id-1',
    ]);
  });

  it('<Update label> is an entry of the table of contents (probe: #august-21-2026 passes)', async () => {
    assert.deepEqual(await ids('<Update label="August 21, 2026">\n\n## Inside\n\n</Update>\n'), ['august-21-2026', 'inside']);
  });

  it('<Tab title> gets an id of its own counter, an explicit id as written (renderer: COMPONENTS_WITH_RAW_ID)', async () => {
    assert.deepEqual(await ids('<Tabs>\n<Tab title="First Tab">\none\n</Tab>\n<Tab title="First Tab">\ntwo\n</Tab>\n<Tab title="x" id="chosen">\nthree\n</Tab>\n</Tabs>\n'), ['first-tab', 'first-tab-2', 'chosen']);
  });

  it('<Step> is an anchor only with a titleSize of h2 or h3, its own or its <Steps>\'', async () => {
    assert.deepEqual(await ids('<Steps titleSize="h2">\n  <Step title="Install the CLI">\n    x\n  </Step>\n</Steps>\n\n<Steps>\n  <Step title="Plain step">\n    y\n  </Step>\n</Steps>\n'), ['install-the-cli']);
  });

  it('an HTML element\'s id is an anchor as written (the vendor\'s translated pages keep English anchors so)', async () => {
    assert.deepEqual(await ids('<div id="split-configuration-with-ref">\n\n## Dividir la configuración con `$ref`\n\n</div>\n'), ['split-configuration-with-ref', 'dividir-la-configuración-con-$ref']);
  });

  it('an id on a component that drops it (a Card, a Note) is no anchor (renderer: COMPONENTS_WITHOUT_ID)', async () => {
    assert.deepEqual(await ids('<Card title="c" id="card-id">x</Card>\n\n<Note id="note-id">y</Note>\n'), []);
  });

  it('a JSX heading with an id takes it, cleaned; one without takes its text', async () => {
    assert.deepEqual(await ids('<h2 id="Custom:Id">Title</h2>\n\n<h3>Plain title</h3>\n'), ['CustomId', 'plain-title']);
  });
});

describe('site anchors: the helpers', () => {
  it('cleanHeadingId keeps a malformed percent sequence as written', () => {
    assert.equal(cleanHeadingId('100%zz'), '100%zz');
    assert.equal(cleanHeadingId('a%3A-b'), 'a-b');
  });

  it('SlugCounter numbers like slugifyWithCounter, its repeat of "x-2" included (the second pass tells those apart)', () => {
    const counter = new SlugCounter();
    assert.deepEqual(['x', 'x', 'x-2', 'y', ''].map((s) => counter.next(s)), ['x', 'x-2', 'x-2', 'y', '']);
  });
});
