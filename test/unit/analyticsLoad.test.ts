/**
 * Loading a site's reader analytics against the simulator over real sockets, counting the
 * requests: one set for the whole site per range, pages only as far as needed (a cap, each page
 * asking for no more than still wanted), one request at a time per kind, the store answering
 * from memory while fresh and loading again after, a 429 waited out, the errors that stop it all.
 */
import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { AnalyticsApi } from '../../src/core/analytics/analyticsApi';
import { periodRange } from '../../src/core/analytics/period';
import { KindGate, loadSite, type SiteAnalytics } from '../../src/core/analytics/site';
import { AnalyticsStore } from '../../src/core/analytics/store';
import { AdminApiClient } from '../../src/core/api/client';
import { ForbiddenError, RateLimitedError } from '../../src/core/api/apiErrors';
import { bulkAnalytics, PLAYGROUND_CONTACTS, Simulator } from '../simulator';
import { collector } from './support/collector';
import { recordingLogger } from './support/logger';


describe('analytics: loading the site, paging and caching', () => {
  let sim: Simulator;
  let client: AdminApiClient;
  let sleeps: number[];
  const log = recordingLogger('analytics');
  const pages = Array.from({ length: 600 }, (_, i) => `/page-${i}`);

  before(async () => {
    sim = await Simulator.start();
    client = new AdminApiClient({ baseUrl: sim.baseUrl, projectId: sim.projectId, getKey: () => sim.key, log, baseDelayMs: 1, maxDelayMs: 2, sleep: () => Promise.resolve() });
  });
  after(async () => {
    await client.close();
    await sim.stop();
  });
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    sleeps = [];
  });

  const analytics = () => sim.requests.filter((r) => r.route.startsWith('analytics.'));
  const range = () => periodRange(30, sim.now());
  const paging = () => ({ sleep: (ms: number) => (sleeps.push(ms), Promise.resolve()), maxRateLimitWaitMs: 10 * 60_000 });

  it('one set of requests for the whole site, each list paged to its end: 250 feedback entries in 3 pages of 100, 600 pages of views in 3 of 250', async () => {
    sim.setAnalytics(bulkAnalytics(sim.now(), { seed: 1, pages, feedback: 250, conversations: 150, searches: 120, days: 20 }));
    const site = await loadSite(new AnalyticsApi(client), range(), { paging: paging(), log });
    assert.equal(site.feedback.length, 250);
    assert.equal(site.conversations.length, 150);
    assert.equal(site.searches.length, 120);
    assert.equal(site.views.length, 600);
    const by = (route: string) => analytics().filter((r) => r.route === route);
    assert.deepEqual(by('analytics.feedback').map((r) => new URLSearchParams(r.query).get('limit')), ['100', '100', '100']);
    assert.equal(by('analytics.feedbackByPage').length, 1);
    assert.equal(by('analytics.assistant').length, 1, 'one page of up to 1000 conversations');
    assert.equal(by('analytics.searches').length, 2);
    assert.deepEqual(by('analytics.views').map((r) => new URLSearchParams(r.query).get('offset')), ['0', '250', '500']);
    assert.equal(by('analytics.visitors').length, 0, 'visitors are not needed for the editor: not asked');
    assert.equal(analytics().length, site.requests);
    assert.deepEqual(site.truncated, { feedback: false, byPage: true, conversations: false, searches: false, views: false });
    // Every request carried the range, dateTo exclusive (tomorrow).
    for (const r of analytics()) assert.deepEqual([new URLSearchParams(r.query).get('dateFrom'), new URLSearchParams(r.query).get('dateTo')], [range().from, range().to]);
  });

  it('no further than needed: at the cap, the last page asks only for what is still wanted, and the list says it was cut', async () => {
    sim.setAnalytics(bulkAnalytics(sim.now(), { seed: 2, pages, feedback: 250, conversations: 10, searches: 10, days: 20 }));
    const site = await loadSite(new AnalyticsApi(client), range(), { limits: { feedback: 150, conversations: 2000, searches: 500, views: 300 }, paging: paging(), log });
    assert.equal(site.feedback.length, 150);
    assert.deepEqual(analytics().filter((r) => r.route === 'analytics.feedback').map((r) => new URLSearchParams(r.query).get('limit')), ['100', '50']);
    assert.deepEqual(analytics().filter((r) => r.route === 'analytics.views').map((r) => new URLSearchParams(r.query).get('limit')), ['250', '50']);
    assert.equal(site.truncated.feedback, true);
    assert.equal(site.truncated.views, true);
  });

  it('one request at a time per kind, even with two ranges loading at once (kinds side by side)', async () => {
    sim.setAnalytics(bulkAnalytics(sim.now(), { seed: 3, pages, feedback: 300, conversations: 10, searches: 10, days: 80 }));
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    let together = 0;
    let total = 0;
    const counting = {
      getAnalytics: async (resource: string, query: Record<string, string | number | undefined>, options: { signal?: AbortSignal }) => {
        inFlight.set(resource, (inFlight.get(resource) ?? 0) + 1);
        total++;
        together = Math.max(together, total);
        most.set(resource, Math.max(most.get(resource) ?? 0, inFlight.get(resource) ?? 0));
        try {
          return await client.getAnalytics(resource, query, options);
        } finally {
          inFlight.set(resource, (inFlight.get(resource) ?? 1) - 1);
          total--;
        }
      },
    };
    sim.injectFault({ route: '*', kind: 'delay', ms: 15, times: null });
    const gate = new KindGate();
    const api = new AnalyticsApi(counting);
    await Promise.all([loadSite(api, periodRange(30, sim.now()), { gate, paging: paging(), log }), loadSite(api, periodRange(90, sim.now()), { gate, paging: paging(), log })]);
    sim.clearFaults();
    for (const [resource, n] of most) assert.equal(n, 1, `${resource}: ${n} requests at once`);
    assert.ok(together > 1, 'the kinds went side by side');
  });

  it('the store answers from memory while fresh (no request), shares a load under way, loads again once the time is up, and keeps nothing but memory', async () => {
    sim.seedPlaygroundAnalytics();
    let now = sim.now();
    const loads: number[] = [];
    const store = new AnalyticsStore({
      ttlMs: 15 * 60_000,
      now: () => now,
      load: (r, signal) => {
        loads.push(now);
        return loadSite(new AnalyticsApi(client), r, { paging: { ...paging(), signal }, log, now: () => now });
      },
    });
    const r = periodRange(30, now);
    const [a, b] = await Promise.all([store.get(r), store.get(r)]);
    assert.equal(a, b, 'two callers at once share one load');
    const first = analytics().length;
    assert.equal(first, 5, 'feedback, per-page counts, conversations, searches, views: one request each');
    now += 14 * 60_000;
    assert.equal(await store.get(r), a, 'fresh: from memory');
    assert.equal(analytics().length, first, 'no request while fresh');
    assert.deepEqual(store.state(r), { kind: 'ready', site: a, fresh: true });
    now += 2 * 60_000;
    const stale = store.state(r);
    assert.equal(stale.kind === 'ready' && !stale.fresh && stale.site === a, true, 'stale after 15 minutes, still shown');
    const again = await store.get(r);
    assert.notEqual(again, a);
    assert.equal(analytics().length, 2 * first, 'loaded again, once');
    assert.equal(loads.length, 2);
    await store.get(r, true);
    assert.equal(loads.length, 3, 'a refresh loads whatever the age');
    store.dispose();
  });

  it('a 429 is waited out: a short Retry-After by the transport, a long one here (each a request), within the budget; past it the error', async () => {
    sim.seedPlaygroundAnalytics();
    sim.injectFault({ route: 'analytics.feedback', kind: 'status', status: 429, headers: { 'retry-after': '90' } });
    const site = await loadSite(new AnalyticsApi(client), range(), { paging: paging(), log });
    assert.ok(site.feedback.length > 0);
    assert.deepEqual(sleeps, [90_000], 'the 90 s the server asked for');
    assert.equal(analytics().filter((r) => r.route === 'analytics.feedback').length, 2);
    sim.clearRequests();
    sim.injectFault({ route: 'analytics.searches', kind: 'status', status: 429, headers: { 'retry-after': '600' }, times: 3 });
    const partial = await loadSite(new AnalyticsApi(client), range(), { paging: { ...paging(), maxRateLimitWaitMs: 60_000 }, log });
    assert.ok(partial.failures.searches instanceof RateLimitedError, 'a wait past the budget: that list fails, the others are shown');
    assert.ok(partial.feedback.length > 0 && partial.searches.length === 0);
    assert.equal(analytics().filter((r) => r.route === 'analytics.searches').length, 1);
  });

  it('a plan without analytics stops it all, with a message that says so and what to do', async () => {
    sim.setAnalyticsEnabled(false);
    try {
      await assert.rejects(loadSite(new AnalyticsApi(client), range(), { paging: paging(), log }), (error: unknown) => error instanceof ForbiddenError && /plan does not include reader analytics/.test(error.message) && /paid plan/.test(error.message));
    } finally {
      sim.setAnalyticsEnabled(true);
    }
  });

  it('a bad range is refused by the server with its reason, in the error a person reads', async () => {
    await assert.rejects(new AnalyticsApi(client).feedback({ from: '2026-13-01', to: '2026-12-01' }, { limit: 10 }), /400: Invalid query parameters \(dateFrom: Invalid date/);
  });

  it('privacy: a contact is held, not printed: JSON, String, util.inspect and every log line leave it out; only reveal() gives it', async () => {
    sim.seedPlaygroundAnalytics();
    const site: SiteAnalytics = await loadSite(new AnalyticsApi(client), periodRange(30, sim.now()), { paging: paging(), log });
    const withContact = site.feedback.filter((f) => f.shape === 'contextual' && f.contact !== undefined);
    assert.equal(withContact.length, 2);
    const revealed = withContact.map((f) => (f.shape === 'contextual' ? f.contact?.reveal() : undefined)).sort();
    assert.deepEqual(revealed, [...PLAYGROUND_CONTACTS].sort());
    const shown = [JSON.stringify(site), inspect(site, { depth: 10 }), String(withContact.map((f) => (f.shape === 'contextual' ? f.contact : '')).join(' ')), String(withContact[0]?.shape === 'contextual' ? withContact[0].contact : ''), ...log.lines];
    for (const text of shown) for (const contact of PLAYGROUND_CONTACTS) assert.ok(!text.includes(contact), 'a contact shown');
    assert.ok(collector.knows('contact', PLAYGROUND_CONTACTS[0]!), 'the suite-wide scan knows the contacts, and fails the run if any is printed');
  });
});
