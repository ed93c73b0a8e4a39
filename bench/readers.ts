/**
 * Readers: a docs page opened after the site's reader analytics are cached shows its signals
 * within 50 ms (the goal), in the real extension host (code-server), on a large uneven site
 * (2,000 pages; 5,000 feedback entries, 3,000 conversations, 500 searches, most on a few pages).
 * Timed from opening the page to its signals' CodeLens, against the same for a Markdown note of
 * the same size outside the docs root (the editor's own cost), interleaved; and the requests
 * made while the pages were opened (none: every page after the first load is a look-up).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO, runSuite } from '../test/host/suite';
import { bulkAnalytics, Simulator } from '../test/simulator';
import { median, percentile, type Bench, type Measure } from './types';

export const readers: Bench = async (options) => {
  const pages = options.quick ? 60 : 2000;
  const opens = options.quick ? 5 : 40;
  const runs = options.quick ? 1 : Math.max(3, options.runs);
  const sim = await Simulator.start();
  const dir = mkdtempSync(join(tmpdir(), 'docs-admin-bench-readers-'));
  const ours: number[] = [];
  const baseline: number[] = [];
  const ratios: number[] = [];
  const opened: number[] = [];
  const provider: number[] = [];
  const indexes: number[] = [];
  const added: number[] = [];
  const openedBaseline: number[] = [];
  const loads: number[] = [];
  let requestsWhileOpening = 0;
  const notes: string[] = [];
  try {
    const paths = Array.from({ length: pages }, (_, i) => `/p/page-${i}`);
    sim.setAnalytics(bulkAnalytics(sim.now(), { seed: 0x5eed, pages: paths, feedback: options.quick ? 300 : 5000, conversations: options.quick ? 100 : 3000, searches: options.quick ? 50 : 500, days: 25 }));
    for (let i = 0; i < runs; i++) {
      const out = join(dir, `readers-${i}.json`);
      options.log(`readers: run ${i + 1} of ${runs} (a fresh VS Code host, ${pages} pages, ${opens} opened)`);
      const code = await runSuite({
        suite: resolve(REPO, 'out', 'bench', 'host', 'readers.js'),
        label: 'readers',
        env: { DOCS_ADMIN_BENCH_OUT: out, DOCS_ADMIN_BENCH_KEY: sim.key, DOCS_ADMIN_BENCH_PAGES: String(pages), DOCS_ADMIN_BENCH_OPENS: String(opens) },
        settings: { 'docsAdmin.baseUrl': sim.baseUrl, 'docsAdmin.projectId': sim.projectId, 'docsAdmin.readers.maxItems': 5000 },
        quiet: true,
      });
      if (code !== 0) throw new Error(`the readers run failed (exit ${code})`);
      const seen = JSON.parse(readFileSync(out, 'utf8')) as { ours: number[]; baseline: number[]; oursOpen: number[]; baselineOpen: number[]; provider: number[]; indexMs: number; loadMs: number; openedAt: number; endedAt: number; pagesWithData: number; requests: number };
      ours.push(...seen.ours);
      baseline.push(...seen.baseline);
      opened.push(...seen.oursOpen);
      provider.push(...seen.provider);
      indexes.push(seen.indexMs);
      seen.ours.forEach((t, j) => added.push(t - (seen.baseline[j] ?? t)));
      openedBaseline.push(...seen.baselineOpen);
      seen.ours.forEach((t, j) => ratios.push(t / (seen.baseline[j] ?? t)));
      loads.push(seen.loadMs);
      requestsWhileOpening += sim.requests.filter((r) => r.route.startsWith('analytics.') && r.at >= seen.openedAt && r.at <= seen.endedAt).length;
      notes.push(`run ${i + 1}: ${seen.pagesWithData} pages with signals; the site's data in ${seen.requests} requests, ${seen.loadMs.toFixed(0)} ms; a page shown to its signals ${median(seen.ours).toFixed(1)} ms (median of ${seen.ours.length}; a note's lenses ${median(seen.baseline).toFixed(1)} ms); from the open, ${median(seen.oursOpen).toFixed(0)} ms and ${median(seen.baselineOpen).toFixed(0)} ms.`);
      sim.clearRequests();
    }
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const p95 = percentile(provider, 95);
  const worstIndex = Math.max(...indexes);
  const measures: Measure[] = [
    { metric: 'cached site: the page\'s signals from the CodeLens provider (median)', unit: 'ms', ours: median(provider), min: Math.min(...provider), max: Math.max(...provider), goal: '<= 50 ms', pass: median(provider) <= 50 },
    { metric: 'cached site: the page\'s signals from the CodeLens provider (p95)', unit: 'ms', ours: p95, goal: '<= 50 ms', pass: p95 <= 50 },
    { metric: 'once per load, as the data arrives: the index of the site built (median; not a page\'s wait)', unit: 'ms', ours: median(indexes), min: Math.min(...indexes), max: worstIndex },
    { metric: 'through the editor: page shown to its signals, minus a note\'s lenses (median of pairs)', unit: 'ms', ours: median(added), min: Math.min(...added), max: Math.max(...added), goal: '<= 50 ms', pass: median(added) <= 50 },
    {
      metric: 'through the editor: page shown to its signals (median)',
      unit: 'ms',
      ours: median(ours),
      min: Math.min(...ours),
      max: Math.max(...ours),
      baseline: median(baseline),
      baselineName: 'a note outside the docs root: its lenses, no signals',
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
    },
    { metric: 'the whole open, page to its signals (median; the editor\'s own opening included)', unit: 'ms', ours: median(opened), min: Math.min(...opened), max: Math.max(...opened), baseline: median(openedBaseline), baselineName: 'a note opened to its lenses' },
    { metric: 'requests while the pages were opened', unit: 'requests', ours: requestsWhileOpening, goal: '0', pass: requestsWhileOpening === 0 },
    { metric: 'the site\'s data loaded (median; not part of the goal)', unit: 'ms', ours: median(loads), min: Math.min(...loads), max: Math.max(...loads) },
  ];
  notes.push(
    `${ours.length} page opens in ${runs} fresh hosts, each interleaved with the baseline's. The goal is read as what the extension adds once the site's data is cached: its CodeLens provider's answer for the page (timed in the extension host, on the page's document, as VS Code calls it; the site's index is built once as the data arrives, timed apart); and, through the editor, from showTextDocument's return to vscode.executeCodeLensProvider giving the signals' lens, against the same for a note outside the docs root (the same round trip through the web workbench, which dominates both: ${median(baseline).toFixed(0)} ms for the note). The workbench's painting of the lens is in neither. The whole open (code-server loading the document over its connection) is given apart.`,
  );
  return { name: 'readers', measures, notes };
};
