/**
 * The links of one download: the first one (regenerated first when it has already expired), and
 * a new one when the store refuses the current one as expired: one for all the ranges that find
 * it expired at about the same time, and at most `maxRegenerations` in all, after which the
 * clock is the likelier culprit (`ExpiredLinkError`).
 */
import * as l10n from '@vscode/l10n';
import { english } from '../../l10n';
import type { Logger } from '../../log';
import type { IssuedLink } from '../links/linkCache';
import type { Why } from './answers';
import { ExpiredLinkError } from './downloadErrors';

export interface LinkSource {
  link: () => Promise<IssuedLink>;
  regenerate: () => Promise<IssuedLink>;
  timeLeft: (link: IssuedLink) => number | undefined;
  maxRegenerations: number;
  log: Logger;
  /** Counted into the download's result. */
  counts: { regenerations: number };
}

export class LinkSupply {
  private link: IssuedLink | undefined;
  private renewing: Promise<IssuedLink> | undefined;

  constructor(private readonly o: LinkSource) {}

  async current(): Promise<IssuedLink> {
    if (this.link === undefined) {
      const first = await this.o.link();
      const left = this.o.timeLeft(first);
      this.link = left !== undefined && left < 5_000 ? await this.fresh((l10n) => l10n.t('the link had expired before the download began')) : first;
    }
    return this.link;
  }

  /** A new link, after the store refused the current one (`why`). */
  async fresh(why: Why): Promise<IssuedLink> {
    if (this.o.counts.regenerations >= this.o.maxRegenerations) throw new ExpiredLinkError(why(l10n));
    this.o.counts.regenerations++;
    this.o.log.info(`Generating a new bundle link: ${why(english)}.`);
    this.link = await this.o.regenerate();
    return this.link;
  }

  /** A new link for a request that found `stale` expired; none when another range already got one. */
  renew(stale: IssuedLink, why: Why): Promise<IssuedLink> {
    if (this.link !== undefined && this.link !== stale) return Promise.resolve(this.link);
    this.renewing ??= this.fresh(why).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }
}
