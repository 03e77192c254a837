// The DPS's xInfComp (TSDescInfCompl, 1–2000): the items' observations in line order, then additional_info,
// joined with " | ". Validation checks its length with the same function the DPS is computed with.
import type { ValidatedItem } from './validated-request.js';

export function dpsComplementaryText(
  items: readonly Pick<ValidatedItem, 'observations'>[],
  additionalInfo: string | undefined,
): string | undefined {
  const parts = items.flatMap((item) => (item.observations ? [item.observations] : []));
  if (additionalInfo) parts.push(additionalInfo);
  return parts.length > 0 ? parts.join(' | ') : undefined;
}
