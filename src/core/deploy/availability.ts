/** The contract's feature availability by deployment type, and what it means for this tool. */

export type DeploymentType = 'cloud' | 'clientHosted' | 'airGapped';
export type Availability = 'available' | 'configurable' | 'unavailable';

export const FEATURES: { name: string; availability: Record<DeploymentType, Availability> }[] = [
  { name: 'Documentation search', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { name: 'AI assistant', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { name: 'Web analytics', availability: { cloud: 'available', clientHosted: 'configurable', airGapped: 'unavailable' } },
  { name: 'API playground', availability: { cloud: 'available', clientHosted: 'available', airGapped: 'configurable' } },
  { name: 'Static export bundle', availability: { cloud: 'available', clientHosted: 'available', airGapped: 'available' } },
];

export const DEPLOYMENT_NAMES: Record<DeploymentType, string> = { cloud: 'Cloud', clientHosted: 'Client-hosted', airGapped: 'Air-gapped' };

/** One line for people: what is not (or not always) there on this kind of deployment. */
export function availabilityNote(type: DeploymentType): string {
  const off = FEATURES.filter((f) => f.availability[type] === 'unavailable').map((f) => f.name.toLowerCase());
  const depends = FEATURES.filter((f) => f.availability[type] === 'configurable').map((f) => f.name.toLowerCase());
  const parts: string[] = [];
  if (off.length > 0) parts.push(`unavailable: ${off.join(', ')}`);
  if (depends.length > 0) parts.push(`depends on your set-up: ${depends.join(', ')}`);
  if (type === 'airGapped') parts.push('the admin API cannot be reached, so bundles are carried in as files (Import Bundle File…)');
  return `${DEPLOYMENT_NAMES[type]} deployment${parts.length === 0 ? ': every feature is available' : ` — ${parts.join('; ')}`}.`;
}
