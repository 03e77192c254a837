// `npm run admin -- <command> [--flag value | --flag=value]…` parsed without a dependency.

export class UsageError extends Error {}

export interface ParsedArguments {
  readonly command: string;
  readonly flags: Readonly<Record<string, string>>;
  readonly positionals: readonly string[];
}

export function parseArguments(argv: readonly string[]): ParsedArguments {
  const [command, ...rest] = argv;
  if (!command || command.startsWith('-')) throw new UsageError('missing command');
  const flags: Record<string, string> = {};
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`bad flag ${arg}`);
    if (name in flags) throw new UsageError(`--${name} given twice`);
    if (eq !== -1) {
      flags[name] = arg.slice(eq + 1);
    } else {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
      i++;
    }
  }
  return { command, flags, positionals };
}

/** Flags of create-company (and update-company) → fields of the admin API's company body (flags win over --json / --file). */
const COMPANY_FLAGS: Record<string, (body: CompanyBody, value: string) => void> = {
  'tax-id': (b, v) => (b.tax_id = v),
  'legal-name': (b, v) => (b.legal_name = v),
  'trade-name': (b, v) => (b.trade_name = v),
  'tax-regime': (b, v) => (b.tax_regime = v),
  'state-registration': (b, v) => (b.state_registration = v),
  'municipal-registration': (b, v) => (b.municipal_registration = v),
  street: (b, v) => (address(b).street = v),
  number: (b, v) => (address(b).number = v),
  complement: (b, v) => (address(b).complement = v),
  neighborhood: (b, v) => (address(b).neighborhood = v),
  city: (b, v) => (address(b).city = v),
  'city-code': (b, v) => (address(b).city_code = v),
  state: (b, v) => (address(b).state = v),
  'zip-code': (b, v) => (address(b).zip_code = v),
  phone: (b, v) => (b.phone = v),
  email: (b, v) => (b.email = v),
  'nfe-series': (b, v) => (series(b).nfe = integer('nfe-series', v)),
  'nfse-series': (b, v) => (series(b).nfse = integer('nfse-series', v)),
  'nfse-service-code': (b, v) => (b.default_nfse_service_code = v),
  'approximate-taxes': (b, v) => (b.approximate_taxes = approximateTaxes(v)),
  'plan-name': (b, v) => (plan(b).name = v),
  'production-quota': (b, v) => (plan(b).production_quota = v === 'unlimited' ? null : integer('production-quota', v)),
  'overage-price': (b, v) => (plan(b).overage_price = v === 'none' ? null : v),
};

type CompanyBody = Record<string, unknown> & {
  address?: Record<string, unknown>;
  default_series?: Record<string, unknown>;
  plan?: Record<string, unknown>;
};

const address = (b: CompanyBody) => (b.address ??= {});
const series = (b: CompanyBody) => (b.default_series ??= {});
const plan = (b: CompanyBody) => (b.plan ??= { production_quota: null, overage_price: null });

/** "13.45,0,2.00": the federal, state and municipal percentages (Lei 12.741/2012), in that order. */
function approximateTaxes(value: string): Record<string, string> {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length !== 3) throw new UsageError('--approximate-taxes takes three percentages: federal,state,municipal');
  const [federal, state, municipal] = parts as [string, string, string];
  return { federal, state, municipal };
}

function integer(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number`);
  return Number(value);
}

export const COMPANY_FLAG_NAMES = Object.keys(COMPANY_FLAGS);

export function companyBodyFromFlags(
  base: Record<string, unknown>,
  flags: Readonly<Record<string, string>>,
  command = 'create-company',
): Record<string, unknown> {
  const body = structuredClone(base) as CompanyBody;
  for (const [name, value] of Object.entries(flags)) {
    if (name === 'json' || name === 'file' || (name === 'company' && command === 'update-company')) continue;
    const apply = COMPANY_FLAGS[name];
    if (!apply) throw new UsageError(`${command} does not know --${name}`);
    apply(body, value);
  }
  return body;
}
