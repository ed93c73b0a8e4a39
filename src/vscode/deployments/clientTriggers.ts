/**
 * The deployment triggers of each API client: one `DeploymentTriggers` per client, so pacing and
 * the one-request-in-flight rule hold across commands and rows.
 */
import type { AdminApiClient } from '../../core/api/client';
import { DeploymentTriggers } from '../../core/deployments/triggers';

/** One `DeploymentTriggers` per API client (the session makes a new client when it is rebuilt). */
export class ClientTriggers {
  private readonly byClient = new WeakMap<AdminApiClient, DeploymentTriggers>();

  of(client: AdminApiClient): DeploymentTriggers {
    let triggers = this.byClient.get(client);
    if (triggers === undefined) {
      triggers = new DeploymentTriggers({ client });
      this.byClient.set(client, triggers);
    }
    return triggers;
  }
}
