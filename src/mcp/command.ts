/**
 * `docs-admin mcp`: the MCP server over stdio, for an AI assistant (VS Code's mcp.json, Cursor,
 * Claude Code). Loaded only for this command: no other command pays for the SDK. The key comes
 * from DOCS_ADMIN_API_KEY only; the base URL and project id from the flags or the environment.
 * The server starts without them (a client can list the tools), and a tool called without them
 * says what to set. stdout carries the protocol alone; the log goes to stderr.
 */
import { version } from '../../package.json';
import type { Parsed } from '../cli/args';
import type { Context } from '../cli/context';
import { EXIT } from '../cli/exit';
import { createServer } from './server';
import { mcpToolHost } from './toolHost';

export async function run(parsed: Parsed, ctx: Context): Promise<number> {
  const [{ StdioServerTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const server = createServer(mcpToolHost(parsed, ctx), { version, log: ctx.log });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  ctx.log.info('docs-admin MCP server: serving on stdio.');
  // Until the client goes (stdin ends) or the process is told to stop.
  const stop = () => void server.close();
  ctx.io.signal.addEventListener('abort', stop, { once: true });
  process.stdin.once('end', stop);
  await closed;
  return EXIT.ok;
}
