import {
  type FiscalEnvironment,
  listSefazEndpointRows,
  type SefazService,
  simulatedNfsePrefixes,
  simulatedSefazPath,
} from '@talao/authorizer-clients';

export type SimRoute =
  | { family: 'sefaz'; authorizer: string; environment: FiscalEnvironment; operation: SefazService; method: string }
  | { family: 'sefin' | 'adn'; environment: FiscalEnvironment; rest: string };

/**
 * Every real SEFAZ endpoint under `/<authorizer>/<homologacao|producao><real path>` (the scheme of
 * resolveSefazEndpoint's base-URL override), built from the same table the clients route with, so they cannot drift.
 * Paths match case-insensitively, as the IIS-hosted services do.
 */
const sefazRoutes = new Map<string, SimRoute>();
for (const row of listSefazEndpointRows()) {
  sefazRoutes.set(simulatedSefazPath(row).toLowerCase(), {
    family: 'sefaz',
    authorizer: row.authorizer,
    environment: row.environment,
    operation: row.operation as SefazService,
    method: row.method,
  });
}

const nfsePrefixes = (['homologation', 'production'] as const).flatMap((environment) => {
  const prefixes = simulatedNfsePrefixes(environment);
  return [
    { family: 'sefin' as const, environment, prefix: prefixes.sefin },
    { family: 'adn' as const, environment, prefix: prefixes.adn },
  ];
});

export function matchRoute(pathname: string): SimRoute | undefined {
  const sefaz = sefazRoutes.get(pathname.toLowerCase());
  if (sefaz) return sefaz;
  for (const p of nfsePrefixes) {
    if (pathname === p.prefix || pathname.startsWith(`${p.prefix}/`))
      return { family: p.family, environment: p.environment, rest: pathname.slice(p.prefix.length) };
  }
  return undefined;
}

export function faultKey(route: SimRoute): string {
  return route.family === 'sefaz' ? route.authorizer : route.family.toUpperCase();
}
