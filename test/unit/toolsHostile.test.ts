/**
 * Every AI tool over MCP, every field of every answer it reads made hostile in turn (see
 * test/support/hostileTools.ts): the MCP server of `docs-admin mcp` in this process (its tool
 * host, the server, the official SDK's client over the SDK's in-memory transport), against the
 * simulator, in a workspace holding the playground's docs site. Nothing from the server or a
 * reader stands outside a data block, whatever field carries it. The editor's language-model
 * tools run the same table in the host (test/integration/lmToolsHostile.test.ts).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parse, type Parsed } from '../../src/cli/args';
import { connect, type Io } from '../../src/cli/context';
import { TOOLS } from '../../src/core/tools/definitions';
import { mcpToolHost } from '../../src/mcp/toolHost';
import { createServer } from '../../src/mcp/server';
import { Simulator } from '../simulator';
import { PLAYGROUND_DOCS_JSON, writePlaygroundSite } from '../simulator/playgroundSite';
import { hostileDocsJson, runHostileTable, seedHostileFixture, type CallTool } from '../support/hostileTools';
import { recordingLogger } from './support/logger';

const KEY = 'da_hostile_tools_key_5d0c11';

describe('AI tools over MCP: every field of every answer hostile in turn, nothing outside a data block', function () {
  this.timeout(120_000);
  let sim: Simulator;
  let workspace: string;

  before(async () => {
    sim = await Simulator.start({ keys: [{ key: KEY }] });
    workspace = mkdtempSync(join(tmpdir(), 'docs-admin-hostile-'));
    writePlaygroundSite(workspace);
    writeFileSync(join(workspace, 'docs', 'docs.json'), JSON.stringify(hostileDocsJson(PLAYGROUND_DOCS_JSON)));
  });

  after(async () => {
    await sim.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** One call as an MCP client makes it, through a new server (its analytics cache new too). */
  const call: CallTool = async (name, input) => {
    const io: Io = {
      out: () => undefined,
      err: () => undefined,
      isTTY: false,
      env: { DOCS_ADMIN_API_KEY: KEY, DOCS_ADMIN_BASE_URL: sim.baseUrl, DOCS_ADMIN_PROJECT_ID: sim.projectId },
      signal: new AbortController().signal,
    };
    const parsed = parse(['mcp']) as Parsed;
    const log = recordingLogger('mcp');
    const ctx = connect(parsed, io, log);
    const server = createServer(mcpToolHost(parsed, ctx, workspace), { version: '0.0.0', log });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'hostile-test', version: '1.0.0' });
    try {
      await server.connect(serverSide);
      await client.connect(clientSide);
      const result = (await client.callTool({ name, arguments: input })) as CallToolResult;
      return { text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), failed: result.isError === true };
    } finally {
      await client.close();
      await server.close();
      await ctx.close();
    }
  };

  it('every tool, clean and then with each string field of its answers hostile: contained each time; the payload reached every tool', async () => {
    const fixture = seedHostileFixture(sim);
    const runs = await runHostileTable(sim, fixture, call);
    for (const def of TOOLS) {
      const own = runs.filter((r) => r.tool === def.name && r.field !== 'none');
      assert.ok(own.length > 0, `${def.name}: no field was made hostile`);
      assert.ok(own.some((r) => r.reached || r.failed), `${def.name}: no hostile field reached its result (${own.map((r) => r.field).join(', ')})`);
    }
    const reached = (tool: string, field: string) => runs.find((r) => r.tool === tool && r.field === field)?.reached;
    // A reader's invented path (mapped onto the page by the redirect) and the server's text reach the result, quoted.
    assert.equal(reached('docsAdmin_readerSignals', 'analytics.feedback feedback[].path'), true);
    assert.equal(reached('docsAdmin_readerSignals', 'analytics.feedback feedback[].comment'), true);
    assert.equal(reached('docsAdmin_deploymentStatus', 'deploy.status summary'), true);
    // A preview URL that is no link is not kept (parse time), so nothing of it reaches the result.
    assert.equal(reached('docsAdmin_previewBranch', 'preview.trigger previewUrl'), false);
    assert.ok(runs.length > 40, `only ${runs.length} runs`);
  });
});
