/** The contract's feature availability by deployment type, and what it means for this tool. */
import * as l10n from '@vscode/l10n';

export type DeploymentType = 'cloud' | 'clientHosted' | 'airGapped';
export type Availability = 'available' | 'configurable' | 'unavailable';
export type Feature = 'search' | 'assistant' | 'analytics' | 'playground' | 'staticExport';

const AVAILABILITY: { id: Feature; availability: Record<DeploymentType, Availability> }[] = [
  { id: 'search', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { id: 'assistant', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { id: 'analytics', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { id: 'playground', availability: { cloud: 'available', clientHosted: 'available', airGapped: 'configurable' } },
  { id: 'staticExport', availability: { cloud: 'available', clientHosted: 'available', airGapped: 'available' } },
];

export function featureName(feature: Feature): string {
  switch (feature) {
    case 'search':
      return l10n.t('Documentation search');
    case 'assistant':
      return l10n.t('AI assistant');
    case 'analytics':
      return l10n.t('Web analytics');
    case 'playground':
      return l10n.t('API playground');
    case 'staticExport':
      return l10n.t('Static export bundle');
  }
}

export function deploymentName(type: DeploymentType): string {
  switch (type) {
    case 'cloud':
      return l10n.t('Cloud');
    case 'clientHosted':
      return l10n.t('Client-hosted');
    case 'airGapped':
      return l10n.t('Air-gapped');
  }
}

/** Each feature with its availability; `name` is looked up in the display language when read. */
export const FEATURES: readonly { readonly id: Feature; readonly name: string; readonly availability: Readonly<Record<DeploymentType, Availability>> }[] = AVAILABILITY.map((f) => ({
  ...f,
  get name() {
    return featureName(f.id);
  },
}));

/** Each deployment type's name, looked up in the display language when read. */
export const DEPLOYMENT_NAMES: Readonly<Record<DeploymentType, string>> = {
  get cloud() {
    return deploymentName('cloud');
  },
  get clientHosted() {
    return deploymentName('clientHosted');
  },
  get airGapped() {
    return deploymentName('airGapped');
  },
};

/**
 * One line for people: what is not (or not always) there on this kind of deployment. A whole
 * sentence per type, so that a translation can order it as its language does; a unit test holds
 * each to the table above.
 */
export function availabilityNote(type: DeploymentType): string {
  switch (type) {
    case 'cloud':
      return l10n.t('Cloud deployment: every feature is available.');
    case 'clientHosted':
      return l10n.t('Client-hosted deployment — depends on your set-up: documentation search, ai assistant, web analytics.');
    case 'airGapped':
      return l10n.t(
        'Air-gapped deployment — unavailable: documentation search, ai assistant, web analytics; depends on your set-up: api playground; the admin API cannot be reached, so bundles are carried in as files (Import Bundle File…).',
      );
  }
}
