import type { ApiVersionDeprecation } from '@talao/config';
import type { GatewayRequest, GatewayResponse, Next } from './gateway-request.js';
import { pathOf } from './gateway-request.js';

/**
 * `Deprecation`, `Sunset` (HTTP-dates) and `Link: <…>; rel="deprecation"` on every response of a deprecated API
 * version, errors included, so clients notice whatever they call. Configured per version (API_V1_DEPRECATED_AT…).
 */
export function deprecationHeaders(
  deprecations: Readonly<Record<string, ApiVersionDeprecation>>,
  defaultLink: (version: string) => string,
) {
  const headersByVersion = new Map<string, [string, string][]>();
  for (const [version, d] of Object.entries(deprecations)) {
    const headers: [string, string][] = [];
    if (d.deprecatedAt) headers.push(['Deprecation', d.deprecatedAt.toUTCString()]);
    if (d.sunsetAt) headers.push(['Sunset', d.sunsetAt.toUTCString()]);
    if (headers.length > 0) headers.push(['Link', `<${d.link ?? defaultLink(version)}>; rel="deprecation"`]);
    headersByVersion.set(version, headers);
  }
  return (req: GatewayRequest, res: GatewayResponse, next: Next): void => {
    const version = /^\/api\/(v\d+)(?:\/|$)/.exec(pathOf(req))?.[1];
    for (const [name, value] of (version && headersByVersion.get(version)) || []) res.setHeader(name, value);
    next();
  };
}
